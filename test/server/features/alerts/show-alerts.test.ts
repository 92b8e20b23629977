import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showAlertText } from '../../../../src/domain/alerts.js';
import { livePath } from '../../../../src/domain/live-public.js';
import { NOTIFICATION_EVENT, type NotificationEvent } from '../../../../src/domain/realtime.js';
import { buildApp } from '../../../../src/server/app.js';
import { rows } from '../../../../src/server/db/connect.js';
import {
  companyBlocks,
  notifications,
  pushDeliveries,
  pushSubscriptions,
  sellerFollows,
  sessionReminders,
  showAlerts,
  users,
} from '../../../../src/server/db/schema.js';
import { BATCH, fanOutBatch, showAlertsPass } from '../../../../src/server/features/alerts/fan-out.js';
import { type Actor, buildActor, buildBidder } from '../../../support/actors.js';
import { buildCompany, buildSession } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer, testConfig } from '../../../support/server.js';
import { connected, connectSocket, nextEvent } from '../../../support/sockets.js';
import { eventually } from '../../../support/wait.js';

/**
 * The go-live fan-out: when a show goes live each follower of its seller and each bookmarker is
 * told exactly once (a bell row and a push delivery per browser subscription); a bookmarked show's
 * bookmarkers also 15 minutes before. Never the seller, a simulated bidder, a blocked buyer, nor
 * anyone for a rehearsal. Another pass, a crash between batches and a restart add nothing.
 */

const COMPANY = 'relojes-vera';
let server: TestServer;
let seller: Actor;
const call = caller(() => server);
const publish = (events: Parameters<TestServer['ctx']['publisher']['publish']>[0]) => server.ctx.publisher.publish(events);
const pass = () => showAlertsPass(server.ctx.db, { publish });

beforeAll(async () => {
  server = await startTestServer();
  await buildCompany(server.ctx.db, { id: COMPANY, name: 'Vera Peso' });
  seller = await buildActor(server, { email: 'vera@relojes.mx', name: 'Vera Peso', roles: ['seller', 'buyer'], companyId: COMPANY });
}, 60_000);
afterAll(async () => server?.close());

const of = (sessionId: string) =>
  server.ctx.db
    .select({ userId: notifications.userId, kind: notifications.kind, title: notifications.title, url: notifications.url, id: notifications.id })
    .from(notifications)
    .where(eq(notifications.sessionId, sessionId));

const follow = (who: Actor) => server.ctx.db.insert(sellerFollows).values({ followerId: who.id, sellerId: seller.id });
const bookmark = (who: Actor, sessionId: string) => server.ctx.db.insert(sessionReminders).values({ userId: who.id, sessionId });
let subscriptions = 0;
async function subscribe(who: Actor) {
  subscriptions++;
  const [row] = await server.ctx.db
    .insert(pushSubscriptions)
    .values({ userId: who.id, endpoint: `https://push.ejemplo.mx/sub/${subscriptions}`, p256dh: 'p256dh', auth: 'auth' })
    .returning();
  return row as typeof pushSubscriptions.$inferSelect;
}

