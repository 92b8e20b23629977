import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BidAnswer } from '../../../src/domain/bidding.js';
import type { LiveSessionDetail } from '../../../src/domain/live.js';
import type { LotFinishedEvent, LotTimerEvent, SessionStateEvent, SessionStatusEvent, ViewerCountEvent } from '../../../src/domain/realtime.js';
import { buildApp } from '../../../src/server/app.js';
import type { AppContext } from '../../../src/server/context.js';
import { connectDatabase, type Database, type Db } from '../../../src/server/db/connect.js';
import { auctions, liveLots, liveSessions } from '../../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../support/actors.js';
import { closeAudits, createEmptyPostgresDatabase, createTestDatabase, engine } from '../../support/db.js';
import { buildAuction, buildLot, buildSession } from '../../support/factories.js';
import { freePort } from '../../support/net.js';
import { startTestServer, type TestServer, testConfig } from '../../support/server.js';
import { connected, connectSocket, eventMatching, nextEvent } from '../../support/sockets.js';
import { eventually } from '../../support/wait.js';

/**
 * A live session's room over real Socket.IO clients: it hears status, state,
 * timer and sold; the viewer count; promptUnmute only from the session's editors; a client's
 * sessionStatusUpdate changes nothing; the lot finishes exactly once, in the close's transaction,
 * with two instances and after a restart; anti-sniping reads the session's window.
 */

const COMPANY = 'remates-sala';

function join(socket: Socket, sessionId: string): Promise<unknown> {
  return new Promise((resolve) => socket.emit('joinSession', { sessionId }, resolve));
}

