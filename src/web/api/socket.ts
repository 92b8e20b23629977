import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  type ClientToServerEvents,
  PUBLIC_ROOMS,
  type PublicRoomKind,
  type RoomAck,
  type ServerEventName,
  type ServerEventPayload,
  type ServerToClientEvents,
} from '../../domain/realtime.js';
import { type DisconnectReason, RealtimeSocket } from './realtime-client';

export type AppSocket = RealtimeSocket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;

/**
 * The one Socket.IO client of the page (SPEC §7, §9): websocket only, connected by hand, and
 * retrying forever between 1 and 5 seconds (realtime-client.ts). The httpOnly session cookie
 * authenticates it.
 */
export function getSocket(): AppSocket {
  if (!socket) socket = new RealtimeSocket({ path: '/socket.io', reconnectionDelay: 1000, reconnectionDelayMax: 5000 });
  return socket;
}

export function connectSocket(): void {
  const s = getSocket();
  if (!s.connected && !s.active) s.connect();
}

export function disconnectSocket(): void {
  if (socket?.active || socket?.connected) socket.disconnect();
}

/** Keeps the socket connected while `enabled` (an admin or seller is signed in), closed otherwise. */
export function useSocketConnection(enabled: boolean): void {
  useEffect(() => {
    if (enabled) connectSocket();
    else disconnectSocket();
  }, [enabled]);
}

/** Keeps the latest value of a callback without re-running the effects that use it. */
function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}

/** Subscribes to one server event for the life of the component; the handler may change freely. */
export function useSocketEvent<E extends ServerEventName>(event: E, handler: (payload: ServerEventPayload<E>) => void): void {
  const handlerRef = useLatest(handler);
  useEffect(() => {
    // The typed `on` cannot follow a generic event name: its untyped form takes the listener.
    const s = getSocket();
    const name: string = event;
    const listener = (payload: unknown) => handlerRef.current(payload as ServerEventPayload<E>);
    s.on(name, listener);
    return () => {
      s.off(name, listener);
    };
  }, [event, handlerRef]);
}

/**
 * The one resync after a reconnection: events sent while the socket was down are lost, so
 * `onResync` refetches what they would have changed. Not called on the first connection.
 */
export function useResync(onResync: () => void): void {
  const resyncRef = useLatest(onResync);
  useEffect(() => {
    const s = getSocket();
    let wasDisconnected = false;
    const onDisconnect = () => {
      wasDisconnected = true;
    };
    const onConnect = () => {
      if (!wasDisconnected) return;
      wasDisconnected = false;
      resyncRef.current();
    };
    s.on('disconnect', onDisconnect);
    s.on('connect', onConnect);
    return () => {
      s.off('disconnect', onDisconnect);
      s.off('connect', onConnect);
    };
  }, [resyncRef]);
}

/**
 * Keeps this page in one public room (signed out too): connects the socket, joins on every
 * (re)connection, leaves on unmount. After each join, `onResync` refetches what was fetched before
 * the page was in the room (or while it was disconnected), if an event may have been missed: it gets
 * the version the server read after the join (null when unknown), to compare with what it holds.
 * Returns whether the page is live.
 */
export function useRoom(
  room: { kind: PublicRoomKind; id: string },
  opts: { onResync?: (version: number | null) => void; host?: boolean } = {},
): { isConnected: boolean } {
  const { kind, id } = room;
  const resyncRef = useLatest(opts.onResync);
  const host = opts.host ?? false;
  const [isConnected, setConnected] = useState(() => getSocket().connected);

  useEffect(() => {
    const s = getSocket();
    const onConnect = () => {
      setConnected(true);
      roomCall(
        s,
        kind,
        id,
        'join',
        (answer) => {
          if (!answer.ok) return;
          setJoined(`${kind}:${id}`, true);
          resyncRef.current?.(answer.version ?? null);
        },
        host,
      );
    };
    const onDisconnect = (reason: DisconnectReason) => {
      setConnected(false);
      setJoined(null, false);
      // The server closed it (a sign-out elsewhere, say): Socket.IO does not retry that by itself,
      // but a public room needs no sign-in, so come back (anonymously if need be).
      if (reason === 'io server disconnect') setTimeout(() => connectSocket(), 1000);
    };
    s.on('connect', onConnect);
    s.on('disconnect', onDisconnect);
    if (s.connected) onConnect();
    else connectSocket();
    return () => {
      s.off('connect', onConnect);
      s.off('disconnect', onDisconnect);
      setJoined(`${kind}:${id}`, false);
      if (s.connected) roomCall(s, kind, id, 'leave', () => {});
    };
  }, [kind, id, resyncRef, host]);

  return { isConnected };
}

/** The public rooms this page's socket is in now (joined and answered; a disconnection leaves them all). */
const joinedRooms = new Set<string>();
const joinedListeners = new Set<() => void>();
function setJoined(room: string | null, isIn: boolean): void {
  if (room === null) joinedRooms.clear();
  else if (isIn) joinedRooms.add(room);
  else joinedRooms.delete(room);
  for (const listener of joinedListeners) listener();
}

/**
 * Whether the page is in a public room now: what is read after this is followed by the room's
 * events, with no gap between the read and the join (the chat's first page waits for it).
 */
export function useRoomJoined(kind: PublicRoomKind, id: string): boolean {
  const room = `${kind}:${id}`;
  return useSyncExternalStore(
    (listener) => {
      joinedListeners.add(listener);
      return () => joinedListeners.delete(listener);
    },
    () => joinedRooms.has(room),
    () => false,
  );
}

/** joinAuction / leaveAuction / joinSession / leaveSession, each with its own typed payload. */
function roomCall(s: AppSocket, kind: PublicRoomKind, id: string, action: 'join' | 'leave', ack: (answer: RoomAck) => void, host = false): void {
  if (kind === 'auction') s.emit(PUBLIC_ROOMS.auction[action], { auctionId: id }, ack);
  else if (action === 'join' && host) s.emit('joinSession', { sessionId: id, host: true }, ack);
  else s.emit(PUBLIC_ROOMS.session[action], { sessionId: id }, ack);
}