describe('a show going live', () => {
  it('tells each follower and bookmarker once, in the bell and as push deliveries, and nobody it must not', async () => {
    const show = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, title: 'Relojes de colección', sellerSlug: 'vera' });
    const [follower, bookmarker, both, blocked, simulated, stranger] = await Promise.all(Array.from({ length: 6 }, () => buildBidder(server)));
    for (const who of [follower, both, blocked, simulated] as Actor[]) await follow(who);
    for (const who of [bookmarker, both, seller] as Actor[]) await bookmark(who, show.id);
    await server.ctx.db.insert(companyBlocks).values({ companyId: COMPANY, userId: (blocked as Actor).id });
    await server.ctx.db
      .update(users)
      .set({ isSimulated: true })
      .where(eq(users.id, (simulated as Actor).id));
    const phone = await subscribe(follower as Actor);
    const laptop = await subscribe(follower as Actor);
    await subscribe(blocked as Actor);

    const socket = connectSocket(server.url, { cookie: (follower as Actor).cookie });
    try {
      await connected(socket);
      // The seller's 'Iniciar': the status change answers without telling anyone itself.
      const res = await call(seller, 'PUT', `/api/live-sessions/${show.id}`, { status: 'live' });
      expect(res.statusCode, res.body).toBe(200);
      expect(await of(show.id)).toEqual([]);

      const heard = nextEvent<NotificationEvent>(socket, NOTIFICATION_EVENT);
      const first = await pass();
      expect(first).toMatchObject({ notified: 3, pushes: 2 });
      expect(await heard).toEqual({ unread: 1 });
    } finally {
      socket.close();
    }

    const told = await of(show.id);
    expect(told.map((n) => n.userId).sort()).toEqual([follower, bookmarker, both].map((a) => (a as Actor).id).sort());
    const text = showAlertText('live', { title: 'Relojes de colección', sellerName: 'Vera Peso', scheduledAt: show.scheduledAt.getTime() });
    expect(text.title).toBe('Vera Peso está en vivo: Relojes de colección');
    for (const n of told) expect(n).toMatchObject({ kind: 'show_live', title: text.title, url: livePath({ id: show.id, sellerSlug: 'vera' }) });

    const followerNote = told.find((n) => n.userId === (follower as Actor).id);
    const deliveries = await server.ctx.db
      .select()
      .from(pushDeliveries)
      .where(eq(pushDeliveries.notificationId, followerNote?.id ?? ''));
    expect(deliveries.map((d) => d.subscriptionId).sort()).toEqual([phone.id, laptop.id].sort());
    for (const d of deliveries) {
      expect(d.status).toBe('pending');
      // About 15 minutes to live: a stale "en vivo" is never pushed.
      const ttl = d.expiresAt.getTime() - d.createdAt.getTime();
      expect(ttl).toBeGreaterThan(14 * 60_000);
      expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 1000);
    }
    const [alert] = await server.ctx.db
      .select()
      .from(showAlerts)
      .where(and(eq(showAlerts.sessionId, show.id), eq(showAlerts.kind, 'live')));
    expect(alert?.fannedOutAt).not.toBeNull();

    // Another pass (and a follow or bookmark made after it) writes nothing more for this show.
    await bookmark(stranger as Actor, show.id);
    expect(await pass()).toMatchObject({ notified: 0, pushes: 0 });
    expect(await of(show.id)).toHaveLength(3);
    expect(await server.ctx.db.select().from(pushDeliveries)).toHaveLength(2);
  });

  it('tells nobody about a rehearsal, a show that ended before its turn, or one left live untouched for days', async () => {
    const fan = await buildBidder(server);
    await follow(fan);
    const rehearsal = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'live', rehearsal: true });
    await bookmark(fan, rehearsal.id);
    const ended = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'ended' });
    // Its alert was noted while it was on, and it ended before the fan-out reached it.
    await server.ctx.db.insert(showAlerts).values({ sessionId: ended.id, kind: 'live' });
    const forgotten = await buildSession(server.ctx.db, {
      sellerId: seller.id,
      companyId: COMPANY,
      status: 'live',
      updatedAt: new Date(Date.now() - 2 * 86_400_000),
    });
    await pass();
    expect(await of(forgotten.id)).toEqual([]);
    expect(await of(rehearsal.id)).toEqual([]);
    expect(await of(ended.id)).toEqual([]);
    expect(await server.ctx.db.select().from(showAlerts).where(eq(showAlerts.sessionId, rehearsal.id))).toEqual([]);
    const [endedAlert] = await server.ctx.db.select().from(showAlerts).where(eq(showAlerts.sessionId, ended.id));
    expect(endedAlert?.fannedOutAt).not.toBeNull();
  });
});

describe('15 minutes before a bookmarked show', () => {
  it('tells its bookmarkers (not the followers) once, then everyone when it goes live', async () => {
    const soon = await buildSession(server.ctx.db, {
      sellerId: seller.id,
      companyId: COMPANY,
      title: 'Monedas antiguas',
      scheduledAt: new Date(Date.now() + 10 * 60_000),
    });
    const later = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, scheduledAt: new Date(Date.now() + 40 * 60_000) });
    const rehearsal = await buildSession(server.ctx.db, {
      sellerId: seller.id,
      companyId: COMPANY,
      rehearsal: true,
      scheduledAt: new Date(Date.now() + 5 * 60_000),
    });
    const [fan, saver] = [await buildBidder(server), await buildBidder(server)];
    await follow(fan);
    for (const s of [soon, later, rehearsal]) await bookmark(saver, s.id);
    await subscribe(saver);

    await pass();
    expect(await of(soon.id)).toEqual([expect.objectContaining({ userId: saver.id, kind: 'show_soon', title: 'Monedas antiguas empieza pronto' })]);
    expect(await of(later.id)).toEqual([]);
    expect(await of(rehearsal.id)).toEqual([]);
    await pass();
    expect(await of(soon.id)).toHaveLength(1);

    await server.ctx.db.execute(sql`update live_sessions set status = 'live' where id = ${soon.id}`);
    await pass();
    const told = await of(soon.id);
    expect(told.filter((n) => n.kind === 'show_live').map((n) => n.userId)).toEqual(expect.arrayContaining([fan.id, saver.id]));
    expect(
      told
        .filter((n) => n.userId === saver.id)
        .map((n) => n.kind)
        .sort(),
    ).toEqual(['show_live', 'show_soon']);
  });

  it('sends no "soon" for a show that is already live', async () => {
    const show = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'live', scheduledAt: new Date(Date.now() + 5 * 60_000) });
    const saver = await buildBidder(server);
    await bookmark(saver, show.id);
    await pass();
    expect((await of(show.id)).filter((n) => n.userId === saver.id).map((n) => n.kind)).toEqual(['show_live']);
  });
});

