import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FollowAnswer, MyFollowing, ReminderAnswer } from '../../../../src/domain/alerts.js';
import { auditLog, sellerFollows, sessionReminders } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor, buildBidder } from '../../../support/actors.js';
import { buildCompany, buildSession } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * Seguir and Avísame: a signed-in buyer follows a seller and bookmarks a show, each undone in one
 * tap; repeats change nothing; refusals are Spanish 4xx; 'Mis alertas' lists both, with names
 * only (never an e-mail).
 */

const COMPANY = 'relojes-vera';
let server: TestServer;
let seller: Actor;
let buyer: Actor;
const call = caller(() => server);

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  await buildCompany(server.ctx.db, { id: COMPANY, name: 'Relojes Vera' });
  seller = await buildActor(server, { email: 'vera@relojes.mx', name: 'Vera Peso', roles: ['seller', 'buyer'], companyId: COMPANY });
  buyer = await buildBidder(server);
}, 60_000);
afterAll(async () => server?.close());

async function ok<T>(res: LightMyRequestResponse, status = 200): Promise<T> {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

function refused(res: LightMyRequestResponse, status: number, message: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error.message).toBe(message);
}

const follow = (who: Actor | null, id: string) => call(who, 'POST', `/api/sellers/${id}/follow`);
const unfollow = (who: Actor | null, id: string) => call(who, 'DELETE', `/api/sellers/${id}/follow`);
const remind = (who: Actor | null, id: string) => call(who, 'POST', `/api/live-sessions/${id}/reminder`);
const unremind = (who: Actor | null, id: string) => call(who, 'DELETE', `/api/live-sessions/${id}/reminder`);

describe('following a seller', () => {
  it('follows, answers a repeat the same, counts followers, and unfollows in one call (twice is harmless)', async () => {
    const other = await buildBidder(server);
    expect(await ok<FollowAnswer>(await follow(buyer, seller.id))).toEqual({ following: true, followers: 1 });
    expect(await ok<FollowAnswer>(await follow(buyer, seller.id))).toEqual({ following: true, followers: 1 });
    expect(await ok<FollowAnswer>(await follow(other, seller.id.toUpperCase()))).toEqual({ following: true, followers: 2 });
    const rows = await server.ctx.db.select().from(sellerFollows).where(eq(sellerFollows.sellerId, seller.id));
    expect(rows.map((r) => r.followerId).sort()).toEqual([buyer.id, other.id].sort());

    expect(await ok<FollowAnswer>(await unfollow(other, seller.id))).toEqual({ following: false, followers: 1 });
    expect(await ok<FollowAnswer>(await unfollow(other, seller.id))).toEqual({ following: false, followers: 1 });
    // The audit log has the changes, not the repeats.
    const audits = await server.ctx.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, seller.id), eq(auditLog.actorId, other.id)));
    expect(audits.map((a) => a.action).sort()).toEqual(['seller.follow', 'seller.unfollow']);
  });

  it('refuses oneself (400), an unknown id, a buyer who sells nothing and a malformed id (404), in Spanish; signed out is 401', async () => {
    refused(await follow(seller, seller.id), 400, messages.alerts.followSelf);
    refused(await follow(buyer, '00000000-0000-4000-8000-000000000000'), 404, messages.alerts.sellerNotFound);
    const plain = await buildBidder(server);
    refused(await follow(buyer, plain.id), 404, messages.alerts.sellerNotFound);
    refused(await follow(buyer, 'no-es-un-id'), 404, messages.alerts.sellerNotFound);
    refused(await unfollow(buyer, plain.id), 404, messages.alerts.sellerNotFound);
    refused(await follow(null, seller.id), 401, messages.errors.unauthenticated);
    expect((await server.ctx.db.select().from(sellerFollows).where(eq(sellerFollows.followerId, plain.id))).length).toBe(0);
  });

  it('takes a company admin who ran a show as a seller, though their roles do not say seller', async () => {
    const admin = await buildActor(server, { email: 'admin@relojes.mx', name: 'Ada Admin', roles: ['admin', 'buyer'], companyId: COMPANY });
    refused(await follow(buyer, admin.id), 404, messages.alerts.sellerNotFound);
    await buildSession(server.ctx.db, { sellerId: admin.id, companyId: COMPANY, title: 'Show de Ada' });
    expect(await ok<FollowAnswer>(await follow(buyer, admin.id))).toEqual({ following: true, followers: 1 });
  });
});

