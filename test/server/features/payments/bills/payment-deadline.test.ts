import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftAnswer, FinalizeAnswer } from '../../../../../src/domain/payments.js';
import { companies, payments } from '../../../../../src/server/db/schema.js';
import { mexicoTime } from '../../../../../src/server/providers/payments/mercadopago.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildAuction, buildCompany, buildSession } from '../../../../support/factories.js';
import type { FakeMercadoPago } from '../../../../support/fake-mercadopago.js';
import { startWithFakeMercadoPago } from '../../../../support/mercadopago-server.js';
import { caller, type TestServer } from '../../../../support/server.js';

/**
 * A bill's payment deadline: its link works for the company's hours (72 by default), or its show's
 * own hours when the show sets them, counted from when the link is made. Mercado Pago's preference
 * carries it (the link's expiry and date_of_expiration, the cash methods' deadline), and the bill
 * records when its link was made and its deadline.
 */

let fake: FakeMercadoPago;
let server: TestServer;
let seller: Actor;
let buyer: Actor;
const COMPANY = 'remates-plazo';

beforeAll(async () => {
  ({ fake, server } = await startWithFakeMercadoPago());
  await buildCompany(server.ctx.db, { id: COMPANY, name: 'Remates Plazo' });
  seller = await buildActor(server, { email: 'vende@plazo.mx', name: 'Pía Plazo', roles: ['seller'], companyId: COMPANY });
  buyer = await buildActor(server, { email: 'rosa@ejemplo.mx', name: 'Rosa Ruiz', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const call = caller(() => server);
const HOUR = 3_600_000;

/** A bill with shipping for one won lot, of the show `sessionId` when given; answers its id once finalised, and the time around the call. */
async function finalizedBill(sessionId: string | null) {
  const auction = await buildAuction(server.ctx.db, {
    name: `Lote ${randomUUID().slice(0, 5)}`,
    status: 'ended',
    endTime: new Date(Date.now() - 60_000),
    companyId: COMPANY,
    sellerId: seller.id,
    currentPrice: 500,
    currentWinnerId: buyer.id,
    currentWinnerName: 'Rosa Ruiz',
  });
  const draft = await call(seller, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [auction.id] });
  expect(draft.statusCode, draft.body).toBe(201);
  const id = (draft.json() as DraftAnswer).paymentId;
  if (sessionId) await server.ctx.db.update(payments).set({ sessionId }).where(eq(payments.id, id));
  expect((await call(seller, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 90 })).statusCode).toBe(200);
  const before = Date.now();
  const res = await call(seller, 'POST', `/api/payments/${id}/finalize`);
  const after = Date.now();
  expect(res.statusCode, res.body).toBe(200);
  return { id, payment: (res.json() as FinalizeAnswer).payment, before, after };
}

function expectDeadline(bill: Awaited<ReturnType<typeof finalizedBill>>, hours: number) {
  const deadline = Date.parse(bill.payment.deadlineAt ?? '');
  expect(deadline).toBeGreaterThanOrEqual(bill.before + hours * HOUR);
  expect(deadline).toBeLessThanOrEqual(bill.after + hours * HOUR);
  const linkAt = Date.parse(bill.payment.linkCreatedAt ?? '');
  expect(linkAt).toBeGreaterThanOrEqual(bill.before);
  expect(linkAt).toBeLessThanOrEqual(bill.after);
  expect(bill.payment.linkExpiresAt).toBe(bill.payment.deadlineAt);
  const preference = fake.preferences.find((p) => p.body.external_reference === bill.id);
  expect(preference?.body).toMatchObject({
    expires: true,
    date_of_expiration: mexicoTime(new Date(deadline)),
    expiration_date_to: mexicoTime(new Date(deadline)),
  });
}

describe('the payment deadline', () => {
  it('is 72 hours after the link by default, and Mercado Pago’s preference carries it', async () => {
    expectDeadline(await finalizedBill(null), 72);
  });

  it('follows the company’s hours', async () => {
    await server.ctx.db.update(companies).set({ paymentDeadlineHours: 48 }).where(eq(companies.id, COMPANY));
    try {
      expectDeadline(await finalizedBill(null), 48);
    } finally {
      await server.ctx.db.update(companies).set({ paymentDeadlineHours: 72 }).where(eq(companies.id, COMPANY));
    }
  });

  it('follows the show’s own hours over the company’s for a bill of that show', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'ended', paymentDeadlineHours: 6 });
    expectDeadline(await finalizedBill(session.id), 6);
    const plain = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'ended' });
    expectDeadline(await finalizedBill(plain.id), 72);
  });
});
