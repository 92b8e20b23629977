import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';

let socket: Socket | null = null;

/**
 * The one Socket.IO client of the page (SPEC §7, §9): websocket only, connected by hand, and
 * retrying forever between 1 and 5 seconds. The httpOnly session cookie authenticates it.
 */
export function getSocket(): Socket {
  if (!socket) {
    socket = io({
      path: '/socket.io',
      transports: ['websocket'],
      autoConnect: false,
      withCredentials: true,
      reconnection: true,
      reconnectionAttempts: Number.POSITIVE_INFINITY,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
    });
  }
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

/** Subscribes to one server event for the life of the component; the handler may change freely. */
export function useSocketEvent<T = unknown>(event: string, handler: (payload: T) => void): void {
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });
  useEffect(() => {
    const s = getSocket();
    const listener = (payload: T) => handlerRef.current(payload);
    s.on(event, listener);
    return () => {
      s.off(event, listener);
    };
  }, [event]);
}
