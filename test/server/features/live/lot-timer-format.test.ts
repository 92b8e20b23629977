import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionDetail } from '../../../../src/domain/live.js';
import { auditLog, liveLots, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * A lot's own timer format (PUT /api/live-sessions/{id}/lots/{lotId}): only the session's editors
 * set it, it reaches the engine's state for that lot alone, null returns it to the session's
 * format, and a lot that already closed keeps the format it closed under.
 */

const COMPANY_A = 'formato-a';
const COMPANY_B = 'formato-b';
let server: TestServer;
const call = caller(() => server);
let seller: Actor;
let colleague: Actor;
let companyAdmin: Actor;
let otherAdmin: Actor;
let platformAdmin: Actor;
let buyer: Actor;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@formato-a.mx', name: 'Fernanda Formato', roles: ['seller'], companyId: COMPANY_A });
  colleague = await buildActor(server, { email: 'colega@formato-a.mx', name: 'Cora Colega', roles: ['seller'], companyId: COMPANY_A });
  companyAdmin = await buildActor(server, { email: 'jefa@formato-a.mx', name: 'Jimena Jefa', roles: ['admin'], companyId: COMPANY_A });
  otherAdmin = await buildActor(server, { email: 'jefe@formato-b.mx', name: 'Bruno Jefe', roles: ['admin'], companyId: COMPANY_B });
  platformAdmin = await buildActor(server, { email: 'admin@formato.mx', name: 'Ada Admin', roles: ['admin'] });
  buyer = await buildActor(server, { email: 'compra@formato.mx', name: 'Carla Compradora', roles: ['buyer'] });
}, 60_000);
afterAll(async () => server?.close());

/** A session in Extender (window 10 s) with two lots waiting for their timer. */
async function show() {
  const db = server.ctx.db;
  const session = await buildSession(db, {
    sellerId: seller.id,
    companyId: COMPANY_A,
    title: `Formatos ${randomUUID().slice(0, 6)}`,
    biddingConfig: { minIncrement: 20, antiSnipeSeconds: 10, timerSecondsDefault: 60, timerMode: 'extend' },
  });
  const waiting = () => buildAuction(db, { companyId: COMPANY_A, sellerId: seller.id, status: 'pending' });
  const lot1 = await buildLot(db, { sessionId: session.id, auctionId: (await waiting()).id });
  const lot2 = await buildLot(db, { sessionId: session.id, auctionId: (await waiting()).id });
  return { session, lot1, lot2 };
}

const url = (sessionId: string, lotId: string) => `/api/live-sessions/${sessionId}/lots/${lotId}`;
const lotOf = (detail: LiveSessionDetail, lotId: string) => {
  const lot = detail.lots.find((l) => l.id === lotId);
  if (!lot) throw new Error('lot missing from the answer');
  return lot;
};
async function lotRow(lotId: string) {
  const [row] = await server.ctx.db.select().from(liveLots).where(eq(liveLots.id, lotId));
  return row;
}

describe('who may set a lot’s format', () => {
  const cases: [string, () => Actor | null, number][] = [
    ['anonymous', () => null, 401],
    ['buyer', () => buyer, 403],
    ['a co-seller of the company', () => colleague, 404],
    ['another company’s admin', () => otherAdmin, 404],
    ['the seller', () => seller, 200],
    ['the company’s admin', () => companyAdmin, 200],
    ['a platform admin', () => platformAdmin, 200],
  ];
  for (const [name, who, status] of cases) {
    it(`${name}: ${status}`, async () => {
      const { session, lot1 } = await show();
      const res = await call(who(), 'PUT', url(session.id, lot1.id), { timerMode: 'suddenDeath' });
      expect(res.statusCode, res.body).toBe(status);
      if (status === 404) expect(res.json().error.message).toBe(messages.live.sessionNotFound);
      expect((await lotRow(lot1.id))?.timerMode).toBe(status === 200 ? 'suddenDeath' : null);
    });
  }
});

