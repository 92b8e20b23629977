/**
 * The page's Socket.IO client, on the browser's own WebSocket: the few kilobytes of the protocol
 * this app speaks (Engine.IO 4 over a websocket, Socket.IO 5 packets on the main namespace, JSON
 * only), in place of socket.io-client's 13 KB gzip on every page (the public pages' weight budget,
 * bench/weight.ts). The server is the real Socket.IO server, websocket only (SPEC §7), so no polling
 * fallback is lost. package.json pins the server to the Socket.IO minor this is tested against
 * (`socket.io` ~4.8): a newer minor is a change to test here first.
 *
 * It behaves as socket.io-client does where this app relies on it: 'connect' and 'disconnect' (with
 * Socket.IO's reasons), acknowledgements, `timeout(ms).emitWithAck`, emits made while down sent on
 * the next connection, and reconnection forever with a growing, jittered delay, except after the
 * server's own disconnect ('io server disconnect'), which the caller decides about. As in
 * socket.io-client, an `emitWithAck` whose packet went out on a connection that is then lost
 * rejects with 'socket has been disconnected' (the server cannot answer it on the next one), and
 * `disconnect()` rejects every pending one; a plain acknowledgement callback is dropped then.
 * test/web/api/realtime-client.test.ts runs it against a real Socket.IO server.
 */

export type DisconnectReason = 'io server disconnect' | 'io client disconnect' | 'transport close' | 'ping timeout' | 'parse error';

type Listener = (...args: unknown[]) => void;
/** A pending acknowledgement: the answer's callback, and for `emitWithAck` how to fail it. */
interface PendingAck {
  answer: Listener;
  fail?: (error: Error) => void;
}
/** A packet emitted while down, and its acknowledgement's id if it asked for one. */
interface BufferedPacket {
  packet: string;
  ackId: number | undefined;
}
interface ReservedEvents {
  connect: () => void;
  disconnect: (reason: DisconnectReason) => void;
  connect_error: (error: Error) => void;
}
/** The payload arguments of an event whose last parameter is its acknowledgement. */
type WithoutAck<F> = F extends (...args: [...infer Args, (answer: infer _A) => void]) => void ? Args : never;
type AckAnswer<F> = F extends (...args: [...infer _Args, (answer: infer A) => void]) => void ? A : never;

export interface RealtimeOptions {
  /** The server's Socket.IO path ('/socket.io'). */
  path: string;
  /** Where the server is; the page's own origin by default. */
  url?: string;
  reconnectionDelay: number;
  reconnectionDelayMax: number;
  /** A WebSocket class other than the global one (tests in Node). */
  WebSocket?: typeof WebSocket;
}

// Engine.IO packet types (the first character of every websocket message) and Socket.IO's.
const ENGINE = { open: '0', close: '1', ping: '2', pong: '3', message: '4', noop: '6' } as const;
const SOCKET = { connect: '0', disconnect: '1', event: '2', ack: '3', connectError: '4' } as const;

/** Socket.IO's backoff: base × 2^attempt, capped, ±50 % jitter. */
export function reconnectDelay(attempt: number, base: number, max: number, random = Math.random()): number {
  const delay = Math.min(base * 2 ** attempt, max);
  const jitter = (random * 2 - 1) * 0.5 * delay;
  return Math.min(Math.max(Math.round(delay + jitter), 0), max);
}

/** One Socket.IO packet on the main namespace: its type, acknowledgement id and JSON data. */
export function decodePacket(text: string): { type: string; id: number | undefined; data: unknown } {
  const type = text.charAt(0);
  let at = 1;
  // A namespace other than '/' is named before a comma; this app uses only '/'.
  if (text.charAt(at) === '/') {
    const comma = text.indexOf(',', at);
    at = comma === -1 ? text.length : comma + 1;
  }
  let digits = '';
  while (at < text.length && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) digits += text.charAt(at++);
  const rest = text.slice(at);
  return { type, id: digits === '' ? undefined : Number(digits), data: rest === '' ? undefined : JSON.parse(rest) };
}

/** An event's arguments, from its signature in src/domain/realtime.ts. */
type ArgsOf<F> = F extends (...args: infer Args) => void ? Args : never;

