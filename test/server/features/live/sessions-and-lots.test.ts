import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveDirectory, LiveSessionDetail, LiveSessionList, LiveSessionPrivate, PickerAnswer } from '../../../../src/domain/live.js';
import { auctions, auditLog, liveLots, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor, buildUpload } from '../../../support/actors.js';
import { buildAuction, buildSession } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * The Live Hub's API on the server: sessions (create, list, read, edit, delete), lots
 * (add, remove, reorder, set current), the picker, the timer and the quick auction, with their
 * Spanish errors and audit rows. Who may call what is session-authorisation.test.ts.
 */

const COMPANY = 'remates-vivo';
let server: TestServer;
let seller: Actor;
let admin: Actor;
let bidder: Actor;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@vivo.mx', name: 'Vera Vendedora', roles: ['seller'], companyId: COMPANY });
  admin = await buildActor(server, { email: 'jefa@vivo.mx', name: 'Julia Jefa', roles: ['admin'], companyId: COMPANY });
  bidder = await buildActor(server, { email: 'puja@ejemplo.mx', name: 'Pablo Postor', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => server?.close());

const call = caller(() => server);

async function ok<T>(res: LightMyRequestResponse, status = 200): Promise<T> {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

const auctionOf = (over: Partial<typeof auctions.$inferInsert> = {}) =>
  buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'active', endTime: new Date(Date.now() + 3_600_000), ...over });

async function newSession(title = 'Subasta del jueves'): Promise<LiveSessionDetail> {
  return ok<LiveSessionDetail>(await call(seller, 'POST', '/api/live-sessions', { title, scheduledAt: Date.UTC(2030, 0, 2, 18) }), 201);
}

async function addLot(sessionId: string, auctionId: string): Promise<LiveSessionDetail> {
  return ok<LiveSessionDetail>(await call(seller, 'POST', `/api/live-sessions/${sessionId}/lots`, { auctionId }), 201);
}