describe('setting a lot’s format', () => {
  it('reaches the engine state of that lot only, and null returns it to the session’s', async () => {
    const { session, lot1, lot2 } = await show();
    const versionBefore = session.version;
    const res = await call(seller, 'PUT', url(session.id, lot1.id), { timerMode: 'counterBid', counterBidWindowSeconds: 15, counterBidResetSeconds: 5 });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json() as LiveSessionDetail;
    expect(detail.session.version).toBeGreaterThan(versionBefore);
    expect(lotOf(detail, lot1.id).timerOverride).toEqual({ timerMode: 'counterBid', counterBidWindowSeconds: 15, counterBidResetSeconds: 5 });
    expect(lotOf(detail, lot1.id).auction.state).toMatchObject({ timerMode: 'counterBid', antiSnipeSeconds: 15, counterBidResetSeconds: 5 });
    expect(lotOf(detail, lot2.id).auction.state).toMatchObject({ timerMode: 'extend', antiSnipeSeconds: 10 });

    // A field left out keeps what the lot had.
    const reset = await call(seller, 'PUT', url(session.id, lot1.id), { counterBidResetSeconds: 8 });
    expect(lotOf(reset.json(), lot1.id).auction.state).toMatchObject({ timerMode: 'counterBid', antiSnipeSeconds: 15, counterBidResetSeconds: 8 });

    const back = await call(seller, 'PUT', url(session.id, lot1.id), { timerMode: null, counterBidWindowSeconds: null, counterBidResetSeconds: null });
    expect(back.statusCode, back.body).toBe(200);
    const lot = lotOf(back.json(), lot1.id);
    expect(lot.timerOverride).toEqual({ timerMode: null, counterBidWindowSeconds: null, counterBidResetSeconds: null });
    expect(lot.auction.state).toMatchObject({ timerMode: 'extend', antiSnipeSeconds: 10 });

    // The public page reads the same.
    const pub = (await call(null, 'GET', `/api/live-sessions/${session.id}`)).json() as LiveSessionDetail;
    expect(lotOf(pub, lot1.id).auction.state.timerMode).toBe('extend');

    const audits = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, session.id), eq(auditLog.action, 'live_session.lot_format')));
    expect(audits).toHaveLength(3);
  });

  it('follows the session’s format when the lot leaves the mode open', async () => {
    const { session, lot1 } = await show();
    await server.ctx.db
      .update(liveSessions)
      .set({ biddingConfig: { minIncrement: 20, antiSnipeSeconds: 10, timerSecondsDefault: 60, timerMode: 'suddenDeath' } })
      .where(eq(liveSessions.id, session.id));
    const res = await call(seller, 'PUT', url(session.id, lot1.id), { counterBidWindowSeconds: 20 });
    expect(lotOf(res.json(), lot1.id).auction.state).toMatchObject({ timerMode: 'suddenDeath', antiSnipeSeconds: 0 });
  });

  it('refuses bad input in Spanish and changes nothing', async () => {
    const { session, lot1 } = await show();
    const bad: [unknown, string, string][] = [
      [{ timerMode: 'rapido' }, 'timerMode', messages.live.fields.timerModeInvalid],
      [{ counterBidWindowSeconds: 0 }, 'counterBidWindowSeconds', messages.live.fields.counterBidInvalid],
      [{ counterBidResetSeconds: 301 }, 'counterBidResetSeconds', messages.live.fields.counterBidInvalid],
      [{ counterBidResetSeconds: 2.5 }, 'counterBidResetSeconds', messages.live.fields.counterBidInvalid],
    ];
    for (const [payload, field, message] of bad) {
      const res = await call(seller, 'PUT', url(session.id, lot1.id), payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.fields?.[field], JSON.stringify(payload)).toBe(message);
    }
    const empty = await call(seller, 'PUT', url(session.id, lot1.id), {});
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json())).toContain(messages.live.fields.nothingToChange);
    expect(await lotRow(lot1.id)).toMatchObject({ timerMode: null, counterBidWindowSeconds: null, counterBidResetSeconds: null });
  });

  it('answers ‘Lote no encontrado’ for a lot of another session or no lot at all', async () => {
    const { session } = await show();
    const other = await show();
    for (const lotId of [other.lot1.id, randomUUID(), 'no-es-un-id']) {
      const res = await call(seller, 'PUT', url(session.id, lotId), { timerMode: 'suddenDeath' });
      expect(res.statusCode, lotId).toBe(404);
      expect(res.json().error.message).toBe(messages.live.lotNotFound);
    }
    expect((await lotRow(other.lot1.id))?.timerMode).toBeNull();
  });

  it('refuses a lot that already closed', async () => {
    const db = server.ctx.db;
    const { session } = await show();
    const sold = await buildAuction(db, { companyId: COMPANY_A, sellerId: seller.id, status: 'ended', endTime: new Date(Date.now() - 60_000) });
    const lot = await buildLot(db, { sessionId: session.id, auctionId: sold.id, status: 'finished' });
    const res = await call(seller, 'PUT', url(session.id, lot.id), { timerMode: 'suddenDeath' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.message).toBe(messages.live.lotFormatClosed);
    expect((await lotRow(lot.id))?.timerMode).toBeNull();
  });

  it('is described in the API document from its own schema', async () => {
    const doc = (await call(null, 'GET', '/api/openapi.json')).json();
    const put = doc.paths['/api/live-sessions/{id}/lots/{lotId}']?.put;
    expect(Object.keys(put?.requestBody?.content?.['application/json']?.schema?.properties ?? {}).sort()).toEqual([
      'counterBidResetSeconds',
      'counterBidWindowSeconds',
      'timerMode',
    ]);
  });
});
