import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import { auctions, auditLog, liveIdempotencyKeys, liveLots, liveSessions } from '../../../../src/server/db/schema.js';
import { deleteExpiredLiveKeys } from '../../../../src/server/features/live/sessions/idempotency.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * An Idempotency-Key on 'Crear sesión' and the quick auction: a double click, a retry or requests
 * racing with one key make one record, and every repeat answers as the first did (201, the same
 * shape, the record as it is now). The key is the user's own; reused with another request it is
 * refused; it is bounded like bids' key; it lasts a day.
 */

const COMPANY = 'claves-vivo';
let server: TestServer;
let seller: Actor;
let other: Actor;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@claves.mx', name: 'Vera Vende', roles: ['seller'], companyId: COMPANY });
  other = await buildActor(server, { email: 'otra@claves.mx', name: 'Olga Otra', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => server?.close());

let keys = 0;
const newKey = () => `clave-${Date.now()}-${++keys}`;
const create = (actor: Actor, body: Record<string, unknown>, key?: string) =>
  injectAs(server, actor, 'POST', '/api/live-sessions', body, key === undefined ? {} : { 'idempotency-key': key });
const quick = (actor: Actor, sessionId: string, body: Record<string, unknown>, key?: string) =>
  injectAs(server, actor, 'POST', `/api/live-sessions/${sessionId}/quick-auction`, body, key === undefined ? {} : { 'idempotency-key': key });

async function sessionsTitled(title: string) {
  return server.ctx.db.select().from(liveSessions).where(eq(liveSessions.title, title));
}
async function auctionsNamed(name: string) {
  return server.ctx.db.select().from(auctions).where(eq(auctions.name, name));
}

describe('Crear sesión with an Idempotency-Key', () => {
  it('makes one session from a double click, the repeat answering 201 with the same session', async () => {
    const key = newKey();
    const body = { title: 'Doble clic', scheduledAt: Date.UTC(2030, 3, 1, 18) };
    const first = await create(seller, body, key);
    const again = await create(seller, body, key);
    expect([first.statusCode, again.statusCode], again.body).toEqual([201, 201]);
    const [a, b] = [first.json() as LiveSessionDetail, again.json() as LiveSessionDetail];
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    expect(b.session).toEqual(a.session);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await sessionsTitled('Doble clic')).toHaveLength(1);
    const audits = await server.ctx.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'live_session.create'), eq(auditLog.entityId, a.session.id)));
    expect(audits[0]?.n).toBe(1);
  });

  it('answers the session as it is now when it changed since', async () => {
    const key = newKey();
    const body = { title: 'Cambia después', scheduledAt: Date.UTC(2030, 3, 2) };
    const first = (await create(seller, body, key)).json() as LiveSessionDetail;
    expect((await injectAs(server, seller, 'PUT', `/api/live-sessions/${first.session.id}`, { title: 'Ya cambió' })).statusCode).toBe(200);
    const again = await create(seller, body, key);
    expect(again.statusCode).toBe(201);
    expect((again.json() as LiveSessionDetail).session).toMatchObject({ id: first.session.id, title: 'Ya cambió' });
  });

  it('makes one session from requests racing with one key', async () => {
    const key = newKey();
    const body = { title: 'Carrera', scheduledAt: Date.UTC(2030, 3, 3) };
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(seller, body, key)));
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((r) => (r.json() as LiveSessionDetail).session.id)).size).toBe(1);
    expect(await sessionsTitled('Carrera')).toHaveLength(1);
  });

  it('refuses the key with another body in Spanish (409), creating nothing', async () => {
    const key = newKey();
    expect((await create(seller, { title: 'Primera', scheduledAt: Date.UTC(2030, 3, 4) }, key)).statusCode).toBe(201);
    const reused = await create(seller, { title: 'Segunda', scheduledAt: Date.UTC(2030, 3, 4) }, key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toEqual({ error: { code: 'CONFLICT', message: messages.live.idempotencyReused } });
    expect(await sessionsTitled('Segunda')).toHaveLength(0);
  });

  it('keeps keys per user: another user with the same key makes their own session', async () => {
    const key = newKey();
    const body = { title: 'Misma clave', scheduledAt: Date.UTC(2030, 3, 5) };
    const mine = (await create(seller, body, key)).json() as LiveSessionDetail;
    const theirs = await create(other, body, key);
    expect(theirs.statusCode).toBe(201);
    expect((theirs.json() as LiveSessionDetail).session).toMatchObject({ sellerId: other.id });
    expect((theirs.json() as LiveSessionDetail).session.id).not.toBe(mine.session.id);
    // Each user's repeat still answers their own session.
    expect(((await create(seller, body, key)).json() as LiveSessionDetail).session.id).toBe(mine.session.id);
    expect(await sessionsTitled('Misma clave')).toHaveLength(2);
  });

  it('bounds the key: 1 to 100 visible ASCII characters, else a Spanish 400 and nothing made', async () => {
    for (const bad of ['x'.repeat(101), 'con espacio', 'clave-ñ', '']) {
      const res = await create(seller, { title: 'Clave mala', scheduledAt: Date.UTC(2030, 3, 6) }, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'VALIDATION', message: messages.bidding.idempotencyInvalid } });
    }
    expect(await sessionsTitled('Clave mala')).toHaveLength(0);
    expect((await create(seller, { title: 'Clave larga', scheduledAt: Date.UTC(2030, 3, 6) }, 'k'.repeat(100))).statusCode).toBe(201);
  });

  it('keeps a key a day: after that it makes a new session, and the sweep deletes it', async () => {
    const key = newKey();
    const body = { title: 'Clave vieja', scheduledAt: Date.UTC(2030, 3, 7) };
    expect((await create(seller, body, key)).statusCode).toBe(201);
    const mine = and(eq(liveIdempotencyKeys.userId, seller.id), eq(liveIdempotencyKeys.idempotencyKey, key));
    expect(await server.ctx.db.select().from(liveIdempotencyKeys).where(mine)).toHaveLength(1);
    await server.ctx.db.update(liveIdempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` }).where(mine);
    expect((await create(seller, body, key)).statusCode).toBe(201);
    expect(await sessionsTitled('Clave vieja')).toHaveLength(2);
    // The second use started its day afresh; once that day is over too, the sweep removes it.
    await server.ctx.db.update(liveIdempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` }).where(mine);
    await deleteExpiredLiveKeys(server.ctx.db);
    expect(await server.ctx.db.select().from(liveIdempotencyKeys).where(mine)).toHaveLength(0);
  });

  it('still creates a session per request without a key (a control for the tests above)', async () => {
    const body = { title: 'Sin clave', scheduledAt: Date.UTC(2030, 3, 8) };
    await create(seller, body);
    await create(seller, body);
    expect(await sessionsTitled('Sin clave')).toHaveLength(2);
  });
});