describe('sessions', () => {
  it('creates a session stamped with its seller and company, the slug derived, SPEC defaults, and audits it', async () => {
    const detail = await ok<LiveSessionDetail>(
      await call(seller, 'POST', '/api/live-sessions', {
        title: '  Relojes Antiguos  ',
        scheduledAt: Date.UTC(2030, 0, 2, 18),
        sellerSlug: '',
        whatsappLink: '  ',
      }),
      201,
    );
    const s = detail.session as LiveSessionPrivate;
    expect(s).toMatchObject({
      title: 'Relojes Antiguos',
      sellerSlug: 'relojes-antiguos',
      sellerId: seller.id,
      companyId: COMPANY,
      status: 'scheduled',
      whatsappLink: null,
      biddingConfig: { minIncrement: 20, antiSnipeSeconds: 10, timerSecondsDefault: 60 },
      version: 1,
    });
    expect(detail.canEdit).toBe(true);
    expect(detail.lots).toEqual([]);
    const audits = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, s.id), eq(auditLog.action, 'live_session.create')));
    expect(audits).toHaveLength(1);
  });

  it('falls back to the weekday of the scheduled date in Mexico City when title and slug give nothing', async () => {
    // 2030-01-03 03:00 UTC is Wednesday 2 January, 21:00 in Mexico City.
    const detail = await ok<LiveSessionDetail>(await call(seller, 'POST', '/api/live-sessions', { title: '¡¡!!', scheduledAt: Date.UTC(2030, 0, 3, 3) }), 201);
    expect(detail.session.sellerSlug).toBe('miercoles');
  });

  it('refuses a bad WhatsApp link and an empty title with Spanish field messages', async () => {
    const res = await call(seller, 'POST', '/api/live-sessions', { title: ' ', scheduledAt: Date.UTC(2030, 0, 2), whatsappLink: 'https://evil.example/wa' });
    expect(res.statusCode).toBe(400);
    const fields = res.json().error.fields;
    expect(fields.title).toBe(messages.live.fields.titleRequired);
    expect(fields.whatsappLink).toBe(messages.live.fields.whatsappInvalid);
  });

  it('lists the sessions in scope by scheduledAt with lot counts, and the public read hides private fields', async () => {
    const later = await ok<LiveSessionDetail>(await call(seller, 'POST', '/api/live-sessions', { title: 'Tarde', scheduledAt: Date.UTC(2031, 0, 1) }), 201);
    const sooner = await ok<LiveSessionDetail>(await call(admin, 'POST', '/api/live-sessions', { title: 'Temprano', scheduledAt: Date.UTC(2029, 0, 1) }), 201);
    await addLot(later.session.id, (await auctionOf()).id);
    const list = await ok<LiveSessionList>(await call(seller, 'GET', '/api/live-sessions'));
    const ids = list.sessions.map((s) => s.id);
    expect(ids.indexOf(sooner.session.id)).toBeLessThan(ids.indexOf(later.session.id));
    const laterRow = list.sessions.find((s) => s.id === later.session.id);
    expect(laterRow).toMatchObject({ lotCount: 1, canEdit: true });
    // A company's seller sees the admin's session of its company, and may not change it.
    expect(list.sessions.find((s) => s.id === sooner.session.id)?.canEdit).toBe(false);
    const publicView = await ok<LiveSessionDetail>(await call(null, 'GET', `/api/live-sessions/${later.session.id}`));
    expect(publicView.canEdit).toBe(false);
    expect(publicView.session).not.toHaveProperty('sellerId');
    expect(publicView.session).not.toHaveProperty('companyId');
    expect(publicView.lots[0]?.auction.state).toMatchObject({ status: 'active', bidCount: 0 });
  });

  it('refuses wrong types and huge strings with 400 and Spanish field messages, storing nothing', async () => {
    const { session } = await newSession('Tipos');
    const before = await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, session.id));
    const cases: [string, string, unknown, string, string][] = [
      ['POST', '/api/live-sessions', { title: 'x'.repeat(10_000), scheduledAt: Date.UTC(2030, 0, 1) }, 'title', messages.live.fields.tooLong],
      ['POST', '/api/live-sessions', { title: 'Show', scheduledAt: '2030-01-01' }, 'scheduledAt', messages.live.fields.scheduledAtRequired],
      ['POST', '/api/live-sessions', { title: 'Show', scheduledAt: 1.5 }, 'scheduledAt', messages.live.fields.scheduledAtInvalid],
      ['PUT', `/api/live-sessions/${session.id}`, { status: 'cancelada' }, 'status', messages.live.fields.statusInvalid],
      [
        'PUT',
        `/api/live-sessions/${session.id}`,
        { biddingConfig: { minIncrement: -1, antiSnipeSeconds: 10, timerSecondsDefault: 60 } },
        'biddingConfig.minIncrement',
        messages.live.fields.incrementInvalid,
      ],
      ['PUT', `/api/live-sessions/${session.id}`, { whatsappLink: `https://wa.me/${'1'.repeat(400)}` }, 'whatsappLink', messages.live.fields.whatsappInvalid],
      ['POST', `/api/live-sessions/${session.id}/timer`, { seconds: '15' }, 'seconds', messages.live.fields.timerInvalid],
      ['POST', `/api/live-sessions/${session.id}/timer`, { seconds: 1e9 }, 'seconds', messages.live.fields.timerTooLong],
      ['PUT', `/api/live-sessions/${session.id}/lots/order`, { lotIds: 'todos' }, 'lotIds', messages.live.fields.lotIdsInvalid],
      ['POST', `/api/live-sessions/${session.id}/lots`, { auctionId: 42 }, 'auctionId', messages.live.fields.auctionIdInvalid],
      ['POST', `/api/live-sessions/${session.id}/quick-auction`, { name: 'Reloj', startingPrice: 10.5 }, 'startingPrice', messages.fields.priceInteger],
      [
        'POST',
        `/api/live-sessions/${session.id}/quick-auction`,
        { name: 'Reloj', startingPrice: 10, timerSeconds: 45 },
        'timerSeconds',
        messages.live.fields.timerPresetInvalid,
      ],
    ];
    for (const [method, url, payload, field, message] of cases) {
      const res = await call(seller, method as 'POST', url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload).slice(0, 80)}`).toBe(400);
      expect(res.json().error.fields[field], field).toBe(message);
    }
    expect(await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, session.id))).toEqual(before);
    expect((await call(seller, 'GET', `/api/live-sessions/${session.id}/picker?q=${'a'.repeat(300)}`)).statusCode).toBe(400);
  });

  it('answers 404 "Sesión no encontrada" for a missing or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await call(null, 'GET', `/api/live-sessions/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(messages.live.sessionNotFound);
    }
  });

  it('edits any subset, re-derives the slug, bumps the version, and changes status alone', async () => {
    const { session } = await newSession();
    const edited = await ok<LiveSessionDetail>(
      await call(seller, 'PUT', `/api/live-sessions/${session.id}`, {
        title: 'Nuevo título',
        sellerSlug: 'Tienda Ñandú',
        whatsappLink: 'https://chat.whatsapp.com/abc',
        biddingConfig: { minIncrement: 50, antiSnipeSeconds: 0, timerSecondsDefault: 30 },
      }),
    );
    expect(edited.session).toMatchObject({
      title: 'Nuevo título',
      sellerSlug: 'tienda-nandu',
      whatsappLink: 'https://chat.whatsapp.com/abc',
      biddingConfig: { minIncrement: 50, antiSnipeSeconds: 0, timerSecondsDefault: 30 },
      version: session.version + 1,
    });
    const status = await ok<LiveSessionDetail>(await call(seller, 'PUT', `/api/live-sessions/${session.id}`, { status: 'paused' }));
    expect(status.session).toMatchObject({ status: 'paused', title: 'Nuevo título', version: session.version + 2 });
    const empty = await call(seller, 'PUT', `/api/live-sessions/${session.id}`, {});
    expect(empty.statusCode).toBe(400);
  });

  it('audits an edit with the fields it changed only, as they were and as they became', async () => {
    const { session } = await newSession();
    await ok<LiveSessionDetail>(await call(seller, 'PUT', `/api/live-sessions/${session.id}`, { title: 'Otro título', status: 'paused' }));
    const [audit, ...more] = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, session.id), eq(auditLog.action, 'live_session.update')));
    expect(more).toEqual([]);
    expect(audit?.before).toEqual({ title: session.title, status: 'scheduled' });
    expect(audit?.after).toEqual({ title: 'Otro título', status: 'paused' });
  });

  it('takes a cover only from the user’s uploads or the lots’ images, and null removes it', async () => {
    const { session } = await newSession();
    const upload = await buildUpload(server, { ownerId: seller.id, companyId: COMPANY, name: 'portada-1' });
    const withCover = await ok<LiveSessionDetail>(await call(seller, 'PUT', `/api/live-sessions/${session.id}`, { coverImageUrl: upload }));
    expect(withCover.session.coverImageUrl).toBe(upload);
    const foreign = await call(seller, 'PUT', `/api/live-sessions/${session.id}`, { coverImageUrl: 'https://evil.example/x.jpg' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.fields.coverImageUrl).toBe(messages.live.fields.coverInvalid);
    const lotImage = '/uploads/images/otro/lote.jpg';
    await addLot(session.id, (await auctionOf({ images: [lotImage] })).id);
    const fromLot = await ok<LiveSessionDetail>(await call(seller, 'PUT', `/api/live-sessions/${session.id}`, { coverImageUrl: lotImage }));
    expect(fromLot.session.coverImageUrl).toBe(lotImage);
    const removed = await ok<LiveSessionDetail>(await call(seller, 'PUT', `/api/live-sessions/${session.id}`, { coverImageUrl: null }));
    expect(removed.session.coverImageUrl).toBeNull();
  });

  it('deletes a session with its unsold lots but never their auctions', async () => {
    const { session } = await newSession();
    const unsold = await auctionOf();
    const waiting = await auctionOf({ status: 'pending', endTime: null });
    await addLot(session.id, unsold.id);
    await addLot(session.id, waiting.id);
    // Closed without bids: unsold, like the lot that waits for its timer.
    await server.ctx.db
      .update(auctions)
      .set({ status: 'ended', closedAt: new Date(), endTime: new Date(Date.now() - 1000) })
      .where(eq(auctions.id, unsold.id));
    await ok(await call(seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: (await lotsOf(session.id))[0]?.id }));
    expect(await ok(await call(seller, 'DELETE', `/api/live-sessions/${session.id}`))).toEqual({ id: session.id });
    expect(await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, session.id))).toHaveLength(0);
    expect(await lotsOf(session.id)).toHaveLength(0);
    const still = await server.ctx.db.select({ id: auctions.id }).from(auctions).where(eq(auctions.id, unsold.id));
    expect(still).toHaveLength(1);
    expect((await call(null, 'GET', `/api/live-sessions/${session.id}`)).statusCode).toBe(404);
  });

  it('lists the public directory: live and paused now, scheduled ones next, never ended', async () => {
    const live = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, title: 'En vivo', status: 'live' });
    const next = await buildSession(server.ctx.db, {
      sellerId: seller.id,
      companyId: COMPANY,
      title: 'Mañana',
      scheduledAt: new Date(Date.now() + 86_400_000),
    });
    const ended = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, title: 'Terminada', status: 'ended' });
    const dir = await ok<LiveDirectory>(await call(null, 'GET', '/api/live-sessions/public'));
    expect(dir.live.map((s) => s.id)).toContain(live.id);
    expect(dir.upcoming.map((s) => s.id)).toContain(next.id);
    expect([...dir.live, ...dir.upcoming].map((s) => s.id)).not.toContain(ended.id);
  });
});

