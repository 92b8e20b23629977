import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockAnswer } from '../../../../../src/domain/chat.js';
import type { WinnersSummary } from '../../../../../src/domain/payments.js';
import type { ShowBillOverview } from '../../../../../src/domain/show-billing.js';
import { paymentItems } from '../../../../../src/server/db/schema.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildCompany, buildLot, buildSession, buildWonAuction } from '../../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * A blocked buyer is never billed: a lot won by a buyer that the company then blocks stays won but
 * leaves the winners summary, 'Cobrar el show' and any new draft while the block lasts; the block's
 * answer names it; bills made before the block stay as they are; unblocking makes it billable again.
 */

let server: TestServer;
let seller: Actor;
let buyer: Actor;
let other: Actor;
const COMPANY = 'remates-bloqueo';
const call = caller(() => server);

const summaryItems = async (query = '') =>
  Object.values((await call(seller, 'GET', `/api/winners-summary${query}`)).json() as WinnersSummary).flatMap((s) => s.wonItems.map((i) => i.auctionId));

beforeAll(async () => {
  server = await startTestServer();
  await buildCompany(server.ctx.db, { id: COMPANY });
  seller = await buildActor(server, { email: 'vende@bloqueo.mx', name: 'Vale Vendedora', roles: ['seller'], companyId: COMPANY });
  buyer = await buildActor(server, { email: 'ganador@ejemplo.mx', name: 'Gael Ganador', roles: ['buyer'], completeProfile: true });
  other = await buildActor(server, { email: 'otra@ejemplo.mx', name: 'Olga Otra', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => server?.close());

describe('a lot won by a buyer the company then blocks', () => {
  it('leaves every bill while the block lasts, and is billable again once unblocked', async () => {
    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'ended' });
    const won = await buildWonAuction(server.ctx.db, { price: 800, companyId: COMPANY, sellerId: seller.id, winnerId: buyer.id, name: 'Reloj de bolsillo' });
    const billedBefore = await buildWonAuction(server.ctx.db, { price: 300, companyId: COMPANY, sellerId: seller.id, winnerId: buyer.id });
    const othersWin = await buildWonAuction(server.ctx.db, { price: 500, companyId: COMPANY, sellerId: seller.id, winnerId: other.id });
    for (const a of [won, othersWin]) await buildLot(server.ctx.db, { sessionId: session.id, auctionId: a.id });
    await call(seller, 'PUT', `/api/live-sessions/${session.id}/shipping`, {
      mode: 'flat',
      flatFee: 150,
      perExtraItem: 0,
      freeOver: null,
      pickupAddress: null,
    });
    // A bill made before the block stays as it is.
    const draft = await call(seller, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [billedBefore.id] });
    expect(draft.statusCode, draft.body).toBe(201);
    expect(await summaryItems()).toEqual(expect.arrayContaining([won.id, othersWin.id]));

    const blocked = await call(seller, 'POST', `/api/companies/${COMPANY}/blocks`, { userId: buyer.id });
    expect(blocked.statusCode).toBe(201);
    expect((blocked.json() as BlockAnswer).heldWins).toEqual([{ auctionId: won.id, auctionName: 'Reloj de bolsillo', amount: 800 }]);

    // Not in the winners summary (the show's or the whole), not in 'Cobrar el show', not in a new draft.
    expect(await summaryItems()).not.toContain(won.id);
    expect(await summaryItems(`?sessionId=${session.id}`)).toEqual([othersWin.id]);
    const overview = (await call(seller, 'GET', `/api/live-sessions/${session.id}/bill`)).json() as ShowBillOverview;
    expect(overview.preview.map((p) => p.winnerId)).toEqual([other.id]);
    const refused = await call(seller, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [won.id] });
    expect([refused.statusCode, refused.json().error.message]).toEqual([409, messages.payments.winnerBlocked]);
    const added = await call(seller, 'POST', `/api/payments/${draft.json().paymentId}/add-auctions`, { auctionIds: [won.id] });
    expect([added.statusCode, added.json().error.message]).toEqual([409, messages.payments.winnerBlocked]);
    const billed = await call(seller, 'POST', `/api/live-sessions/${session.id}/bill`);
    expect(billed.statusCode, billed.body).toBe(200);
    const held = await server.ctx.db.select().from(paymentItems).where(eq(paymentItems.auctionId, won.id));
    expect(held).toEqual([]);
    // The bill made before stands.
    expect((await server.ctx.db.select().from(paymentItems).where(eq(paymentItems.auctionId, billedBefore.id))).map((i) => i.paymentStatus)).toEqual(['draft']);

    expect((await call(seller, 'DELETE', `/api/companies/${COMPANY}/blocks/${buyer.id}`)).statusCode).toBe(204);
    expect(await summaryItems(`?sessionId=${session.id}`)).toContain(won.id);
    const later = await call(seller, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [won.id] });
    expect(later.statusCode, later.body).toBe(201);
  });
});
