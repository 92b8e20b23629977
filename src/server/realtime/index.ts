import type { Server as HttpServer } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { isUuid } from '../../domain/ids.js';
import { canUsePanel, isAdmin } from '../../domain/roles.js';
import type { Db } from '../db/connect.js';
import { type CurrentUser, resolveSession, SESSION_COOKIE } from '../features/auth/sessions.js';
import { isTrustedOrigin } from '../http/csrf.js';
import type { Metrics } from '../http/metrics.js';
import { rooms } from './rooms.js';

export interface Realtime {
  io: Server;
  /** To a company's panel (its admins and sellers) and to the platform admins. */
  toCompany(companyId: string, event: string, payload: unknown): void;
  /** To the public viewers of one auction. */
  toAuction(auctionId: string, event: string, payload: unknown): void;
  /** To the public viewers of one live session. */
  toSession(sessionId: string, event: string, payload: unknown): void;
  toUser(userId: string, event: string, payload: unknown): void;
  /**
   * Between server instances (over Redis): `toPeers` reaches every other instance's `onPeer`
   * handlers. A single instance has no peers, and both do nothing.
   */
  toPeers(event: string, payload: unknown): void;
  onPeer(event: string, handler: (payload: unknown) => void): void;
  /** Ends every socket opened with this sign-in session (on logout). */
  disconnectAuthSession(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

interface SocketData {
  user: CurrentUser | null;
}

/** A viewer may watch a handful of public rooms at once; more is a scraper. */
const MAX_PUBLIC_ROOMS = 20;

type Ack = (answer: { ok: true } | { ok: false; error: string }) => void;

export async function createRealtime(
  server: HttpServer,
  opts: { db: Db; metrics: Metrics; publicUrl: URL; redisUrl: string | null; sessionSecret: string },
): Promise<Realtime> {
  const io = new Server<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>(server, {
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

  io.use(async (socket, next) => {
    try {
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
      if (canUsePanel(user.roles)) socket.join(rooms.company(user.companyId));
      // Only a platform admin (no company of its own) watches every company.
      if (isAdmin(user.roles) && !user.profileCompanyId) socket.join(rooms.admins);
    }
    publicRoom(socket, 'joinAuction', 'leaveAuction', 'auctionId', rooms.auction);
    publicRoom(socket, 'joinSession', 'leaveSession', 'sessionId', rooms.session);
  });

  /** Public rooms admit anyone, to receive only: nothing a viewer sends is relayed. */
  function publicRoom(socket: Socket, joinEvent: string, leaveEvent: string, key: string, room: (id: string) => string) {
    socket.on(joinEvent, (payload: unknown, ack?: Ack) => {
      const id = (payload as Record<string, unknown> | null)?.[key];
      const reply = typeof ack === 'function' ? ack : () => {};
      if (!isUuid(id)) return reply({ ok: false, error: 'invalid_id' });
      const joined = [...socket.rooms].filter((r) => r.startsWith('auction:') || r.startsWith('session:')).length;
      if (joined >= MAX_PUBLIC_ROOMS) return reply({ ok: false, error: 'too_many_rooms' });
      socket.join(room(id.toLowerCase()));
      reply({ ok: true });
    });
    socket.on(leaveEvent, (payload: unknown, ack?: Ack) => {
      const id = (payload as Record<string, unknown> | null)?.[key];
      if (isUuid(id)) socket.leave(room(id.toLowerCase()));
      if (typeof ack === 'function') ack({ ok: true });
    });
  }

  return {
    io: io as unknown as Server,
    toCompany: (companyId, event, payload) => io.to([rooms.company(companyId), rooms.admins]).emit(event as never, payload as never),
    toAuction: (auctionId, event, payload) => io.to(rooms.auction(auctionId)).emit(event as never, payload as never),
    toSession: (sessionId, event, payload) => io.to(rooms.session(sessionId)).emit(event as never, payload as never),
    toUser: (userId, event, payload) => io.to(rooms.user(userId)).emit(event as never, payload as never),
    toPeers(event, payload) {
      if (pub) io.serverSideEmit(event as never, payload as never);
    },
    onPeer(event, handler) {
      if (pub) io.on(event as never, handler as never);
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
