import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, InterServerEvents, ServerToClientEvents } from '../../domain/realtime.js';
import type { CurrentUser } from '../sessions/store.js';
import type { PublicRoomState } from './public-rooms.js';

/** The Socket.IO server's types, apart from index.ts: viewers.ts (which index.ts imports) and the video providers read them too. */
export interface SocketData {
  user: CurrentUser | null;
  /** `accessChanges` when the session was read: a change since then is re-read at connection. */
  accessSeen: number;
  /** The client's address as per-address limits count it (client-address.ts; behind TRUST_PROXY, the forwarded one). */
  address: string;
  /** The public rooms this socket holds (public-rooms.ts). */
  publicRooms: PublicRoomState;
}
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