async function lotsOf(sessionId: string) {
  return server.ctx.db.select().from(liveLots).where(eq(liveLots.sessionId, sessionId)).orderBy(liveLots.order);
}

describe('lots', () => {
  it('appends lots as count plus 1, removes one and closes the gap, reorders, and sets the current lot (live)', async () => {
    const { session } = await newSession();
    const waiting = (name: string) => auctionOf({ name, status: 'pending', endTime: null });
    const [a, b, c] = [await waiting('Uno'), await waiting('Dos'), await waiting('Tres')];
    await addLot(session.id, a.id);
    await addLot(session.id, b.id);
    const three = await addLot(session.id, c.id);
    expect(three.lots.map((l) => [l.auction.name, l.order])).toEqual([
      ['Uno', 1],
      ['Dos', 2],
      ['Tres', 3],
    ]);
    const removed = await ok<LiveSessionDetail>(await call(seller, 'DELETE', `/api/live-sessions/${session.id}/lots/${three.lots[1]?.id}`));
    expect(removed.lots.map((l) => [l.auction.name, l.order])).toEqual([
      ['Uno', 1],
      ['Tres', 2],
    ]);
    const ids = removed.lots.map((l) => l.id).reverse();
    const reordered = await ok<LiveSessionDetail>(await call(seller, 'PUT', `/api/live-sessions/${session.id}/lots/order`, { lotIds: ids }));
    expect(reordered.lots.map((l) => [l.auction.name, l.order])).toEqual([
      ['Tres', 1],
      ['Uno', 2],
    ]);
    const stale = await call(seller, 'PUT', `/api/live-sessions/${session.id}/lots/order`, { lotIds: [ids[0]] });
    expect(stale.statusCode).toBe(409);
    const current = await ok<LiveSessionDetail>(await call(seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: ids[1] }));
    expect(current.session).toMatchObject({ currentLotId: ids[1], status: 'live' });
    // The auction stays: removing a lot never deletes its auction.
    expect(await server.ctx.db.select({ id: auctions.id }).from(auctions).where(eq(auctions.id, b.id))).toHaveLength(1);
  });

  it('refuses an ended, paid, foreign or already-placed auction with Spanish reasons', async () => {
    const { session } = await newSession();
    const other = await newSession('Otra');
    const ended = await auctionOf({ status: 'ended', closedAt: new Date() });
    const paid = await auctionOf({ isPaid: true });
    const foreign = await buildAuction(server.ctx.db, { companyId: 'otra-empresa', status: 'active', endTime: new Date(Date.now() + 60_000) });
    const placed = await auctionOf();
    await addLot(other.session.id, placed.id);
    const tries = [
      [ended.id, 409, messages.live.auctionEnded],
      [paid.id, 409, messages.live.auctionPaid],
      [foreign.id, 404, messages.live.auctionNotFound],
      [placed.id, 409, messages.live.auctionInOtherSession],
      ['00000000-0000-4000-8000-000000000000', 404, messages.live.auctionNotFound],
    ] as const;
    for (const [auctionId, status, message] of tries) {
      const res = await call(seller, 'POST', `/api/live-sessions/${session.id}/lots`, { auctionId });
      expect([res.statusCode, res.json().error.message]).toEqual([status, message]);
    }
    await addLot(session.id, (await auctionOf()).id);
    const lotId = (await lotsOf(session.id))[0]?.id as string;
    const again = await call(seller, 'POST', `/api/live-sessions/${session.id}/lots`, { auctionId: (await lotsOf(session.id))[0]?.auctionId });
    expect([again.statusCode, again.json().error.message]).toEqual([409, messages.live.auctionInSession]);
    const missingLot = await call(seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: '00000000-0000-4000-8000-000000000000' });
    expect([missingLot.statusCode, missingLot.json().error.message]).toEqual([404, messages.live.lotNotFound]);
    expect(lotId).toBeTruthy();
  });

  it('keeps orders unique and dense under concurrent adds, removals and reorders', async () => {
    const { session } = await newSession('Concurrente');
    const made = await Promise.all(Array.from({ length: 8 }, (_, i) => auctionOf({ name: `Lote ${i}`, status: 'pending', endTime: null })));
    const adds = await Promise.all(made.map((a) => call(seller, 'POST', `/api/live-sessions/${session.id}/lots`, { auctionId: a.id })));
    expect(adds.map((r) => r.statusCode)).toEqual(made.map(() => 201));
    const lots = await lotsOf(session.id);
    expect(lots.map((l) => l.order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const ids = lots.map((l) => l.id);
    const orders = [ids.slice().reverse(), ids.slice(2).concat(ids.slice(0, 2)), ids];
    const results = await Promise.all([
      ...orders.map((lotIds) => call(seller, 'PUT', `/api/live-sessions/${session.id}/lots/order`, { lotIds })),
      call(seller, 'DELETE', `/api/live-sessions/${session.id}/lots/${ids[3]}`),
    ]);
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    const after = await lotsOf(session.id);
    expect(after.map((l) => l.order)).toEqual(after.map((_, i) => i + 1));
    expect(after.map((l) => l.id)).not.toContain(ids[3]);
  });

  it('lets an auction join only one open session when two add it at once', async () => {
    const [one, two] = [await newSession('Una'), await newSession('Dos')];
    for (let round = 0; round < 3; round++) {
      const auction = await auctionOf({ name: `Disputada ${round}` });
      const answers = await Promise.all([one, two].map((s) => call(seller, 'POST', `/api/live-sessions/${s.session.id}/lots`, { auctionId: auction.id })));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const held = await server.ctx.db.select().from(liveLots).where(eq(liveLots.auctionId, auction.id));
      expect(held).toHaveLength(1);
    }
  });

  it('picks the manageable open auctions not yet in a session, by name tokens or id, at most 20', async () => {
    const { session } = await newSession('Selector');
    const lamp = await auctionOf({ name: 'Lámpara de latón', nameTokens: ['lampara', 'de', 'laton'] });
    const clock = await auctionOf({ name: 'Reloj de pared', nameTokens: ['reloj', 'de', 'pared'] });
    const ended = await auctionOf({ name: 'Lámpara vieja', nameTokens: ['lampara', 'vieja'], status: 'ended', closedAt: new Date() });
    await buildAuction(server.ctx.db, {
      name: 'Lámpara ajena',
      nameTokens: ['lampara', 'ajena'],
      companyId: 'otra',
      status: 'active',
      endTime: new Date(Date.now() + 60_000),
    });
    const search = await ok<PickerAnswer>(await call(seller, 'GET', `/api/live-sessions/${session.id}/picker?q=${encodeURIComponent('LAMPARA roja')}`));
    expect(search.items.map((i) => i.id)).toEqual([lamp.id]);
    const byId = await ok<PickerAnswer>(await call(seller, 'GET', `/api/live-sessions/${session.id}/picker?q=${clock.id}`));
    expect(byId.items.map((i) => i.id)).toEqual([clock.id]);
    await addLot(session.id, lamp.id);
    const defaults = await ok<PickerAnswer>(await call(seller, 'GET', `/api/live-sessions/${session.id}/picker?q=a`));
    const defaultIds = defaults.items.map((i) => i.id);
    expect(defaultIds).not.toContain(lamp.id);
    expect(defaultIds).not.toContain(ended.id);
    // Pending auctions come first (picker-pending-first.test.ts); the newest running one leads the rest.
    expect(defaults.items.find((i) => i.status !== 'pending')?.id).toBe(clock.id);
    expect(defaults.items.length).toBeLessThanOrEqual(20);
  });
});

