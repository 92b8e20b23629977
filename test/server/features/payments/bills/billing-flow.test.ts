import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftAnswer, FinalizeAnswer, PaymentAnswer, PaymentView, WinnersSummary } from '../../../../../src/domain/payments.js';
import type { PaymentStatusEvent } from '../../../../../src/domain/realtime.js';
import { auctions, auditLog, payments, userProfiles, webhookEvents } from '../../../../../src/server/db/schema.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { buildWonAuction } from '../../../../support/factories.js';
import { caller, cookieFrom, startTestServer, type TestServer } from '../../../../support/server.js';
import { connected, connectSocket } from '../../../../support/sockets.js';

/**
 * Billing winners over HTTP with the sandbox provider: the draft → pending → paid flow, its rules
 * inside transactions, the sandbox checkout and its signed webhooks, and who may do what.
 */

let server: TestServer;
let admin: Actor; // platform admin (no company)
let seller: Actor; // seller of remates-norte
let companyAdmin: Actor; // admin of remates-norte
let otherSeller: Actor; // seller of remates-sur
let buyer: Actor;
let buyer2: Actor;
const NORTE = 'remates-norte';
const SUR = 'remates-sur';

beforeAll(async () => {
  server = await startTestServer();
  admin = await buildActor(server, { email: 'admin@martillo.mx', name: 'Ada Admin', roles: ['admin'] });
  seller = await buildActor(server, { email: 'vende@norte.mx', name: 'Nora Norte', roles: ['seller'], companyId: NORTE });
  companyAdmin = await buildActor(server, { email: 'jefa@norte.mx', name: 'Jefa Norte', roles: ['admin'], companyId: NORTE });
  otherSeller = await buildActor(server, { email: 'vende@sur.mx', name: 'Susana Sur', roles: ['seller'], companyId: SUR });
  buyer = await buildActor(server, { email: 'juana@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true });
  buyer2 = await buildActor(server, { email: 'pedro@ejemplo.mx', name: 'Pedro López', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => server?.close());

/** An auction the scheduler closed with this winner, at this price (or one still open, led by them). */
async function wonAuction(opts: { winner: Actor; price: number; companyId?: string; sellerId?: string | null; name?: string; status?: 'ended' | 'active' }) {
  const row = await buildWonAuction(server.ctx.db, {
    price: opts.price,
    winnerId: opts.winner.id,
    currentWinnerName: opts.winner.id === buyer.id ? 'Juana Pérez' : 'Pedro López',
    companyId: opts.companyId ?? NORTE,
    sellerId: opts.sellerId === undefined ? seller.id : opts.sellerId,
    ...(opts.name ? { name: opts.name } : {}),
    // One still open ends an hour ahead: past its end, the server's closing scheduler would close it.
    ...(opts.status === 'active' ? { status: 'active' as const, endTime: new Date(Date.now() + 3_600_000), closedAt: null } : {}),
  });
  return row.id;
}

const call = caller(() => server);

async function draft(actor: Actor, winner: Actor, auctionIds: string[]): Promise<PaymentView> {
  const res = await call(actor, 'POST', '/api/payments/draft', { winnerId: winner.id, auctionIds });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as DraftAnswer).payment;
}

async function shipAndFinalize(actor: Actor, id: string, shipping = { shippingCarrier: 'Estafeta', shippingCost: 150 }): Promise<FinalizeAnswer> {
  expect((await call(actor, 'POST', `/api/payments/${id}/update-shipping`, shipping)).statusCode).toBe(200);
  const res = await call(actor, 'POST', `/api/payments/${id}/finalize`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const summaryOf = async (actor: Actor): Promise<WinnersSummary> => (await call(actor, 'GET', '/api/winners-summary')).json();
const paymentRow = async (id: string) => (await server.ctx.db.select().from(payments).where(eq(payments.id, id)))[0];

describe('the billing flow', () => {
  it('bills a winner: summary → draft → shipping → link → sandbox payment → paid, live to the panel', async () => {
    const a1 = await wonAuction({ winner: buyer, price: 1200, name: 'Reloj Casio' });
    const a2 = await wonAuction({ winner: buyer, price: 800, name: 'Lámpara' });

    const summary = await summaryOf(seller);
    const mine = Object.values(summary).find((s) => s.winnerId === buyer.id);
    expect(mine?.wonItems.map((i) => i.auctionId).sort()).toEqual([a1, a2].sort());
    expect(mine?.totalAmount).toBeGreaterThanOrEqual(2000);
    expect(mine?.winnerWhatsapp).toBe('+523312345678');

    const socket = connectSocket(server.url, { cookie: seller.cookie });
    try {
      await connected(socket);
      const p = await draft(seller, buyer, [a1, a2]);
      expect(p).toMatchObject({ paymentStatus: 'draft', totalAmount: 2000, shippingCost: 0, grandTotal: 2000, companyId: NORTE, winnerName: 'Juana Pérez' });
      // The billed auctions leave 'Listos para facturar'.
      const after = Object.values(await summaryOf(seller)).flatMap((s) => s.wonItems.map((i) => i.auctionId));
      expect(after).not.toContain(a1);

      // Finalising needs shipping first (SPEC §5).
      const early = await call(seller, 'POST', `/api/payments/${p.id}/finalize`);
      expect(early.statusCode).toBe(400);
      expect(early.json().error.message).toBe('Agrega la información de envío antes de crear el enlace de pago.');

      const finalized = await shipAndFinalize(seller, p.id);
      expect(finalized.paymentLinkUrl).toBe(`${server.url}/pay/${p.id}`);
      expect(finalized.payment).toMatchObject({
        paymentStatus: 'pending',
        shippingCarrier: 'Estafeta',
        shippingCost: 150,
        grandTotal: 2150,
        provider: 'sandbox',
      });

      // The buyer opens the link (no sign-in) and pays.
      const checkout = await call(null, 'GET', `/api/pay/${p.id}`);
      // The sandbox's checkout says it is a test payment (no real money).
      expect(checkout.json()).toMatchObject({ grandTotal: 2150, paymentStatus: 'pending', shippingCarrier: 'Estafeta', shippingCost: 150, isTest: true });
      expect(
        checkout
          .json()
          .wonItems.map((i: { auctionName: string }) => i.auctionName)
          .sort(),
      ).toEqual(['Lámpara', 'Reloj Casio']);
      expect(checkout.body).not.toContain(buyer.email);
      // Earlier changes' events may still be on their way: wait for the one that says paid.
      // No timer of its own: the test's timeout bounds the wait.
      const paidEvent = new Promise<PaymentStatusEvent>((resolve) => {
        const onEvent = (event: PaymentStatusEvent) => {
          if (event.paymentId !== p.id || event.paymentStatus !== 'paid') return;
          socket.off('paymentStatusUpdate', onEvent);
          resolve(event);
        };
        socket.on('paymentStatusUpdate', onEvent);
      });
      const pay = await call(null, 'POST', `/api/pay/${p.id}`, { outcome: 'approve' });
      expect(pay.statusCode, pay.body).toBe(200);
      expect(pay.json().checkout).toMatchObject({ paymentStatus: 'paid', providerStatus: 'approved', isTest: true });
      expect(await paidEvent).toMatchObject({ paymentId: p.id, paymentStatus: 'paid', companyId: NORTE });

      const paid = ((await call(seller, 'GET', '/api/payments?status=paid')).json() as PaymentView[]).find((x) => x.id === p.id);
      expect(paid).toMatchObject({ paymentStatus: 'paid', payoutStatus: 'none', providerStatus: 'approved', flagged: false });
      expect(paid?.paidAt).toBeTruthy();
      expect(paid?.mpPaymentId).toBeTruthy();
      const [row] = await server.ctx.db.select({ isPaid: auctions.isPaid }).from(auctions).where(eq(auctions.id, a1));
      expect(row?.isPaid).toBe(true);

      // A paid payment cannot be cancelled; the payout goes seller → platform admin.
      expect((await call(seller, 'POST', `/api/payments/${p.id}/cancel`)).statusCode).toBe(409);
      const requested = await call(seller, 'POST', `/api/payments/${p.id}/request-payout`);
      expect((requested.json() as PaymentAnswer).payment.payoutStatus).toBe('requested');
      expect((await call(seller, 'POST', `/api/payments/${p.id}/request-payout`)).statusCode).toBe(409);
      expect((await call(seller, 'POST', `/api/payments/${p.id}/mark-paid-out`)).statusCode).toBe(403);
      expect((await call(companyAdmin, 'POST', `/api/payments/${p.id}/mark-paid-out`)).statusCode).toBe(403);
      const paidOut = await call(admin, 'POST', `/api/payments/${p.id}/mark-paid-out`);
      expect((paidOut.json() as PaymentAnswer).payment.payoutStatus).toBe('paid_out');
      expect((await call(admin, 'POST', `/api/payments/${p.id}/mark-paid-out`)).statusCode).toBe(409);
    } finally {
      socket.disconnect();
    }
  });

  it('cancelling a draft or a pending payment returns its items to the summary', async () => {
    const a = await wonAuction({ winner: buyer2, price: 500 });
    const b = await wonAuction({ winner: buyer2, price: 700 });
    const p = await draft(seller, buyer2, [a]);
    const added = await call(seller, 'POST', `/api/payments/${p.id}/add-auctions`, { auctionIds: [b, a] });
    expect((added.json() as PaymentAnswer).payment).toMatchObject({ totalAmount: 1200, auctionIds: [a, b] });
    const canceled = await call(seller, 'POST', `/api/payments/${p.id}/cancel`);
    expect((canceled.json() as PaymentAnswer).payment.paymentStatus).toBe('canceled');
    const items = Object.values(await summaryOf(seller)).flatMap((s) => s.wonItems.map((i) => i.auctionId));
    expect(items).toEqual(expect.arrayContaining([a, b]));

    // And again from pending: the link stops working too.
    const q = await draft(seller, buyer2, [a, b]);
    await shipAndFinalize(seller, q.id, { shippingCarrier: '', shippingCost: 99 });
    expect((await call(seller, 'POST', `/api/payments/${q.id}/cancel`)).statusCode).toBe(200);
    const late = await call(null, 'POST', `/api/pay/${q.id}`, { outcome: 'approve' });
    expect(late.json().checkout.paymentStatus).toBe('canceled');
    expect(Object.values(await summaryOf(seller)).flatMap((s) => s.wonItems.map((i) => i.auctionId))).toEqual(expect.arrayContaining([a, b]));
  });

  it('keeps a rejected card usable and an OXXO voucher pending until it is paid', async () => {
    const a = await wonAuction({ winner: buyer, price: 300 });
    const p = await draft(seller, buyer, [a]);
    await shipAndFinalize(seller, p.id);
    const rejected = await call(null, 'POST', `/api/pay/${p.id}`, { outcome: 'reject' });
    expect(rejected.json().checkout).toMatchObject({ paymentStatus: 'pending', providerStatus: 'rejected' });
    const oxxo = await call(null, 'POST', `/api/pay/${p.id}`, { outcome: 'pending' });
    expect(oxxo.json().checkout).toMatchObject({ paymentStatus: 'pending', providerStatus: 'pending' });
    const approved = await call(null, 'POST', `/api/pay/${p.id}`, { outcome: 'approve' });
    expect(approved.json().checkout).toMatchObject({ paymentStatus: 'paid', providerStatus: 'approved' });
  });
});

describe('server rules', () => {
  it('takes only the winner’s ended auctions of the actor’s company, once', async () => {
    const open = await wonAuction({ winner: buyer, price: 100, status: 'active' });
    const othersWin = await wonAuction({ winner: buyer2, price: 100 });
    const sur = await wonAuction({ winner: buyer, price: 100, companyId: SUR, sellerId: otherSeller.id });
    const fine = await wonAuction({ winner: buyer, price: 100 });
    for (const ids of [[open], [othersWin], [fine, othersWin]]) {
      const res = await call(seller, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: ids });
      expect(res.statusCode, JSON.stringify(ids)).toBe(409);
    }
    // Another company's auction is outside the seller's scope; an admin cannot mix companies either.
    expect((await call(seller, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [sur] })).statusCode).toBe(409);
    const mixed = await call(admin, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [fine, sur] });
    expect(mixed.json().error.message).toBe('Un pago sólo puede incluir subastas de una misma empresa.');
    // Nothing was written by the refusals.
    expect((await call(seller, 'GET', '/api/payments')).json().some((p: PaymentView) => p.auctionIds.includes(fine))).toBe(false);

    await draft(seller, buyer, [fine]);
    const twice = await call(companyAdmin, 'POST', '/api/payments/draft', { winnerId: buyer.id, auctionIds: [fine] });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe('Una de las subastas ya está en otro pago (borrador, en progreso o pagado).');
  });

  it('bills each seller’s auctions apart where sellers collect in their own accounts', async () => {
    const colleague = await buildActor(server, { email: 'colega@norte.mx', name: 'Coco Norte', roles: ['seller'], companyId: NORTE });
    // Each seller collects in their own connected Mercado Pago account, so each is billed apart.
    for (const [i, id] of [seller.id, colleague.id].entries()) {
      await server.ctx.payments.accounts.store(id, { accessToken: `token-${i}`, refreshToken: null, expiresAt: null, userId: `mp-${i}`, liveMode: false });
    }
    const mine = await wonAuction({ winner: buyer2, price: 100 });
    const theirs = await wonAuction({ winner: buyer2, price: 200, sellerId: colleague.id });
    // The summary shows the winner once per seller.
    const groups = Object.values(await summaryOf(companyAdmin)).filter(
      (g) => g.winnerId === buyer2.id && g.wonItems.some((i) => [mine, theirs].includes(i.auctionId)),
    );
    expect(groups.map((g) => g.sellerId).sort()).toEqual([seller.id, colleague.id].sort());
    const mixed = await call(companyAdmin, 'POST', '/api/payments/draft', { winnerId: buyer2.id, auctionIds: [mine, theirs] });
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json().error.message).toBe(messages.payments.mixedSellers);
    const p = await draft(companyAdmin, buyer2, [mine]);
    expect(p.sellerId).toBe(seller.id);
    expect((await call(companyAdmin, 'POST', `/api/payments/${p.id}/add-auctions`, { auctionIds: [theirs] })).statusCode).toBe(409);
    // The seller still sees, and works on, the payment of its own auction that an admin made.
    expect((await call(seller, 'POST', `/api/payments/${p.id}/cancel`)).statusCode).toBe(200);
    await server.ctx.db
      .update(userProfiles)
      .set({ mpAccessToken: null, mpUserId: null })
      .where(inArray(userProfiles.userId, [seller.id, colleague.id]));
  });

  it('validates every field in Spanish and computes the totals itself', async () => {
    const bad = await call(seller, 'POST', '/api/payments/draft', { winnerId: 'nope', auctionIds: [] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['auctionIds', 'winnerId']);
    const a = await wonAuction({ winner: buyer2, price: 450 });
    const p = await draft(seller, buyer2, [a]);
    for (const shippingCost of [-1, 10.5, 'diez', 2_000_000]) {
      const res = await call(seller, 'POST', `/api/payments/${p.id}/update-shipping`, { shippingCarrier: 'DHL', shippingCost });
      expect(res.statusCode, String(shippingCost)).toBe(400);
      expect(res.json().error.fields.shippingCost).toMatch(/envío/);
    }
    // An empty cost is 0 (SPEC §5); a carrier alone is enough shipping to finalise.
    const ok = await call(seller, 'POST', `/api/payments/${p.id}/update-shipping`, { shippingCarrier: 'Recoger en tienda', shippingCost: '' });
    expect((ok.json() as PaymentAnswer).payment).toMatchObject({ shippingCost: 0, grandTotal: 450 });
    // A client cannot set totals: unknown fields are ignored and the server sums the items.
    const forged = await call(seller, 'POST', `/api/payments/${p.id}/update-shipping`, {
      shippingCarrier: 'DHL',
      shippingCost: 50,
      grandTotal: 1,
      totalAmount: 1,
    });
    expect((forged.json() as PaymentAnswer).payment).toMatchObject({ totalAmount: 450, shippingCost: 50, grandTotal: 500 });
  });

  it('makes one checkout from two finalize clicks at once', async () => {
    const a = await wonAuction({ winner: buyer, price: 990 });
    const p = await draft(seller, buyer, [a]);
    await call(seller, 'POST', `/api/payments/${p.id}/update-shipping`, { shippingCarrier: 'Estafeta', shippingCost: 10 });
    const clicks = await Promise.all([1, 2, 3].map(() => call(seller, 'POST', `/api/payments/${p.id}/finalize`)));
    for (const r of clicks) expect(r.statusCode, r.body).toBe(200);
    const links = new Set(clicks.map((r) => (r.json() as FinalizeAnswer).paymentLinkUrl));
    expect(links.size).toBe(1);
    const audits = await server.ctx.db.select().from(auditLog).where(eq(auditLog.entityId, p.id));
    expect(audits.filter((x) => x.action === 'payment.finalize')).toHaveLength(1);
    // The sandbox, like Mercado Pago, answers the same checkout again for the same payment (finalize's retries rely on it).
    const again = await server.ctx.payments.provider.createCheckout({
      paymentId: p.id,
      items: [],
      shippingCarrier: null,
      shippingCost: 0,
      grandTotal: 0,
      payer: { name: 'x', email: null },
      seller: null,
    });
    const stored = await paymentRow(p.id);
    expect(again).toEqual({ url: stored?.paymentLink, preferenceId: stored?.mpPreferenceId, expiresAt: stored?.linkExpiresAt });
  });

  it('lets only one of two drafts racing for the same auction take it', async () => {
    const a = await wonAuction({ winner: buyer2, price: 640 });
    const b = await wonAuction({ winner: buyer2, price: 360 });
    const results = await Promise.all([
      call(seller, 'POST', '/api/payments/draft', { winnerId: buyer2.id, auctionIds: [a, b] }),
      call(companyAdmin, 'POST', '/api/payments/draft', { winnerId: buyer2.id, auctionIds: [b, a] }),
      call(seller, 'POST', '/api/payments/draft', { winnerId: buyer2.id, auctionIds: [b] }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    const holding = (await call(admin, 'GET', '/api/payments?status=draft')).json() as PaymentView[];
    expect(holding.filter((p) => p.auctionIds.includes(b))).toHaveLength(1);
  });
});

describe('webhooks', () => {
  async function pendingPayment(price = 500) {
    const a = await wonAuction({ winner: buyer, price });
    const p = await draft(seller, buyer, [a]);
    await shipAndFinalize(seller, p.id);
    return p.id;
  }
  const deliver = (webhook: { headers: Record<string, string>; query: Record<string, string>; body: unknown }) =>
    server.app.inject({
      method: 'POST',
      url: `/api/webhooks/sandbox?${new URLSearchParams(webhook.query)}`,
      headers: webhook.headers,
      payload: webhook.body as Record<string, unknown>,
    });
  const sandbox = () => server.ctx.payments.sandbox as NonNullable<TestServer['ctx']['payments']['sandbox']>;

  it('refuses a forged signature and a stale one with 401, and changes nothing', async () => {
    const id = await pendingPayment();
    const { providerPaymentId } = await sandbox().takePayment({ paymentId: id, status: 'approved', amount: 650 });
    const genuine = sandbox().webhookFor(providerPaymentId);
    const signature = genuine.headers['x-signature'] as string;
    const v1 = /v1=([0-9a-f]+)/.exec(signature)?.[1] as string;
    const flipped = `${v1.startsWith('0') ? '1' : '0'}${v1.slice(1)}`;
    const forged = { ...genuine, headers: { ...genuine.headers, 'x-signature': signature.replace(v1, flipped) } };
    expect((await deliver(forged)).statusCode).toBe(401);
    const otherPayment = { ...genuine, query: { ...genuine.query, 'data.id': 'otro' } };
    expect((await deliver(otherPayment)).statusCode).toBe(401);
    const ts = Number(/ts=(\d+)/.exec(genuine.headers['x-signature'] as string)?.[1]);
    const stale = {
      ...genuine,
      headers: { ...genuine.headers, 'x-signature': (genuine.headers['x-signature'] as string).replace(String(ts), String(ts - 3_600_000)) },
    };
    expect((await deliver(stale)).statusCode).toBe(401);
    expect((await deliver({ ...genuine, headers: { 'content-type': 'application/json' } })).statusCode).toBe(401);
    expect((await paymentRow(id))?.paymentStatus).toBe('pending');
    // The genuine one still works afterwards.
    expect((await deliver(genuine)).json()).toEqual({ status: 'applied' });
    expect((await paymentRow(id))?.paymentStatus).toBe('paid');
  });

  it('applies a duplicate delivery once and never moves a paid payment back', async () => {
    const id = await pendingPayment();
    const { providerPaymentId } = await sandbox().takePayment({ paymentId: id, status: 'approved', amount: 650 });
    const webhook = sandbox().webhookFor(providerPaymentId);
    expect((await deliver(webhook)).json()).toEqual({ status: 'applied' });
    expect((await deliver(webhook)).json()).toEqual({ status: 'duplicate' });
    // A new delivery about the same change changes nothing either.
    expect((await deliver(sandbox().webhookFor(providerPaymentId))).json()).toEqual({ status: 'unchanged' });
    const events = await server.ctx.db.select().from(webhookEvents).where(eq(webhookEvents.resourceId, providerPaymentId));
    expect(events).toHaveLength(2);

    // Out of order: an older 'pending' arrives after the approval.
    await sandbox().takePayment({ paymentId: id, status: 'pending', amount: 650 });
    await server.ctx.db
      .update(payments)
      .set({ providerUpdatedAt: new Date(Date.now() + 60_000) })
      .where(eq(payments.id, id));
    expect((await deliver(sandbox().webhookFor(providerPaymentId))).json()).toEqual({ status: 'stale' });
    expect(await paymentRow(id)).toMatchObject({ paymentStatus: 'paid', providerStatus: 'approved' });
  });

  it('answers 200 for a payment the provider does not know, and for another topic', async () => {
    const unknown = sandbox().webhookFor('999999999');
    expect((await deliver(unknown)).json()).toEqual({ status: 'unknown' });
    const merchantOrder = sandbox().webhookFor('123');
    expect((await deliver({ ...merchantOrder, body: { type: 'merchant_order', data: { id: '123' } } })).json()).toEqual({ status: 'ignored' });
    expect((await server.app.inject({ method: 'POST', url: '/api/webhooks/mercadopago', payload: {} })).statusCode).toBe(404);
  });

  it('flags an approval for less than the grand total instead of marking it paid', async () => {
    const id = await pendingPayment(1000);
    const { providerPaymentId } = await sandbox().takePayment({ paymentId: id, status: 'approved', amount: 10 });
    await deliver(sandbox().webhookFor(providerPaymentId));
    expect(await paymentRow(id)).toMatchObject({ paymentStatus: 'pending', flagged: true, providerStatus: 'approved' });
  });
});

describe('the payment-provider section in sandbox mode', () => {
  it('connects a seller offline through the sandbox’s own authorisation page', async () => {
    const owner = await buildActor(server, { email: 'conecta@norte.mx', name: 'Cora Norte', roles: ['seller'], companyId: NORTE });
    expect((await call(owner, 'GET', '/api/mp/status')).json()).toEqual({ connected: false, liveMode: null, userId: null, provider: 'sandbox' });
    const start = await call(owner, 'GET', '/api/mp/connect');
    const oauth = cookieFrom(start.headers['set-cookie'], 'martillo_mp_oauth') as string;
    const authorize = new URL(start.json().url);
    expect(authorize.pathname).toBe('/api/mp/sandbox/authorize');
    const pageRes = await call(owner, 'GET', `${authorize.pathname}${authorize.search}`);
    expect(pageRes.body).toContain('Conectar cuenta de prueba');
    const approve = /href="([^"]+code=[^"]+)"/.exec(pageRes.body)?.[1]?.replaceAll('&amp;', '&') as string;
    const back = new URL(approve);
    // A redirect_uri other than our own callback is refused (no open redirect).
    const evil = new URL(authorize);
    evil.searchParams.set('redirect_uri', 'https://evil.example/cb');
    expect((await call(owner, 'GET', `${evil.pathname}${evil.search}`)).statusCode).toBe(400);

    const done = await call(null, 'GET', `${back.pathname}${back.search}`, undefined, { cookie: `${owner.cookie}; ${oauth}` });
    expect(done.statusCode, done.body).toBe(200);
    const status = (await call(owner, 'GET', '/api/mp/status')).json();
    expect(status).toMatchObject({ connected: true, liveMode: false, provider: 'sandbox' });
    expect(status.userId).toMatch(/^SBX\d+$/);
    // Another user cannot finish someone else's connection with the same link.
    const again = await call(owner, 'GET', '/api/mp/connect');
    const otherBack = await call(null, 'GET', `${back.pathname}${back.search}`, undefined, {
      cookie: `${seller.cookie}; ${cookieFrom(again.headers['set-cookie'], 'martillo_mp_oauth')}`,
    });
    expect(otherBack.statusCode).toBe(400);

    // Its checkouts are now collected by the seller: no payout is due from the platform.
    const a = await wonAuction({ winner: buyer, price: 250, sellerId: owner.id });
    const p = await draft(owner, buyer, [a]);
    await shipAndFinalize(owner, p.id);
    expect((await paymentRow(p.id))?.collectedBySeller).toBe(true);
  });
});