async function inject(app: FastifyInstance, url: string, actor: Actor | null, method: 'GET' | 'POST' | 'PUT', payload?: unknown, origin?: string) {
  return app.inject({
    method,
    url,
    headers: { ...(actor ? { cookie: actor.cookie } : {}), ...(method !== 'GET' && origin ? { origin } : {}) },
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
}

describe('the session room', () => {
  let server: TestServer;
  let seller: Actor;
  let buyer: Actor;
  const open: Socket[] = [];

  beforeAll(async () => {
    server = await startTestServer({ jobs: ['closing'] });
    seller = await buildActor(server, { email: 'vende@sala.mx', name: 'Sara Vendedora', roles: ['seller'], companyId: COMPANY });
    buyer = await buildActor(server, { email: 'compra@sala.mx', name: 'Bruno Comprador', roles: ['buyer'], completeProfile: true });
  }, 60_000);
  afterEach(() => {
    for (const s of open.splice(0)) s.disconnect();
  });
  afterAll(async () => server?.close());

  async function socket(actor?: Actor): Promise<Socket> {
    const s = connectSocket(server.url, actor ? { cookie: actor.cookie } : {});
    open.push(s);
    await connected(s);
    return s;
  }
  const call = (url: string, actor: Actor | null, method: 'GET' | 'POST' | 'PUT', payload?: unknown) =>
    inject(server.app, url, actor, method, payload, server.url);

  async function sessionWithLot(config?: { minIncrement: number; antiSnipeSeconds: number; timerSecondsDefault: number }) {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, ...(config ? { biddingConfig: config } : {}) });
    const auction = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, startingPrice: 100 });
    const lot = await buildLot(server.ctx.db, { sessionId: session.id, auctionId: auction.id });
    return { session, auction, lot };
  }

  it('hears the status, the state, the timer and the sold lot, each newer than the last', async () => {
    const { session, auction, lot } = await sessionWithLot();
    const viewer = await socket();
    await join(viewer, session.id);
    const status = eventMatching<SessionStatusEvent>(viewer, 'sessionStatusUpdate', (e) => e.sessionId === session.id);
    const state = eventMatching<SessionStateEvent>(viewer, 'sessionState', (e) => e.session.currentLotId === lot.id);
    expect((await call(`/api/live-sessions/${session.id}/current`, seller, 'POST', { lotId: lot.id })).statusCode).toBe(200);
    expect(await status).toMatchObject({ status: 'live', version: 2 });
    const current = await state;
    expect(current.session).toMatchObject({ status: 'live', version: 2 });
    expect(current.session).not.toHaveProperty('sellerId');

    const timer = eventMatching<LotTimerEvent>(viewer, 'lotTimer', (e) => e.lotId === lot.id);
    const res = await call(`/api/live-sessions/${session.id}/timer`, seller, 'POST', { seconds: 15 });
    expect(res.statusCode).toBe(200);
    const t = await timer;
    expect(t).toMatchObject({ sessionId: session.id, auctionId: auction.id, version: 3 });
    expect(t.endTime - t.serverNow).toBeGreaterThan(14_000);
    // The event carries the auction's new state (no whole sessionState follows a timer).
    expect(t.state).toMatchObject({ id: auction.id, status: 'live', endTime: t.endTime, bidCount: 0 });

    // A bid, then the end brought near: the scheduler closes it and the room hears it sold.
    const bid = await call(`/api/auctions/${auction.id}/bids`, buyer, 'POST', { amount: 100 });
    expect(bid.statusCode, bid.body).toBe(201);
    const finished = eventMatching<LotFinishedEvent>(viewer, 'lotFinished', (e) => e.lotId === lot.id);
    await server.ctx.db.execute(sql`update auctions set end_time = clock_timestamp() + interval '100 milliseconds' where id = ${auction.id}::uuid`);
    const sold = await finished;
    expect(sold.state).toMatchObject({ status: 'ended', currentPrice: 100 });
    expect(sold.state.winnerName).toBeTruthy();
    expect(sold.version).toBe(4);
    // The event carries the change: the detail read now agrees with it.
    const detail = (await call(`/api/live-sessions/${session.id}`, null, 'GET')).json() as LiveSessionDetail;
    expect(detail.session.version).toBe(sold.version);
    expect(detail.lots.find((l) => l.id === lot.id)).toMatchObject({ status: 'finished', auction: { state: { status: 'ended', currentPrice: 100 } } });
  });

  it('counts the viewers in the room at most once a second, and the detail carries the count', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const viewers = [await socket(), await socket(), await socket(buyer)];
    const three = eventMatching<ViewerCountEvent>(viewers[0] as Socket, 'viewerCount', (e) => e.sessionId === session.id && e.count === 3);
    for (const v of viewers) await join(v, session.id);
    await three;
    const detail = (await call(`/api/live-sessions/${session.id}`, null, 'GET')).json() as LiveSessionDetail;
    expect(detail.viewerCount).toBe(3);
    const two = eventMatching<ViewerCountEvent>(viewers[0] as Socket, 'viewerCount', (e) => e.sessionId === session.id && e.count === 2);
    (viewers[2] as Socket).disconnect();
    await two;
  });

  it('relays promptUnmute from the session’s seller only, and ignores a client’s sessionStatusUpdate', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const viewer = await socket();
    await join(viewer, session.id);
    const heard: unknown[] = [];
    viewer.on('promptUnmute', (e) => heard.push(e));

    // A buyer, signed in, and an anonymous viewer: refused, nothing relayed.
    const strangers = [await socket(buyer), await socket()];
    for (const s of strangers) {
      const ack = await new Promise<{ ok: boolean }>((resolve) => s.emit('promptUnmute', { sessionId: session.id }, resolve));
      expect(ack.ok).toBe(false);
    }
    // The client's status emit, then a round trip on the same socket: processed in order.
    const sellerSocket = await socket(seller);
    sellerSocket.emit('sessionStatusUpdate', { sessionId: session.id, status: 'ended' });
    await join(sellerSocket, session.id);
    const marker = eventMatching<SessionStatusEvent>(viewer, 'sessionStatusUpdate', (e) => e.sessionId === session.id);
    server.ctx.realtime.toSession(session.id, 'sessionStatusUpdate', { sessionId: session.id, status: 'scheduled', version: 0 });
    expect(await marker).toMatchObject({ status: 'scheduled', version: 0 });
    expect(heard).toEqual([]);
    const [row] = await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, session.id));
    expect(row).toMatchObject({ status: 'scheduled', version: 1 });

    // The seller: relayed to the room.
    const relayed = nextEvent<{ sessionId: string }>(viewer, 'promptUnmute');
    const ack = await new Promise<{ ok: boolean }>((resolve) => sellerSocket.emit('promptUnmute', { sessionId: session.id }, resolve));
    expect(ack.ok).toBe(true);
    expect(await relayed).toEqual({ sessionId: session.id });
    // At once again: rate-limited.
    const again = await new Promise<{ ok: boolean }>((resolve) => sellerSocket.emit('promptUnmute', { sessionId: session.id }, resolve));
    expect(again.ok).toBe(false);
  });

  it('applies the session’s increment and anti-snipe window to its lots', async () => {
    const { session, auction, lot } = await sessionWithLot({ minIncrement: 50, antiSnipeSeconds: 60, timerSecondsDefault: 30 });
    await call(`/api/live-sessions/${session.id}/current`, seller, 'POST', { lotId: lot.id });
    expect((await call(`/api/live-sessions/${session.id}/timer`, seller, 'POST', { seconds: 20 })).statusCode).toBe(200);
    const first = (await call(`/api/auctions/${auction.id}/bids`, buyer, 'POST', { amount: 100 })).json() as BidAnswer;
    expect(first.state.nextMinimum).toBe(150);
    // 20 s left, inside the 60 s window: the end moves to now plus 60 s.
    expect((first.state.endTime ?? 0) - first.state.serverNow).toBeGreaterThan(55_000);
  });
});

