import type { Server as HttpServer } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { isUuid } from '../../domain/ids.js';
import {
  type ClientToServerEvents,
  type InterServerEvents,
  type PeerEventName,
  type PeerMessage,
  PUBLIC_ROOMS,
  type PublicRoomKind,
  type RoomAck,
  type ServerEventName,
  type ServerToClientEvents,
  USER_ACCESS_EVENT,
} from '../../domain/realtime.js';
import type { Db } from '../db/connect.js';
import { type CurrentUser, loadAccess, resolveSession, SESSION_COOKIE } from '../features/auth/sessions.js';
import { isTrustedOrigin } from '../http/csrf.js';
import type { Metrics } from '../http/metrics.js';
import { accessRooms, isAccessRoom, rooms } from './rooms.js';

export interface SocketData {
  user: CurrentUser | null;
  /** `accessChanges` when the session was read: a change since then is re-read at connection. */
  accessSeen: number;
}
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type Args<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>;

export interface Realtime {
  io: RealtimeServer;
  /** To these rooms, on every instance. */
  to<E extends ServerEventName>(roomNames: string[], event: E, ...args: Args<E>): void;
  /** To a company's panel (its admins and sellers) and to the platform admins. */
  toCompany<E extends ServerEventName>(companyId: string, event: E, ...args: Args<E>): void;
  /** To the public viewers of one auction. */
  toAuction<E extends ServerEventName>(auctionId: string, event: E, ...args: Args<E>): void;
  /** To the public viewers of one live session. */
  toSession<E extends ServerEventName>(sessionId: string, event: E, ...args: Args<E>): void;
  toUser<E extends ServerEventName>(userId: string, event: E, ...args: Args<E>): void;
  /**
   * Between server instances (over Redis): `toPeers` reaches every other instance's `onPeer`
   * handlers. A single instance has no peers, and both do nothing.
   */
  toPeers<E extends PeerEventName>(event: E, message: PeerMessage<E>): void;
  onPeer(event: PeerEventName, handler: (message: unknown) => void): void;
  /** Re-reads a user's roles and company and re-assigns their open sockets' rooms, here and on every other instance. */
  refreshUserAccess(userId: string): Promise<void>;
  /** Ends every socket opened with this sign-in session (on logout). */
  disconnectAuthSession(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

/** A viewer may watch a handful of public rooms at once; more is a scraper. */
const MAX_PUBLIC_ROOMS = 20;

export async function createRealtime(
  server: HttpServer,
  opts: { db: Db; metrics: Metrics; publicUrl: URL; redisUrl: string | null; sessionSecret: string },
): Promise<Realtime> {
  const io: RealtimeServer = new Server(server, {
    path: '/socket.io',
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    // A cross-site page must not open a socket with our visitor's cookie.
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      callback(null, !origin || isTrustedOrigin(origin, opts.publicUrl));
    },
  });

  let pub: Redis | null = null;
  let sub: Redis | null = null;
  if (opts.redisUrl) {
    pub = new Redis(opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub));
  }

  /** Access refreshes seen by this instance, so a socket whose handshake raced one re-reads its access. */
  let accessChanges = 0;

  io.use(async (socket, next) => {
    try {
      socket.data.accessSeen = accessChanges;
      const cookies = fastifyCookie.parse(socket.request.headers.cookie ?? '');
      socket.data.user = await resolveSession(opts.db, cookies[SESSION_COOKIE], opts.sessionSecret);
      next();
    } catch (err) {
      next(err instanceof Error ? err : new Error('auth failed'));
    }
  });

  io.on('connection', (socket) => {
    opts.metrics.socketConnections.inc();
    socket.on('disconnect', () => opts.metrics.socketConnections.dec());
    const user = socket.data.user;
    // Private rooms are assigned here, from the session; a client cannot ask for them.
    if (user) {
      socket.join([rooms.user(user.id), rooms.authSession(user.sessionId)]);
      assignAccessRooms(socket);
      if (socket.data.accessSeen !== accessChanges) void refreshLocal(user.id).catch(() => {});
    }
    publicRoom(socket, 'auction');
    publicRoom(socket, 'session');
  });