describe('Avísame on a show', () => {
  it('bookmarks a scheduled or live show, repeats harmlessly, and takes it back', async () => {
    const show = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, scheduledAt: new Date(Date.now() + 86_400_000) });
    expect(await ok<ReminderAnswer>(await remind(buyer, show.id))).toEqual({ reminded: true });
    expect(await ok<ReminderAnswer>(await remind(buyer, show.id))).toEqual({ reminded: true });
    const live = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'live' });
    expect(await ok<ReminderAnswer>(await remind(buyer, live.id))).toEqual({ reminded: true });
    const mine = await server.ctx.db.select().from(sessionReminders).where(eq(sessionReminders.userId, buyer.id));
    expect(mine.map((r) => r.sessionId).sort()).toEqual([show.id, live.id].sort());

    expect(await ok<ReminderAnswer>(await unremind(buyer, show.id))).toEqual({ reminded: false });
    expect(await ok<ReminderAnswer>(await unremind(buyer, show.id))).toEqual({ reminded: false });
    const left = await server.ctx.db.select().from(sessionReminders).where(eq(sessionReminders.userId, buyer.id));
    expect(left.map((r) => r.sessionId)).toEqual([live.id]);
  });

  it('refuses an ended show (409), and an unknown or rehearsal show (404), in Spanish; signed out is 401', async () => {
    const ended = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'ended' });
    refused(await remind(buyer, ended.id), 409, messages.alerts.showEnded);
    const rehearsal = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, rehearsal: true });
    refused(await remind(buyer, rehearsal.id), 404, messages.alerts.showNotFound);
    refused(await unremind(buyer, rehearsal.id), 404, messages.alerts.showNotFound);
    refused(await remind(buyer, '00000000-0000-4000-8000-000000000000'), 404, messages.alerts.showNotFound);
    refused(await remind(buyer, 'x'.repeat(64)), 404, messages.alerts.showNotFound);
    refused(await remind(null, ended.id), 401, messages.errors.unauthenticated);
    const rows = await server.ctx.db.select().from(sessionReminders).where(eq(sessionReminders.sessionId, ended.id));
    expect(rows).toEqual([]);
  });
});

describe('Mis alertas', () => {
  it('lists followed sellers with their live and next show, and bookmarked shows to come; no rehearsal, no ended show, no e-mail', async () => {
    const reader = await buildBidder(server);
    await buildCompany(server.ctx.db, { id: 'tienda-eva', name: 'Tienda Eva' });
    const tienda = await buildActor(server, { email: 'eva@tienda.mx', name: 'Eva Ruiz', roles: ['seller'], companyId: 'tienda-eva' });
    const nextWeek = await buildSession(server.ctx.db, {
      sellerId: tienda.id,
      companyId: 'tienda-eva',
      title: 'Relojes de colección',
      sellerSlug: 'vera',
      scheduledAt: new Date(Date.now() + 7 * 86_400_000),
    });
    const tomorrow = await buildSession(server.ctx.db, {
      sellerId: tienda.id,
      companyId: 'tienda-eva',
      title: 'Mañana',
      scheduledAt: new Date(Date.now() + 86_400_000),
    });
    const onNow = await buildSession(server.ctx.db, { sellerId: tienda.id, companyId: 'tienda-eva', title: 'En vivo', status: 'live' });
    await buildSession(server.ctx.db, { sellerId: tienda.id, companyId: 'tienda-eva', title: 'Ensayo', status: 'live', rehearsal: true });
    const ended = await buildSession(server.ctx.db, { sellerId: tienda.id, companyId: 'tienda-eva', title: 'Pasado', status: 'ended' });
    await ok(await follow(reader, tienda.id));
    await ok(await remind(reader, nextWeek.id));
    // Bookmarked while it was on, then it ended: no longer listed.
    await server.ctx.db.insert(sessionReminders).values({ userId: reader.id, sessionId: ended.id });

    const res = await call(reader, 'GET', '/api/me/following');
    const answer = await ok<MyFollowing>(res);
    expect(answer.sellers).toHaveLength(1);
    const [followed] = answer.sellers;
    expect(followed).toMatchObject({ id: tienda.id, name: 'Eva Ruiz', companyName: 'Tienda Eva' });
    expect(followed?.live).toMatchObject({ id: onNow.id, status: 'live', sellerName: 'Tienda Eva', viewerCount: 0, reminded: false });
    expect(followed?.nextShow).toMatchObject({ id: tomorrow.id, status: 'scheduled', title: 'Mañana' });
    expect(answer.shows).toEqual([
      expect.objectContaining({
        id: nextWeek.id,
        title: 'Relojes de colección',
        url: `/live/vera/${nextWeek.id}`,
        reminded: true,
        scheduledAt: nextWeek.scheduledAt.getTime(),
      }),
    ]);
    expect(res.body).not.toContain('@');
    expect((await call(null, 'GET', '/api/me/following')).statusCode).toBe(401);
  });
});