/** A lot whose timer is set, on its own session, through the API of `app`. */
async function timedLot(app: FastifyInstance, db: Db, seller: Actor, origin: string, seconds: number) {
  const session = await buildSession(db, { sellerId: seller.id, companyId: COMPANY });
  const auction = await buildAuction(db, { companyId: COMPANY, sellerId: seller.id, startingPrice: 100 });
  const lot = await buildLot(db, { sessionId: session.id, auctionId: auction.id });
  expect((await inject(app, `/api/live-sessions/${session.id}/current`, seller, 'POST', { lotId: lot.id }, origin)).statusCode).toBe(200);
  const res = await inject(app, `/api/live-sessions/${session.id}/timer`, seller, 'POST', { seconds }, origin);
  expect(res.statusCode, res.body).toBe(200);
  return { session, auction, lot };
}

describe('closing lots', () => {
  it('finishes an overdue lot after a restart, in the close’s transaction', async () => {
    const database = await createTestDatabase();
    const config = testConfig();
    let app: FastifyInstance | null = null;
    try {
      const first = await buildApp({ config, database, logger: false, jobs: [] });
      app = first.app;
      const seller = await buildActor(first, { email: 'vende@reinicio.mx', name: 'Rita Vendedora', roles: ['seller'], companyId: COMPANY });
      const { session, auction, lot } = await timedLot(first.app, first.ctx.db, seller, config.publicUrl.origin, 60);
      await first.ctx.db
        .update(auctions)
        .set({ endTime: new Date(Date.now() - 5_000) })
        .where(eq(auctions.id, auction.id));
      await first.app.close();
      app = null;

      const second = await buildApp({ config, database, logger: false, jobs: ['closing'] });
      app = second.app;
      const db = second.ctx.db;
      await eventually(
        async () =>
          (
            await db
              .select()
              .from(liveLots)
              .where(and(eq(liveLots.id, lot.id), eq(liveLots.status, 'finished')))
          ).length === 1,
      );
      const [closed] = await db.select().from(auctions).where(eq(auctions.id, auction.id));
      expect(closed).toMatchObject({ status: 'ended' });
      expect(closed?.closedAt).not.toBeNull();
      const [row] = await db.select().from(liveSessions).where(eq(liveSessions.id, session.id));
      // Created (1), current (2), timer (3), finished with the close (4).
      expect(row?.version).toBe(4);
      expect(await closeAudits(db, auction.id)).toBe(1);
    } finally {
      await app?.close();
      await database.destroy();
    }
  }, 30_000);

  it('closes each timed lot exactly once with two instances on one database', async () => {
    // PGlite: two apps on one embedded database (one process); PostgreSQL: two pools, as two machines.
    const pg = engine === 'postgresql' ? await createEmptyPostgresDatabase() : null;
    const shared = pg ? null : await createTestDatabase();
    const databases: Database[] = [];
    const apps: { app: FastifyInstance; ctx: AppContext; url: string }[] = [];
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const database = pg ? await connectDatabase({ kind: 'postgresql', url: pg.url }, { poolSize: 5 }) : (shared as Database);
        if (pg) databases.push(database);
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        // One secret, as instances behind one load balancer share it.
        const built = await buildApp({
          config: testConfig({ PUBLIC_URL: url, SESSION_SECRET: 'x'.repeat(40) }, port),
          database,
          logger: false,
          jobs: ['closing'],
        });
        await built.app.listen({ port, host: '127.0.0.1' });
        apps.push({ ...built, url });
      }
      const [a, b] = apps as [(typeof apps)[0], (typeof apps)[0]];
      const seller = await buildActor(a, { email: 'vende@dos.mx', name: 'Dora Vendedora', roles: ['seller'], companyId: COMPANY });
      const lots = [];
      for (let i = 0; i < 4; i++) lots.push(await timedLot(i % 2 ? b.app : a.app, a.ctx.db, seller, (i % 2 ? b : a).url, 5));
      // A viewer of every session on each instance: each close is heard once, from the instance that made it.
      const finished: LotFinishedEvent[] = [];
      for (const { url } of apps) {
        const s = connectSocket(url);
        sockets.push(s);
        await connected(s);
        for (const { session } of lots) await join(s, session.id);
        s.on('lotFinished', (e: LotFinishedEvent) => finished.push(e));
      }
      const ids = lots.map((l) => l.auction.id);
      await eventually(async () => {
        const done = await a.ctx.db
          .select({ id: liveLots.id })
          .from(liveLots)
          .where(and(eq(liveLots.status, 'finished'), sql`${liveLots.auctionId} in ${ids}`));
        return done.length === lots.length;
      });
      await eventually(async () => finished.length >= lots.length);
      for (const { auction, session, lot } of lots) {
        expect(await closeAudits(a.ctx.db, auction.id)).toBe(1);
        const [row] = await a.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, session.id));
        expect(row?.version).toBe(4);
        expect(finished.filter((e) => e.lotId === lot.id)).toHaveLength(1);
      }
      const [closedRows] = await a.ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(auctions)
        .where(and(isNotNull(auctions.closedAt), sql`${auctions.id} in ${ids}`));
      expect(closedRows?.n).toBe(lots.length);
    } finally {
      for (const s of sockets) s.disconnect();
      for (const { app } of apps) await app.close();
      for (const d of databases) await d.close();
      await shared?.destroy();
      await pg?.drop();
    }
  }, 40_000);
});
