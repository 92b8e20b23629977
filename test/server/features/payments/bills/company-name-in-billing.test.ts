import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutView, DraftAnswer, FinalizeAnswer, PaymentAnswer, PaymentView, WinnersSummary } from '../../../../../src/domain/payments.js';
import { payments } from '../../../../../src/server/db/schema.js';
import { reserveCheckout } from '../../../../../src/server/features/payments/bills/checkout.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildWonAuction } from '../../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../../support/server.js';

/**
 * Billing shows a company's name from its record in `companies`, the one place it is kept: a rename reaches
 * the winners summary, the payments list and its search, a payment's answers and the buyer's
 * checkout; a member's business name on their own profile reaches none of them.
 */

let server: TestServer;
let platformAdmin: Actor;
let companyAdmin: Actor; // admin of remates-norte
let seller: Actor; // seller of remates-norte
let buyer: Actor;
const NORTE = 'remates-norte';

beforeAll(async () => {
  server = await startTestServer();
  platformAdmin = await buildActor(server, { email: 'admin@martillo.mx', name: 'Ada Admin', roles: ['admin'] });
  companyAdmin = await buildActor(server, { email: 'jefa@norte.mx', name: 'Jefa Norte', roles: ['admin'], companyId: NORTE });
  seller = await buildActor(server, { email: 'vende@norte.mx', name: 'Nora Norte', roles: ['seller'], companyId: NORTE });
  buyer = await buildActor(server, { email: 'juana@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => server?.close());

const call = caller(() => server);
const put = (actor: Actor, url: string, payload: Record<string, unknown>) =>
  server.app.inject({ method: 'PUT', url, headers: { cookie: actor.cookie, origin: server.url }, payload });

/** An auction of Norte's seller that the buyer won at this price. */
const wonAuction = async (price: number): Promise<string> =>
  (await buildWonAuction(server.ctx.db, { price, winnerId: buyer.id, companyId: NORTE, sellerId: seller.id })).id;

async function draft(auctionIds: string[]): Promise<PaymentView> {
  const res = await call(seller, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as DraftAnswer).payment;
}

async function rename(actor: Actor, name: string): Promise<void> {
  const res = await put(actor, `/api/companies/${NORTE}`, { name });
  expect(res.statusCode, res.body).toBe(200);
}

const listed = async (actor: Actor, q?: string): Promise<PaymentView[]> =>
  (await call(actor, 'GET', `/api/payments${q ? `?q=${encodeURIComponent(q)}` : ''}`)).json();

/** Every place billing shows the company's name, for a draft, a pending payment and an unbilled item. */
async function namesShown(ids: { draft: string; pending: string }) {
  const summary: WinnersSummary = (await call(seller, 'GET', '/api/winners-summary')).json();
  const list = await listed(platformAdmin);
  const shipped = await call(seller, 'POST', `/api/payments/${ids.draft}/update-shipping`, { shippingCarrier: 'DHL', shippingCost: 80 });
  expect(shipped.statusCode, shipped.body).toBe(200);
  const checkout = await call(null, 'GET', `/api/pay/${ids.pending}`);
  expect(checkout.statusCode, checkout.body).toBe(200);
  return {
    summary: Object.values(summary).map((s) => s.companyName),
    list: list.filter((p) => p.id === ids.draft || p.id === ids.pending).map((p) => p.companyName),
    answer: (shipped.json() as PaymentAnswer).payment.companyName,
    checkout: (checkout.json() as CheckoutView).companyName,
  };
}

const everywhere = (name: string) => ({ summary: [name], list: [name, name], answer: name, checkout: name });

describe("the company's name in billing", () => {
  let ids: { draft: string; pending: string };

  beforeAll(async () => {
    await rename(platformAdmin, 'Remates del Norte');
    await wonAuction(300); // stays unbilled, in the winners summary
    const kept = await draft([await wonAuction(500)]);
    const sent = await draft([await wonAuction(700)]);
    expect((await call(seller, 'POST', `/api/payments/${sent.id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 100 })).statusCode).toBe(200);
    const finalized = await call(seller, 'POST', `/api/payments/${sent.id}/finalize`);
    expect(finalized.statusCode, finalized.body).toBe(200);
    ids = { draft: kept.id, pending: sent.id };
  });

  it.each([
    ['a company admin', () => companyAdmin, 'Subastas Norteñas'],
    ['a platform admin', () => platformAdmin, 'Norte Antigüedades'],
  ])('shows the new name everywhere after %s renames the company', async (_who, actor, name) => {
    await rename(actor(), name);
    expect(await namesShown(ids)).toEqual(everywhere(name));
    // The payments list's search finds the payments by the current name, and no longer by the old one.
    expect((await listed(companyAdmin, name.split(' ')[1])).map((p) => p.id).sort()).toEqual([ids.draft, ids.pending].sort());
    expect(await listed(companyAdmin, 'Remates del Norte')).toEqual([]);
  });

  it("keeps the company's name when a member edits their own business name", async () => {
    const before = await namesShown(ids);
    const profile = { lastName: 'Norte', companyName: 'Mi Tiendita', whatsappCountryCode: '+52', whatsappLocal: '3312345678', whatsappConsentGiven: true };
    expect((await put(seller, '/api/profile', profile)).statusCode).toBe(200);
    expect((await put(companyAdmin, '/api/profile', profile)).statusCode).toBe(200);
    expect(await namesShown(ids)).toEqual(before);
    expect(await listed(platformAdmin, 'Mi Tiendita')).toEqual([]);
  });

  it('keeps the name at billing time on the payment row as history', async () => {
    const [row] = await server.ctx.db.select().from(payments).where(eq(payments.id, ids.pending));
    expect(row?.companyName).toBe('Remates del Norte');
  });
});

describe("the 'Pagos' modal search", () => {
  it('finds a payment by what its placeholder names: ID, winner, company, item or carrier', async () => {
    const { id } = await draft([await wonAuction(250)]);
    await call(seller, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'Paquetería Veloz', shippingCost: 60 });
    const [item] = (await listed(seller)).find((p) => p.id === id)?.wonItems ?? [];
    for (const q of [id.slice(0, 8), 'Juana', 'norte', item?.auctionName ?? '-', 'veloz']) {
      expect(
        (await listed(companyAdmin, q)).map((p) => p.id),
        q,
      ).toContain(id);
    }
    expect(await listed(companyAdmin, 'Sin coincidencias')).toEqual([]);
  });
});

describe('a draft whose link is being made', () => {
  it('says so in its view, refuses edits, and finalize finishes it', async () => {
    const { id } = await draft([await wonAuction(400)]);
    expect((await call(seller, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 90 })).statusCode).toBe(200);
    const isReserved = async () => (await listed(seller)).find((p) => p.id === id)?.isReserved;
    expect(await isReserved()).toBe(false);

    // Step 1 of finalize, as a crash or a lost provider answer leaves it.
    await reserveCheckout(server.ctx.db, { actor: { id: seller.id, roles: ['seller'], profileCompanyId: NORTE, companyId: NORTE }, id, provider: 'sandbox' });
    expect(await isReserved()).toBe(true);
    const edit = await call(seller, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'DHL', shippingCost: 200 });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error.message).toBe(messages.payments.finalizing);

    const finalized = await call(seller, 'POST', `/api/payments/${id}/finalize`);
    expect(finalized.statusCode, finalized.body).toBe(200);
    expect((finalized.json() as FinalizeAnswer).payment).toMatchObject({ paymentStatus: 'pending', isReserved: false, shippingCost: 90 });
    expect(await isReserved()).toBe(false);
  });
});