describe('a large audience', () => {
  it('goes out in batches; after a crash between batches a restarted server finishes it, one notification each', async () => {
    // A seller of its own, so the audience is exactly the followers made here.
    const big = await buildActor(server, { email: 'gran@remates.mx', name: 'Gran Remate', roles: ['seller'], companyId: COMPANY });
    const show = await buildSession(server.ctx.db, { sellerId: big.id, companyId: COMPANY, title: 'Show grande', status: 'live' });
    const count = BATCH + 200;
    await server.ctx.db.execute(sql`
      with made as (
        insert into users (email) select 'seguidor-' || g || '@grande.mx' from generate_series(1, ${count}::int) g returning id, email
      ), profiles as (
        insert into user_profiles (user_id, email, first_name) select id, email, 'Seguidor' from made returning user_id
      )
      insert into seller_follows (follower_id, seller_id) select user_id, ${big.id}::uuid from profiles`);
    await server.ctx.db.execute(sql`insert into show_alerts (session_id, kind) values (${show.id}::uuid, 'live')`);

    // One batch, then the process "dies".
    const first = await fanOutBatch(server.ctx.db, { sessionId: show.id, kind: 'live' });
    expect(first).toMatchObject({ state: 'more', notified: BATCH });
    expect(await of(show.id)).toHaveLength(BATCH);
    // The batch walked the followers in id order, and the alert remembers where it stopped.
    const ids = rows<{ id: string }>(
      await server.ctx.db.execute(sql`select follower_id as id from seller_follows where seller_id = ${big.id}::uuid order by follower_id`),
    ).map((r) => r.id);
    const [alert] = await server.ctx.db.select({ servedThrough: showAlerts.servedThrough }).from(showAlerts).where(eq(showAlerts.sessionId, show.id));
    expect(alert?.servedThrough).toBe(ids[BATCH - 1]);
    expect(new Set((await of(show.id)).map((n) => n.userId))).toEqual(new Set(ids.slice(0, BATCH)));

    // Another server on the same database, running the job, finishes it.
    const restarted = await buildApp({ config: testConfig(), database: server.database, logger: false, jobs: ['show-alerts'] });
    try {
      const total = async () =>
        rows<{ n: number }>(await server.ctx.db.execute(sql`select count(*)::int as n from notifications where session_id = ${show.id}::uuid`))[0]?.n;
      await eventually(async () => (await total()) === count);
      // Let it run more passes: still one each.
      const passes = async () =>
        ((await restarted.app.inject({ url: '/readyz' })).json() as { jobs: { name: string; lastRunAt: string | null }[] }).jobs.find(
          (j) => j.name === 'show-alerts',
        )?.lastRunAt;
      const seen = await passes();
      await eventually(async () => (await passes()) !== seen);
      expect(await total()).toBe(count);
      const repeated = rows<{ n: number }>(
        await server.ctx.db.execute(
          sql`select count(*)::int as n from (select user_id from notifications where session_id = ${show.id}::uuid group by user_id, kind having count(*) > 1) d`,
        ),
      );
      expect(repeated[0]?.n).toBe(0);
    } finally {
      await restarted.app.close();
    }
  }, 60_000);

  it('walks on past a whole batch of people it may not tell, and tells a follower who also bookmarked once', async () => {
    const big = await buildActor(server, { email: 'otro-gran@remates.mx', name: 'Otro Gran Remate', roles: ['seller'], companyId: COMPANY });
    const show = await buildSession(server.ctx.db, { sellerId: big.id, companyId: COMPANY, title: 'Show de simulados', status: 'live' });
    // Ids chosen so that the first BATCH in id order are simulated bidders, and the five after them real buyers.
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    await server.ctx.db.execute(sql`
      with made as (
        insert into users (id, email, is_simulated)
        select ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'walk-' || g || '@simulados.mx', g <= ${BATCH}::int
        from generate_series(1, ${BATCH + 5}::int) g returning id
      )
      insert into seller_follows (follower_id, seller_id) select id, ${big.id}::uuid from made`);
    // Two of the real ones also bookmarked the show: they are one person each, in the union.
    await server.ctx.db.insert(sessionReminders).values([
      { userId: id(BATCH + 1), sessionId: show.id },
      { userId: id(BATCH + 5), sessionId: show.id },
    ]);
    await server.ctx.db.execute(sql`insert into show_alerts (session_id, kind) values (${show.id}::uuid, 'live')`);

    const first = await fanOutBatch(server.ctx.db, { sessionId: show.id, kind: 'live' });
    expect(first).toMatchObject({ state: 'more', notified: 0 });
    const second = await fanOutBatch(server.ctx.db, { sessionId: show.id, kind: 'live' });
    expect(second).toMatchObject({ state: 'done', notified: 5 });
    const told = (await of(show.id)).map((n) => n.userId).sort();
    expect(told).toEqual([1, 2, 3, 4, 5].map((k) => id(BATCH + k)));
  });
});