describe('the quick auction with an Idempotency-Key', () => {
  it('makes one auction and one lot from a double click; the repeat answers 201 with the same auction and session', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const key = newKey();
    const body = { name: 'Reloj doble', startingPrice: 100, timerSeconds: 60 };
    const first = await quick(seller, session.id, body, key);
    const again = await quick(seller, session.id, body, key);
    expect([first.statusCode, again.statusCode], again.body).toEqual([201, 201]);
    const [a, b] = [first.json(), again.json()] as { auction: { id: string }; detail: LiveSessionDetail }[];
    expect(Object.keys(b ?? {}).sort()).toEqual(Object.keys(a ?? {}).sort());
    expect(b?.auction.id).toBe(a?.auction.id);
    expect(b?.detail.session.currentLotId).toBe(a?.detail.session.currentLotId);
    expect(b?.detail.lots.map((l) => l.auctionId)).toEqual([a?.auction.id]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await auctionsNamed('Reloj doble')).toHaveLength(1);
    expect(await server.ctx.db.select().from(liveLots).where(eq(liveLots.sessionId, session.id))).toHaveLength(1);
  });

  it('makes one auction from requests racing with one key', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const key = newKey();
    const body = { name: 'Lámpara en carrera', startingPrice: 50 };
    const answers = await Promise.all(Array.from({ length: 6 }, () => quick(seller, session.id, body, key)));
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((r) => r.json().auction.id)).size).toBe(1);
    expect(await auctionsNamed('Lámpara en carrera')).toHaveLength(1);
    expect(await server.ctx.db.select().from(liveLots).where(eq(liveLots.sessionId, session.id))).toHaveLength(1);
  });

  it('answers an auction made outside the session the same way (detail null)', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const key = newKey();
    const body = { name: 'Fuera de la sesión', startingPrice: 10, addToSession: false };
    const first = await quick(seller, session.id, body, key);
    const again = await quick(seller, session.id, body, key);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json()).toMatchObject({ auction: { id: first.json().auction.id }, detail: null });
    expect(await auctionsNamed('Fuera de la sesión')).toHaveLength(1);
  });

  it('refuses the key with another body or on another session (409), and after a create session', async () => {
    const [one, two] = [
      await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY }),
      await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY }),
    ];
    const key = newKey();
    expect((await quick(seller, one.id, { name: 'Collar', startingPrice: 10 }, key)).statusCode).toBe(201);
    for (const res of [
      await quick(seller, one.id, { name: 'Collar', startingPrice: 20 }, key),
      await quick(seller, two.id, { name: 'Collar', startingPrice: 10 }, key),
      await create(seller, { title: 'Collar', scheduledAt: Date.UTC(2030, 3, 9) }, key),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({ code: 'CONFLICT', message: messages.live.idempotencyReused });
    }
    expect(await auctionsNamed('Collar')).toHaveLength(1);
    expect(await sessionsTitled('Collar')).toHaveLength(0);
  });

  it('keeps nothing of a refused request: the key is free for the next one', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const key = newKey();
    const refused = await quick(seller, session.id, { name: 'Con imagen ajena', startingPrice: 10, images: ['https://evil.example/x.jpg'] }, key);
    expect(refused.statusCode).toBe(400);
    expect(await server.ctx.db.select().from(liveIdempotencyKeys).where(eq(liveIdempotencyKeys.idempotencyKey, key))).toHaveLength(0);
    const made = await quick(seller, session.id, { name: 'Sin imagen', startingPrice: 10 }, key);
    expect(made.statusCode).toBe(201);
    const again = await quick(seller, session.id, { name: 'Sin imagen', startingPrice: 10 }, key);
    expect(again.json().auction.id).toBe(made.json().auction.id);
    expect(await auctionsNamed('Sin imagen')).toHaveLength(1);
  });
});
