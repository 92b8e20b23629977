import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftAnswer, FinalizeAnswer, PaymentView, WinnerSummary, WinnersSummary } from '../../../../../src/domain/payments.js';
import { payments } from '../../../../../src/server/db/schema.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildWonAuction } from '../../../../support/factories.js';
import type { FakeMercadoPago } from '../../../../support/fake-mercadopago.js';
import { startWithFakeMercadoPago } from '../../../../support/mercadopago-server.js';
import { caller, cookieFrom, type TestServer } from '../../../../support/server.js';

/**
 * One bill per buyer per collecting account (one shipping charge per checkout), against a local fake Mercado Pago
 * so the account each checkout is made with can be checked: when a company collects in one account
 * (its admin's connected Mercado Pago, or the platform's), all of a buyer's wins from its sellers
 * make one group, one draft and one payment with one shipping charge; only sellers collecting in
 * their own accounts are billed apart. Each company below has its own sellers, so the cases do
 * not see each other's auctions.
 */

/** The fake's own user id for the platform's account. */
const PLATFORM_MP_USER = 999_000_001;
let fake: FakeMercadoPago;
let server: TestServer;
let platformAdmin: Actor;
let buyer: Actor;

beforeAll(async () => {
  ({ fake, server } = await startWithFakeMercadoPago());
  platformAdmin = await buildActor(server, { email: 'admin@martillo.mx', name: 'Ada Admin', roles: ['admin'] });
  buyer = await buildActor(server, { email: 'juana@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const call = caller(() => server);

/** A company with an admin and two sellers. */
async function company(slug: string) {
  const actor = (role: 'admin' | 'seller', who: string) =>
    buildActor(server, { email: `${who}@${slug}.mx`, name: `${who} ${slug}`, roles: [role], companyId: slug });
  return { id: slug, admin: await actor('admin', 'jefa'), ana: await actor('seller', 'ana'), beto: await actor('seller', 'beto') };
}

/** Connects this user's Mercado Pago account through OAuth, as the panel's button does; answers its Mercado Pago user id. */
async function connectMp(actor: Actor, mpUserId: number): Promise<number> {
  const start = await call(actor, 'GET', '/api/mp/connect');
  expect(start.statusCode, start.body).toBe(200);
  const oauthCookie = cookieFrom(start.headers['set-cookie'], 'martillo_mp_oauth') as string;
  fake.setNextSeller({ userId: mpUserId, liveMode: false });
  const consent = await fetch(start.json().url, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') as string);
  const done = await call(null, 'GET', `${back.pathname}${back.search}`, undefined, { cookie: `${actor.cookie}; ${oauthCookie}` });
  expect(done.statusCode, done.body).toBe(200);
  return mpUserId;
}

const wonAuction = async (companyId: string, seller: Actor, price: number): Promise<string> =>
  (await buildWonAuction(server.ctx.db, { price, winnerId: buyer.id, companyId, sellerId: seller.id })).id;

/** The buyer's groups in 'Listos para facturar' as this actor sees them, for this company. */
async function groupsOf(actor: Actor, companyId: string): Promise<WinnerSummary[]> {
  const summary = (await call(actor, 'GET', '/api/winners-summary')).json() as WinnersSummary;
  return Object.values(summary).filter((g) => g.winnerId === buyer.id && g.companyId === companyId);
}

const itemIds = (g: { wonItems: { auctionId: string }[] }) => g.wonItems.map((i) => i.auctionId).sort();

async function draft(actor: Actor, auctionIds: string[]): Promise<PaymentView> {
  const res = await call(actor, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as DraftAnswer).payment;
}

/** Shipping, then the link; answers the payment and the Mercado Pago user whose account made the checkout. */
async function sendLink(actor: Actor, id: string): Promise<{ payment: PaymentView; collector: number | undefined; items: unknown[]; shipments: unknown }> {
  expect((await call(actor, 'POST', `/api/payments/${id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 150 })).statusCode).toBe(200);
  const res = await call(actor, 'POST', `/api/payments/${id}/finalize`);
  expect(res.statusCode, res.body).toBe(200);
  const preference = fake.preferences.find((p) => p.body.external_reference === id);
  return {
    payment: (res.json() as FinalizeAnswer).payment,
    collector: preference?.token === fake.platformToken ? PLATFORM_MP_USER : preference ? fake.sellerFor(preference.token)?.userId : undefined,
    items: preference?.body.items as unknown[],
    shipments: preference?.body.shipments,
  };
}

describe('one bill per buyer per collecting account', () => {
  it("bills two sellers' wins together when the company collects in its admin's account", async () => {
    const c = await company('remates-uno');
    const adminMp = await connectMp(c.admin, 700_001);
    const a = await wonAuction(c.id, c.ana, 500);
    const b = await wonAuction(c.id, c.beto, 300);

    const groups = await groupsOf(c.admin, c.id);
    expect(groups).toHaveLength(1);
    expect(itemIds(groups[0] as WinnerSummary)).toEqual([a, b].sort());
    expect(groups[0]?.totalAmount).toBe(800);
    expect(groups[0]?.sellerId).toBeNull();
    expect(groups[0]?.collectorId).toBe(c.admin.id);

    const p = await draft(c.admin, [a, b]);
    expect(p.auctionIds.sort()).toEqual([a, b].sort());
    expect(p).toMatchObject({ sellerId: null, collectorId: c.admin.id });
    const { payment, collector, items, shipments } = await sendLink(c.admin, p.id);
    // One payment, one shipping charge, both items, collected in the admin's account.
    expect(payment).toMatchObject({ totalAmount: 800, shippingCost: 150, grandTotal: 950, paymentStatus: 'pending', collectedBySeller: true });
    expect(collector).toBe(adminMp);
    expect(items).toHaveLength(2);
    expect(shipments).toEqual({ cost: 150, mode: 'not_specified' });
    expect(await groupsOf(c.admin, c.id)).toEqual([]);
    // Each seller sees the company's bill that holds their auction.
    for (const seller of [c.ana, c.beto]) {
      const list = (await call(seller, 'GET', '/api/payments')).json() as PaymentView[];
      expect(list.map((x) => x.id)).toEqual([p.id]);
    }
  });

  it("bills them together when the platform's account collects for the company", async () => {
    const c = await company('remates-dos');
    const a = await wonAuction(c.id, c.ana, 400);
    const b = await wonAuction(c.id, c.beto, 600);
    const groups = await groupsOf(platformAdmin, c.id);
    expect(groups.map(itemIds)).toEqual([[a, b].sort()]);
    expect(groups[0]?.collectorId).toBeNull();

    // Built in two steps, the way 'Agregar artículos disponibles' does: still one bill.
    const p = await draft(c.admin, [a]);
    expect(p.sellerId).toBe(c.ana.id);
    const added = await call(c.admin, 'POST', `/api/payments/${p.id}/add-auctions`, { auctionIds: [b] });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().payment).toMatchObject({ sellerId: null, totalAmount: 1000 });
    const { payment, collector } = await sendLink(c.admin, p.id);
    expect(payment).toMatchObject({ grandTotal: 1150, collectedBySeller: false });
    expect(collector).toBe(PLATFORM_MP_USER);
  });

  it('bills apart the sellers who collect in their own accounts', async () => {
    const c = await company('remates-tres');
    await connectMp(c.admin, 700_003);
    const anaMp = await connectMp(c.ana, 700_004);
    const betoMp = await connectMp(c.beto, 700_005);
    const a = await wonAuction(c.id, c.ana, 500);
    const b = await wonAuction(c.id, c.beto, 300);

    const groups = await groupsOf(c.admin, c.id);
    expect(groups.map((g) => g.sellerId).sort()).toEqual([c.ana.id, c.beto.id].sort());
    const mixed = await call(c.admin, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [a, b] });
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json().error.message).toBe(messages.payments.mixedSellers);

    const pa = await draft(c.admin, [a]);
    expect((await call(c.admin, 'POST', `/api/payments/${pa.id}/add-auctions`, { auctionIds: [b] })).statusCode).toBe(409);
    const pb = await draft(c.beto, [b]);
    expect((await sendLink(c.admin, pa.id)).collector).toBe(anaMp);
    expect((await sendLink(c.beto, pb.id)).collector).toBe(betoMp);
  });

  it("keeps a seller without an own account in the company's bill while a colleague bills apart", async () => {
    const c = await company('remates-cuatro');
    const adminMp = await connectMp(c.admin, 700_006);
    await connectMp(c.beto, 700_007);
    const a1 = await wonAuction(c.id, c.ana, 100);
    const a2 = await wonAuction(c.id, c.admin, 200); // the admin's own listing: the same account collects it
    const b = await wonAuction(c.id, c.beto, 300);
    const groups = await groupsOf(c.admin, c.id);
    expect(groups.map(itemIds).sort()).toEqual([[a1, a2].sort(), [b]].sort());
    const p = await draft(c.admin, [a1, a2]);
    expect((await sendLink(c.admin, p.id)).collector).toBe(adminMp);
  });
});

describe('who may bill what', () => {
  it("lets each seller bill their own wins into the company's account, and only their own", async () => {
    const c = await company('remates-cinco');
    const adminMp = await connectMp(c.admin, 700_008);
    const a = await wonAuction(c.id, c.ana, 500);
    const b = await wonAuction(c.id, c.beto, 300);

    // A seller's summary shows only their own items (SPEC §6), and they cannot take a colleague's.
    expect((await groupsOf(c.ana, c.id)).map(itemIds)).toEqual([[a]]);
    const taken = await call(c.ana, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [a, b] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe(messages.payments.notBillable);
    // Nothing was written by the refusal.
    expect((await call(c.admin, 'GET', '/api/payments')).json()).toEqual([]);

    // Another company's admin and seller see nothing of it and cannot bill it.
    const other = await company('remates-seis');
    expect(await groupsOf(other.admin, c.id)).toEqual([]);
    expect((await call(other.admin, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [a] })).statusCode).toBe(409);
    expect((await call(other.ana, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [b] })).statusCode).toBe(409);

    // The seller bills their own win; it is collected in the company's account, like the admin's bills.
    const p = await draft(c.ana, [a]);
    expect(p.sellerId).toBe(c.ana.id);
    // The company admin adds the colleague's win to it: one bill, which both sellers still see and work on.
    expect((await call(c.admin, 'POST', `/api/payments/${p.id}/add-auctions`, { auctionIds: [b] })).statusCode).toBe(200);
    expect(((await call(c.beto, 'GET', '/api/payments')).json() as PaymentView[]).map((x) => x.id)).toEqual([p.id]);
    const shipped = await call(c.beto, 'POST', `/api/payments/${p.id}/update-shipping`, { shippingCarrier: 'DHL', shippingCost: 90 });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect((await sendLink(c.ana, p.id)).collector).toBe(adminMp);
    // Another company's seller still gets a 404 for it.
    expect((await call(other.ana, 'POST', `/api/payments/${p.id}/cancel`)).statusCode).toBe(404);
    expect(((await call(other.ana, 'GET', '/api/payments')).json() as PaymentView[]).length).toBe(0);
    // A platform admin sees it too.
    expect(((await call(platformAdmin, 'GET', '/api/payments')).json() as PaymentView[]).some((x) => x.id === p.id)).toBe(true);
    const [row] = await server.ctx.db.select().from(payments).where(eq(payments.id, p.id));
    expect(row).toMatchObject({ sellerId: null, paymentStatus: 'pending', collectedBySeller: true, totalAmount: 800, shippingCost: 150 });
  });
});
