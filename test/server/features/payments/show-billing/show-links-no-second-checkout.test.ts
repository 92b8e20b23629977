import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowBillAnswer, ShowLinksAnswer } from '../../../../../src/domain/show-billing.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildLot, buildSession, buildWonAuction } from '../../../../support/factories.js';
import type { FakeMercadoPago } from '../../../../support/fake-mercadopago.js';
import { startWithFakeMercadoPago } from '../../../../support/mercadopago-server.js';
import { caller, type TestServer } from '../../../../support/server.js';

/**
 * 'Generar enlaces' against a local Mercado Pago: one preference per bill, whatever happens. A
 * lost answer fails that bill only (the others get their links); the next click finishes it with
 * the same preference, and a further click asks the provider for nothing.
 */

let fake: FakeMercadoPago;
let server: TestServer;
let seller: Actor;
const COMPANY = 'remates-centro';
const call = caller(() => server);

beforeAll(async () => {
  ({ fake, server } = await startWithFakeMercadoPago());
  seller = await buildActor(server, { email: 'vende@centro.mx', name: 'Celia Centro', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('Generar enlaces with Mercado Pago', () => {
  it('makes exactly one checkout per bill, after a lost answer and on repeats', async () => {
    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'ended' });
    for (let i = 0; i < 4; i++) {
      const buyer = await buildActor(server, { email: `c${i}@ejemplo.mx`, name: `Comprador ${i}`, roles: ['buyer'], completeProfile: true });
      for (const price of [300, 450]) {
        const auction = await buildWonAuction(server.ctx.db, { price, companyId: COMPANY, sellerId: seller.id, winnerId: buyer.id });
        await buildLot(server.ctx.db, { sessionId: session.id, auctionId: auction.id });
      }
    }
    await call(seller, 'PUT', `/api/live-sessions/${session.id}/shipping`, {
      mode: 'flat',
      flatFee: 120,
      perExtraItem: 30,
      freeOver: null,
      pickupAddress: null,
    });
    const billed = (await call(seller, 'POST', `/api/live-sessions/${session.id}/bill`)).json() as ShowBillAnswer;
    expect(billed.payments).toHaveLength(4);
    const ids = new Set(billed.payments.map((p) => p.id));
    const preferences = () => fake.preferences.filter((p) => ids.has(String(p.body.external_reference)));

    fake.dropNextPreferenceAnswer();
    const first = await call(seller, 'POST', `/api/live-sessions/${session.id}/bill/links`);
    expect(first.statusCode, first.body).toBe(200);
    const answer = first.json() as ShowLinksAnswer;
    expect(answer.results).toHaveLength(4);
    const failed = answer.results.filter((r) => !r.ok);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error).toBe(messages.payments.checkoutFailed);
    expect(answer.payments.filter((p) => p.paymentStatus === 'pending')).toHaveLength(3);
    expect(preferences()).toHaveLength(4);
    // Every checkout carries the shipping of the show's rules: 120 + 30 for the second item.
    for (const p of answer.payments) expect(p).toMatchObject({ shippingCost: 150, grandTotal: 900 });

    const second = (await call(seller, 'POST', `/api/live-sessions/${session.id}/bill/links`)).json() as ShowLinksAnswer;
    expect(second.results).toEqual([{ paymentId: failed[0]?.paymentId, ok: true, link: expect.any(String), error: null }]);
    expect(second.payments.every((p) => p.paymentStatus === 'pending' && p.paymentLink)).toBe(true);
    expect(preferences()).toHaveLength(4);

    const third = (await call(seller, 'POST', `/api/live-sessions/${session.id}/bill/links`)).json() as ShowLinksAnswer;
    expect(third.results).toEqual([]);
    expect(preferences()).toHaveLength(4);
    expect(new Set(preferences().map((p) => p.idempotencyKey))).toEqual(ids);
  });
});