export class RealtimeSocket<ServerEvents, ClientEvents> {
  /** Connected to the main namespace: events flow. */
  connected = false;
  /** From connect() to disconnect(): connected, connecting, or waiting to try again. */
  active = false;

  private ws: WebSocket | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly acks = new Map<number, PendingAck>();
  private nextAckId = 0;
  /** Packets emitted while down, sent once connected (as socket.io-client does). */
  private sendBuffer: BufferedPacket[] = [];
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setTimeout> | undefined;
  private pingDeadlineMs = 0;

  constructor(private readonly options: RealtimeOptions) {}

  connect(): this {
    if (this.active) return this;
    this.active = true;
    this.open();
    return this;
  }

  disconnect(): this {
    this.active = false;
    clearTimeout(this.retryTimer);
    if (this.connected) this.send(`${ENGINE.message}${SOCKET.disconnect}`);
    // What was waiting for a connection will not be sent: its acknowledgements fail with the rest.
    this.sendBuffer = [];
    this.drop('io client disconnect');
    return this;
  }

  on<E extends keyof ReservedEvents>(event: E, listener: ReservedEvents[E]): this;
  on<E extends keyof ServerEvents & string>(event: E, listener: ServerEvents[E]): this;
  on(event: string, listener: Listener): this;
  on(event: string, listener: unknown): this {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener);
    return this;
  }

  off<E extends keyof ReservedEvents>(event: E, listener: ReservedEvents[E]): this;
  off<E extends keyof ServerEvents & string>(event: E, listener: ServerEvents[E]): this;
  off(event: string, listener: Listener): this;
  off(event: string, listener: unknown): this {
    this.listeners.get(event)?.delete(listener as Listener);
    return this;
  }

  /** Sends an event; a function as the last argument gets the server's acknowledgement. */
  emit<E extends keyof ClientEvents & string>(event: E, ...args: ArgsOf<ClientEvents[E]>): this;
  emit(event: string, ...args: unknown[]): this;
  emit(event: string, ...args: unknown[]): this {
    const last = args[args.length - 1];
    if (typeof last !== 'function') return this.emitPacket(event, args, undefined);
    return this.emitPacket(event, args.slice(0, -1), { answer: last as Listener });
  }

  /** `emitWithAck` that rejects when no acknowledgement came within `ms`. */
  timeout(ms: number): {
    emitWithAck<E extends keyof ClientEvents & string>(event: E, ...args: WithoutAck<ClientEvents[E]>): Promise<AckAnswer<ClientEvents[E]>>;
  } {
    return {
      emitWithAck: (event: string, ...args: unknown[]) =>
        new Promise((resolve, reject) => {
          const ackId = this.nextAckId;
          const timer = setTimeout(() => {
            this.acks.delete(ackId);
            reject(new Error('operation has timed out'));
          }, ms);
          this.emitPacket(event, args, {
            answer: (answer: unknown) => {
              clearTimeout(timer);
              resolve(answer as never);
            },
            fail: (error) => {
              clearTimeout(timer);
              reject(error);
            },
          });
        }),
    };
  }

  private emitPacket(event: string, args: unknown[], ack: PendingAck | undefined): this {
    let ackId: number | undefined;
    if (ack) {
      ackId = this.nextAckId++;
      this.acks.set(ackId, ack);
    }
    const packet = `${ENGINE.message}${SOCKET.event}${ackId ?? ''}${JSON.stringify([event, ...args])}`;
    if (this.connected) this.send(packet);
    else this.sendBuffer.push({ packet, ackId });
    return this;
  }

  private open(): void {
    const base = new URL(this.options.url ?? window.location.href);
    const url = new URL(`${this.options.path.replace(/\/$/, '')}/`, base);
    url.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
    url.search = '?EIO=4&transport=websocket';
    const Ws = this.options.WebSocket ?? WebSocket;
    const ws = new Ws(url.toString());
    this.ws = ws;
    ws.onmessage = (message: MessageEvent) => {
      if (this.ws !== ws) return;
      try {
        this.onEnginePacket(String(message.data));
      } catch {
        this.lost('parse error');
      }
    };
    ws.onclose = () => {
      if (this.ws === ws) this.lost('transport close');
    };
  }

  private onEnginePacket(text: string): void {
    this.armPingDeadline();
    switch (text.charAt(0)) {
      case ENGINE.open: {
        const handshake = JSON.parse(text.slice(1)) as { pingInterval: number; pingTimeout: number };
        this.pingDeadlineMs = handshake.pingInterval + handshake.pingTimeout;
        this.armPingDeadline();
        this.send(`${ENGINE.message}${SOCKET.connect}`);
        return;
      }
      case ENGINE.ping:
        this.send(ENGINE.pong);
        return;
      case ENGINE.close:
        this.lost('transport close');
        return;
      case ENGINE.message:
        this.onSocketPacket(text.slice(1));
        return;
      default:
        // noop and anything newer: nothing to do.
        return;
    }
  }

  private onSocketPacket(text: string): void {
    const { type, id, data } = decodePacket(text);
    switch (type) {
      case SOCKET.connect: {
        this.connected = true;
        this.attempts = 0;
        const buffered = this.sendBuffer;
        this.sendBuffer = [];
        this.fire('connect');
        for (const { packet } of buffered) this.send(packet);
        return;
      }
      case SOCKET.disconnect:
        // The server ended this socket (a sign-out elsewhere): no retry of our own.
        this.active = false;
        this.drop('io server disconnect');
        return;
      case SOCKET.event: {
        const [event, ...args] = Array.isArray(data) ? (data as [string, ...unknown[]]) : [''];
        if (id !== undefined) args.push((...answer: unknown[]) => this.send(`${ENGINE.message}${SOCKET.ack}${id}${JSON.stringify(answer)}`));
        if (typeof event === 'string' && !(event in RESERVED)) this.fire(event, ...args);
        return;
      }
      case SOCKET.ack: {
        if (id === undefined) return;
        const ack = this.acks.get(id);
        this.acks.delete(id);
        ack?.answer(...(Array.isArray(data) ? data : []));
        return;
      }
      case SOCKET.connectError: {
        const message = (data as { message?: string } | undefined)?.message ?? 'connect error';
        this.fire('connect_error', new Error(message));
        // Refused by the server's middleware (its database was down, say): try again later.
        this.lost('transport close');
        return;
      }
      default:
        return;
    }
  }

  /** The connection is gone without our asking: say so, and come back unless told to stop. */
  private lost(reason: DisconnectReason): void {
    this.drop(reason);
    if (!this.active) return;
    clearTimeout(this.retryTimer);
    const delay = reconnectDelay(this.attempts++, this.options.reconnectionDelay, this.options.reconnectionDelayMax);
    this.retryTimer = setTimeout(() => {
      if (this.active && !this.ws) this.open();
    }, delay);
  }

  /** Closes the websocket and, if the namespace was connected, reports 'disconnect'. */
  private drop(reason: DisconnectReason): void {
    clearTimeout(this.pingTimer);
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onmessage = null;
      ws.onclose = null;
      ws.close();
    }
    if (this.connected) {
      this.connected = false;
      this.fire('disconnect', reason);
    }
    this.failSentAcks();
  }

  /**
   * The acknowledgements of packets that went out on the connection just lost can never come (the
   * server answers on the connection it was asked on): `emitWithAck` rejects, a callback is dropped.
   * Those of packets still waiting for a connection stay until they are sent.
   */
  private failSentAcks(): void {
    const waiting = new Set(this.sendBuffer.map((buffered) => buffered.ackId));
    for (const [id, ack] of this.acks) {
      if (waiting.has(id)) continue;
      this.acks.delete(id);
      ack.fail?.(new Error('socket has been disconnected'));
    }
  }

  /** No packet (the server pings every pingInterval) within pingInterval + pingTimeout: the link is dead. */
  private armPingDeadline(): void {
    if (this.pingDeadlineMs <= 0) return;
    clearTimeout(this.pingTimer);
    this.pingTimer = setTimeout(() => this.lost('ping timeout'), this.pingDeadlineMs);
  }

  private send(packet: string): void {
    if (this.ws?.readyState === 1) this.ws.send(packet);
  }

  private fire(event: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
}

const RESERVED: Record<string, true> = { connect: true, disconnect: true, connect_error: true };