describe('timer and quick auction', () => {
  it('answers SPEC’s timer errors in Spanish', async () => {
    const { session } = await newSession('Sin lote');
    const none = await call(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 15 });
    expect([none.statusCode, none.json().error.message]).toEqual([409, messages.live.noCurrentLot]);
    const missing = await call(seller, 'POST', '/api/live-sessions/00000000-0000-4000-8000-000000000000/timer', { seconds: 15 });
    expect([missing.statusCode, missing.json().error.message]).toEqual([404, messages.live.sessionNotFound]);
    const bad = await call(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 7 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.seconds).toBe(messages.live.fields.timerStep);
  });

  it('sets the current lot’s end to now plus N, live; re-runs an unsold lot; refuses a sold one and a shorter end under bids', async () => {
    const { session } = await newSession('Reloj');
    const auction = await auctionOf({ status: 'pending', endTime: null });
    const added = await addLot(session.id, auction.id);
    const lotId = added.lots[0]?.id as string;
    await ok(await call(seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId }));
    const before = Date.now();
    const timed = await ok<LiveSessionDetail>(await call(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 30 }));
    const state = timed.lots[0]?.auction.state;
    expect(state?.status).toBe('live');
    expect(state?.endTime).toBeGreaterThanOrEqual(before + 30_000 - 50);
    expect(state?.endTime).toBeLessThanOrEqual(Date.now() + 30_000 + 50);

    // Ended without bids: the lot runs again.
    await server.ctx.db
      .update(auctions)
      .set({ status: 'ended', closedAt: new Date(), endTime: new Date(Date.now() - 1000) })
      .where(eq(auctions.id, auction.id));
    expect((await lotsOf(session.id))[0]?.status).toBe('finished');
    const rerun = await ok<LiveSessionDetail>(await call(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 15 }));
    expect(rerun.lots[0]).toMatchObject({ status: 'queued', auction: { state: { status: 'live' } } });
    const [reopened] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auction.id));
    expect(reopened?.closedAt).toBeNull();

    // With bids: only later.
    await server.ctx.db
      .update(auctions)
      .set({ bidCount: 1, currentPrice: 600, endTime: new Date(Date.now() + 120_000) })
      .where(eq(auctions.id, auction.id));
    const shorter = await call(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 15 });
    expect([shorter.statusCode, shorter.json().error.message]).toEqual([409, messages.live.timerShortens]);
    await ok(await call(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 300 }));

    // Sold: refused.
    await server.ctx.db.update(auctions).set({ status: 'ended', closedAt: new Date(), currentWinnerId: bidder.id }).where(eq(auctions.id, auction.id));
    const sold = await call(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 15 });
    expect([sold.statusCode, sold.json().error.message]).toEqual([409, messages.live.lotSold]);
  });

  it('creates a quick auction as the current lot with its timer running, in one step', async () => {
    const { session } = await newSession('Rápida');
    const image = await buildUpload(server, { ownerId: seller.id, companyId: COMPANY, name: 'rapida-1' });
    const res = await call(seller, 'POST', `/api/live-sessions/${session.id}/quick-auction`, {
      name: ' Collar de plata ',
      startingPrice: 250,
      images: [image],
      timerSeconds: 60,
      status: 'pending',
      addToSession: true,
    });
    const body = await ok<{ auction: { id: string; name: string; status: string; sellerId: string }; detail: LiveSessionDetail }>(res, 201);
    expect(body.auction).toMatchObject({ name: 'Collar de plata', status: 'live', sellerId: seller.id });
    expect(body.detail.session).toMatchObject({ status: 'live', currentLotId: body.detail.lots[0]?.id });
    expect(body.detail.lots[0]?.auction.state.endTime).toBeGreaterThan(Date.now() + 55_000);

    const plain = await ok<{ auction: { status: string; endTime: number | null }; detail: LiveSessionDetail | null }>(
      await call(seller, 'POST', `/api/live-sessions/${session.id}/quick-auction`, { name: 'Sin sesión', startingPrice: 0, addToSession: false }),
      201,
    );
    expect(plain).toMatchObject({ auction: { status: 'live', endTime: null }, detail: null });
    const active = await call(seller, 'POST', `/api/live-sessions/${session.id}/quick-auction`, {
      name: 'Activa',
      startingPrice: 10,
      status: 'active',
      addToSession: false,
    });
    expect(active.statusCode).toBe(400);
    expect(active.json().error.fields.timerSeconds).toBe(messages.live.activeNeedsTimer);
    // SPEC resets the form to active with no timer: in the show, the lot waits for its timer, and takes no bid before it.
    const waiting = await ok<{ auction: { id: string; status: string; endTime: number | null }; detail: LiveSessionDetail }>(
      await call(seller, 'POST', `/api/live-sessions/${session.id}/quick-auction`, { name: 'Activa en la sesión', startingPrice: 10, status: 'active' }),
      201,
    );
    expect(waiting.auction).toMatchObject({ status: 'active', endTime: null });
    expect(waiting.detail.lots.map((l) => l.auctionId)).toContain(waiting.auction.id);
    const early = await call(bidder, 'POST', `/api/auctions/${waiting.auction.id}/bids`, { amount: 10 });
    expect([early.statusCode, early.json().error.message]).toEqual([409, messages.bidding.notStarted]);
    const foreignImage = await call(seller, 'POST', `/api/live-sessions/${session.id}/quick-auction`, {
      name: 'Ajena',
      startingPrice: 10,
      images: ['https://evil.example/x.jpg'],
    });
    expect(foreignImage.statusCode).toBe(400);
  });
});
