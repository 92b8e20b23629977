import { io, type Socket } from 'socket.io-client';
import type { SessionStatusEvent } from '../../src/domain/realtime.js';

/**
 * A real Socket.IO client, websocket only, optionally carrying a session cookie. `forwardedFor`
 * sends an X-Forwarded-For header (a proxy's claim, read only with TRUST_PROXY); `localAddress`
 * connects from another loopback address (127.0.0.2, ...), a different client as the server sees it.
 */
export function connectSocket(
  baseUrl: string,
  opts: { cookie?: string; origin?: string; transports?: string[]; forwardedFor?: string; localAddress?: string } = {},
): Socket {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.origin) headers.origin = opts.origin;
  if (opts.forwardedFor) headers['x-forwarded-for'] = opts.forwardedFor;
  // engine.io-client hands localAddress to Node's WebSocket; its types leave it out.
  const local = opts.localAddress ? ({ localAddress: opts.localAddress } as object) : {};
  return io(baseUrl, {
    path: '/socket.io',
    transports: opts.transports ?? ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: headers,
    ...local,
  });
}

export function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
}

export function nextEvent<T = unknown>(socket: Socket, event: string, timeoutMs = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** The first `event` whose payload `matches` (others, such as another auction's update, are passed over). */
export function nextEventWhere<T = unknown>(socket: Socket, event: string, matches: (payload: T) => boolean, timeoutMs = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const handler = (payload: T) => {
      if (!matches(payload)) return;
      clearTimeout(timer);
      socket.off(event, handler);
      resolve(payload);
    };
    const timer = setTimeout(() => {
      socket.off(event, handler);
      reject(new Error(`no matching ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on(event, handler);
  });
}

/** Resolves with the events received during `ms`: used to show that something did NOT arrive. */
export function collect(socket: Socket, event: string, ms: number): Promise<unknown[]> {
  const seen: unknown[] = [];
  const handler = (p: unknown) => seen.push(p);
  socket.on(event, handler);
  return new Promise((resolve) =>
    setTimeout(() => {
      socket.off(event, handler);
      resolve(seen);
    }, ms),
  );
}

let markers = 0;

/**
 * Whether `socket` hears `event` from what `send` emits, settled without a timer: `mark` then sends
 * a marker to a room the socket surely is in (its user room), and events from one instance arrive in
 * the order they were sent, so once the marker is in, anything `send` reached this socket with is too.
 */
export async function hears(socket: Socket, event: string, send: () => void, mark: (marker: SessionStatusEvent) => void): Promise<boolean> {
  const marker: SessionStatusEvent = { sessionId: `marker-${++markers}`, status: 'scheduled', version: 0 };
  let heard = false;
  const onEvent = () => {
    heard = true;
  };
  socket.on(event, onEvent);
  const arrived = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`marker ${marker.sessionId} never arrived`)), 3000);
    const onMarker = (payload: { sessionId?: string }) => {
      if (payload?.sessionId !== marker.sessionId) return;
      clearTimeout(timer);
      socket.off('sessionStatusUpdate', onMarker);
      resolve();
    };
    socket.on('sessionStatusUpdate', onMarker);
  });
  try {
    send();
    mark(marker);
    await arrived;
    return heard;
  } finally {
    socket.off(event, onEvent);
  }
}

/** The first `event` on `socket` that satisfies `match` (the test's own timeout bounds the wait). */
export function eventMatching<T>(socket: Socket, event: string, match: (payload: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const handler = (payload: T) => {
      if (!match(payload)) return;
      socket.off(event, handler);
      resolve(payload);
    };
    socket.on(event, handler);
  });
}
