import { expect } from 'vitest';
import type { DraftAnswer, FinalizeAnswer, PaymentView } from '../../../../../src/domain/payments.js';
import type { Actor } from '../../../../support/actors.js';
import { buildWonAuction } from '../../../../support/factories.js';
import { injectAs, type TestServer } from '../../../../support/server.js';

/**
 * A bill with its payment link, made through the payments API as a seller does it (won auctions →
 * draft → shipping → finalize) on the sandbox provider.
 */
export async function billWithLink(
  server: TestServer,
  opts: { seller: Actor; buyer: Actor; buyerName: string; companyId: string; lots: { name: string; price: number }[]; shippingCost?: number },
): Promise<PaymentView> {
  const ids: string[] = [];
  for (const lot of opts.lots) {
    const row = await buildWonAuction(server.ctx.db, {
      price: lot.price,
      name: lot.name,
      winnerId: opts.buyer.id,
      currentWinnerName: opts.buyerName,
      companyId: opts.companyId,
      sellerId: opts.seller.id,
    });
    ids.push(row.id);
  }
  const draft = await injectAs(server, opts.seller, 'POST', '/api/payments/draft', { winnerId: opts.buyer.id, auctionIds: ids });
  expect(draft.statusCode, draft.body).toBe(201);
  const { payment } = draft.json() as DraftAnswer;
  const shipping = { shippingCarrier: 'Estafeta', shippingCost: opts.shippingCost ?? 150 };
  expect((await injectAs(server, opts.seller, 'POST', `/api/payments/${payment.id}/update-shipping`, shipping)).statusCode).toBe(200);
  const done = await injectAs(server, opts.seller, 'POST', `/api/payments/${payment.id}/finalize`);
  expect(done.statusCode, done.body).toBe(200);
  return (done.json() as FinalizeAnswer).payment;
}