  /** Joins the rooms the socket's user is granted now, and leaves those it no longer is. */
  function assignAccessRooms(socket: RealtimeSocket) {
    const granted = socket.data.user ? accessRooms(socket.data.user) : [];
    for (const room of socket.rooms) if (isAccessRoom(room) && !granted.includes(room)) socket.leave(room);
    socket.join(granted);
  }

  /** Public rooms admit anyone, to receive only: nothing a viewer sends is relayed. */
  function publicRoom(socket: RealtimeSocket, kind: PublicRoomKind) {
    const { join, leave, key } = PUBLIC_ROOMS[kind];
    const room = kind === 'auction' ? rooms.auction : rooms.session;
    // Payloads come from anyone: typed as the client should send them, checked as unknown.
    const idOf = (payload: unknown) => (payload as Record<string, unknown> | null)?.[key];
    socket.on(join, (payload: unknown, ack?: (answer: RoomAck) => void) => {
      const id = idOf(payload);
      const reply = typeof ack === 'function' ? ack : () => {};
      if (!isUuid(id)) return reply({ ok: false, error: 'invalid_id' });
      const joined = [...socket.rooms].filter((r) => r.startsWith('auction:') || r.startsWith('session:')).length;
      if (joined >= MAX_PUBLIC_ROOMS) return reply({ ok: false, error: 'too_many_rooms' });
      socket.join(room(id.toLowerCase()));
      reply({ ok: true });
    });
    socket.on(leave, (payload: unknown, ack?: (answer: RoomAck) => void) => {
      const id = idOf(payload);
      if (isUuid(id)) socket.leave(room(id.toLowerCase()));
      if (typeof ack === 'function') ack({ ok: true });
    });
  }

  /** One re-read at a time, so the last change read is the last one applied. */
  let accessQueue: Promise<void> = Promise.resolve();
  function refreshLocal(userId: string): Promise<void> {
    accessChanges++;
    const run = async () => {
      const ids = io.of('/').adapter.rooms.get(rooms.user(userId));
      if (!ids || ids.size === 0) return;
      const access = await loadAccess(opts.db, userId);
      for (const id of io.of('/').adapter.rooms.get(rooms.user(userId)) ?? []) {
        const socket = io.of('/').sockets.get(id);
        if (!socket?.data.user) continue;
        socket.data.user = { ...socket.data.user, ...access };
        assignAccessRooms(socket);
      }
    };
    accessQueue = accessQueue.then(run, run);
    return accessQueue;
  }
  if (pub) {
    io.on(USER_ACCESS_EVENT, (message: unknown) => {
      const userId = (message as { userId?: unknown } | null)?.userId;
      if (typeof userId === 'string') void refreshLocal(userId).catch(() => {});
    });
  }

  return {
    io,
    to: (roomNames, event, ...args) => io.to(roomNames).emit(event, ...args),
    toCompany: (companyId, event, ...args) => io.to([rooms.company(companyId), rooms.admins]).emit(event, ...args),
    toAuction: (auctionId, event, ...args) => io.to(rooms.auction(auctionId)).emit(event, ...args),
    toSession: (sessionId, event, ...args) => io.to(rooms.session(sessionId)).emit(event, ...args),
    toUser: (userId, event, ...args) => io.to(rooms.user(userId)).emit(event, ...args),
    toPeers(event: PeerEventName, message: unknown) {
      if (pub) io.serverSideEmit(event, message);
    },
    onPeer(event, handler) {
      if (pub) io.on(event, handler);
    },
    async refreshUserAccess(userId) {
      if (pub) io.serverSideEmit(USER_ACCESS_EVENT, { userId });
      await refreshLocal(userId);
    },
    async disconnectAuthSession(sessionId) {
      io.in(rooms.authSession(sessionId)).disconnectSockets(true);
    },
    async close() {
      // Like io.close(), but leaves the HTTP server to Fastify, which is closing it.
      io.local.disconnectSockets(true);
      io.engine.close();
      await Promise.all([pub?.quit(), sub?.quit()].filter(Boolean));
    },
  };
}
