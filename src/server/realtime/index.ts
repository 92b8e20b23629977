import type { Server as HttpServer } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { isUuid } from '../../domain/ids.js';
import {
  type ClientToServerEvents,
  type InterServerEvents,
  type PeerEventName,
  type PeerMessage,
  type ServerEventName,
  type ServerToClientEvents,
  USER_ACCESS_EVENT,
  type UserNoticeEventName,
} from '../../domain/realtime.js';
import type { Db } from '../db/connect.js';
import { liveSessions } from '../db/schema.js';
import { isTrustedOrigin } from '../http/csrf.js';
import type { Metrics } from '../http/metrics.js';
import { canEditSession } from '../policies/live-sessions.js';
import { loadAccess, resolveSession, SESSION_COOKIE } from '../sessions/store.js';
import { clientAddress } from './client-address.js';
import { summarizeErrors } from './error-summary.js';
import { handlePublicRooms, newPublicRoomState } from './public-rooms.js';
import { emitToRoomHere } from './room-frames.js';
import { createLocalRelay, createRedisRelay, type RoomRelay } from './room-relay.js';
import { accessRooms, isAccessRoom, rooms } from './rooms.js';
import type { RealtimeServer, SocketData } from './types.js';
import { createUserNotices } from './user-notices.js';
import { createViewerCounter } from './viewers.js';

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
  /** To this instance's public viewers of one auction only (what a relay's receiver sends). */
  toAuctionHere<E extends ServerEventName>(auctionId: string, event: E, ...args: Args<E>): void;
  /** A room's changes to the instances holding its sockets, each to decide its own sends (realtime/room-relay.ts). */
  relay: RoomRelay;
  /** To the public viewers of one live session. */
  toSession<E extends ServerEventName>(sessionId: string, event: E, ...args: Args<E>): void;
  toUser<E extends ServerEventName>(userId: string, event: E, ...args: Args<E>): void;
  /**
   * To a user on every instance, for what may come hundreds a second (an outbid notice per bid):
   * her sockets here at once, the other instances' gathered (realtime/user-notices.ts).
   */
  toUserOften<E extends UserNoticeEventName>(userId: string, event: E, ...args: Args<E>): void;
  /**
   * Between server instances (over Redis): `toPeers` reaches every other instance's `onPeer`
   * handlers. A single instance has no peers, and both do nothing.
   */
  toPeers<E extends PeerEventName>(event: E, message: PeerMessage<E>): void;
  onPeer(event: PeerEventName, handler: (message: unknown) => void): void;
  /** The viewers of a live session, on every instance (realtime/viewers.ts says who counts). */
  viewerCount(sessionId: string): number;
  /** A rehearsal's simulated viewers, added to the session's count here (features/rehearsal/rehearsal-driver.ts); null removes them. */
  setSimulatedViewers(sessionId: string, count: number | null): void;
  /** Re-reads a user's roles and company and re-assigns their open sockets' rooms, here and on every other instance. */
  refreshUserAccess(userId: string): Promise<void>;
  /** Ends every socket opened with this sign-in session (on logout). */
  disconnectAuthSession(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

/** One 'Pedir a los espectadores activar audio' per editor this often; more is a stuck button or a script. */
const PROMPT_UNMUTE_EVERY_MS = 3000;

export async function createRealtime(
  server: HttpServer,
  opts: {
    db: Db;
    metrics: Metrics;
    publicUrl: URL;
    redisUrl: string | null;
    sessionSecret: string;
    /** TRUST_PROXY: read the client's address from X-Forwarded-For, as Fastify does. */
    trustProxy?: boolean;
    /**
     * Where Redis's failures are told (a publish, a subscribe, a lost connection): the first at
     * once, then at most one line every 10 s with how many failed since (`summarizeErrors`).
     */
    log?: (err: unknown, count: number) => void;
    /** VIEWERS_PER_ADDRESS: the most sockets of one address the viewer count counts. */
    viewersPerAddress?: number;
    viewerCountMs?: number;
  },
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
  let relaySub: Redis | null = null;
  let relay: RoomRelay;
  const redisErrors = summarizeErrors(opts.log ?? (() => {}));
  if (opts.redisUrl) {
    // Loaded only with several instances: a single one does not hold them in its memory.
    const [{ Redis }, { createShardedAdapter }] = await Promise.all([import('ioredis'), import('@socket.io/redis-adapter')]);
    pub = new Redis(opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    sub = pub.duplicate();
    relaySub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect(), relaySub.connect()]);
    // Without a listener ioredis writes every failed reconnect to stderr.
    for (const client of [pub, sub, relaySub]) client.on('error', redisErrors.error);
    // Redis 7's sharded pub/sub, a channel per room, subscribed to while this instance holds the
    // room's sockets: a show's emits reach only the instances that hold its viewers, so many
    // shows at once do not each cost every instance.
    io.adapter(createShardedAdapter(pub, sub, { subscriptionMode: 'dynamic' }));
    relay = createRedisRelay(io, pub, relaySub, redisErrors.error);
  } else {
    relay = createLocalRelay();
  }

  /** Access refreshes seen by this instance, so a socket whose handshake raced one re-reads its access. */
  let accessChanges = 0;

  io.use(async (socket, next) => {
    try {
      socket.data.accessSeen = accessChanges;
      socket.data.address = clientAddress(socket.request, opts.trustProxy ?? false);
      socket.data.publicRooms = newPublicRoomState();
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
    handlePublicRooms(socket, {
      db: opts.db,
      onSessionJoin: (sessionId) => viewers.greet(socket, sessionId),
    });
    sessionRoomEmits(socket);
  });

  const userNotices = createUserNotices(io, { peers: Boolean(pub) });

  const viewers = createViewerCounter(io, {
    peers: Boolean(pub),
    ...(opts.viewersPerAddress ? { perAddress: opts.viewersPerAddress } : {}),
    ...(opts.viewerCountMs ? { intervalMs: opts.viewerCountMs } : {}),
  });

  /** When each user last asked for a promptUnmute (forgotten once older than the limit). */
  const unmutedAt = new Map<string, number>();

  /**
   * SPEC §7's emits into a session room. `sessionStatusUpdate` is the server's alone: a status
   * changes over HTTP (PUT /api/live-sessions/{id}), which broadcasts it, so a client's emit is
   * dropped here. `promptUnmute` is relayed to the room only from the session's editors (read from
   * the database, at most once per PROMPT_UNMUTE_EVERY_MS per user); anyone else is ignored.
   */
  function sessionRoomEmits(socket: RealtimeSocket) {
    socket.on('sessionStatusUpdate', () => {});
    socket.on('promptUnmute', (payload: unknown, ack?: (answer: { ok: boolean }) => void) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      const user = socket.data.user;
      const sessionId = (payload as { sessionId?: unknown } | null)?.sessionId;
      if (!user || !isUuid(sessionId)) return reply({ ok: false });
      const now = Date.now();
      for (const [id, at] of unmutedAt) if (now - at >= PROMPT_UNMUTE_EVERY_MS) unmutedAt.delete(id);
      if (unmutedAt.has(user.id)) return reply({ ok: false });
      // Counted when asked, so a refused user cannot make the server read the database at will either.
      unmutedAt.set(user.id, now);
      const id = sessionId.toLowerCase();
      void opts.db
        .select({ companyId: liveSessions.companyId, sellerId: liveSessions.sellerId })
        .from(liveSessions)
        .where(eq(liveSessions.id, id))
        .then(([session]) => {
          // The user as this socket knows it now (an access change re-assigns it).
          if (!session || !canEditSession(socket.data.user, session)) return reply({ ok: false });
          io.to(rooms.session(id)).emit('promptUnmute', { sessionId: id });
          reply({ ok: true });
        })
        .catch(() => reply({ ok: false }));
    });
  }

  /** Joins the rooms the socket's user is granted now, and leaves those it no longer is. */
  function assignAccessRooms(socket: RealtimeSocket) {
    const granted = socket.data.user ? accessRooms(socket.data.user) : [];
    for (const room of socket.rooms) if (isAccessRoom(room) && !granted.includes(room)) socket.leave(room);
    socket.join(granted);
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
    // The hot path of a busy auction: one shared frame for the whole room (realtime/room-frames.ts).
    toAuctionHere: (auctionId, event, ...args) => void emitToRoomHere(io, rooms.auction(auctionId), event, args[0]),
    relay,
    toSession: (sessionId, event, ...args) => io.to(rooms.session(sessionId)).emit(event, ...args),
    toUser: (userId, event, ...args) => io.to(rooms.user(userId)).emit(event, ...args),
    toUserOften: (userId, event, ...args) => userNotices.send(userId, event, args[0]),
    toPeers(event: PeerEventName, message: unknown) {
      if (pub) io.serverSideEmit(event, message);
    },
    onPeer(event, handler) {
      if (pub) io.on(event, handler);
    },
    viewerCount: (sessionId) => viewers.count(sessionId),
    setSimulatedViewers: (sessionId, count) => viewers.simulate(sessionId, count),
    async refreshUserAccess(userId) {
      if (pub) io.serverSideEmit(USER_ACCESS_EVENT, { userId });
      await refreshLocal(userId);
    },
    async disconnectAuthSession(sessionId) {
      io.in(rooms.authSession(sessionId)).disconnectSockets(true);
    },
    async close() {
      // Like io.close(), but leaves the HTTP server to Fastify, which is closing it.
      viewers.stop();
      userNotices.flush();
      io.local.disconnectSockets(true);
      io.engine.close();
      await relay.close();
      await Promise.all([pub?.quit(), sub?.quit(), relaySub?.quit()].filter(Boolean));
      redisErrors.flush();
    },
  };
}
