import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type CheckoutView,
  type DraftAnswer,
  type FinalizeAnswer,
  PAYMENT_STATUSES,
  type PaymentAnswer,
  type PaymentView,
  type ProviderStatus,
  type SandboxOutcome,
  ZAddAuctionsInput,
  ZDraftInput,
  ZSandboxPayInput,
  ZShippingInput,
} from '../../../domain/payments.js';
import { zText } from '../../../domain/text.js';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema.js';
import { currentUser, requireRole } from '../../http/auth-hooks.js';
import { AppError } from '../../http/errors.js';
import { messages } from '../../messages.js';
import { ProviderUnavailableError } from '../../providers/payments/index.js';
import { emitPaymentChange } from './events.js';
import {
  addAuctions,
  cancelPayment,
  createDraft,
  finalize,
  getCheckout,
  listPayments,
  markPaidOut,
  type PaymentChange,
  paymentScope,
  requestPayout,
  updateShipping,
  winnersSummary,
} from './service.js';
import { handleWebhook } from './webhooks.js';

const ZParams = z.object({ id: z.uuid({ error: 'invalid' }) });
const ZListQuery = z.object({ status: z.enum(PAYMENT_STATUSES).optional(), q: zText().max(100).optional() });
const panel = requireRole('admin', 'seller');
/** Per user: generous for a seller billing a long list, tight enough to stop a runaway script. */
const writeLimit = { max: 120, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };
/** The public checkout and the webhooks, per address. */
const publicLimit = { max: 60, timeWindow: '1 minute' };

const SANDBOX_STATUS: Record<SandboxOutcome, ProviderStatus> = { approve: 'approved', reject: 'rejected', pending: 'pending' };

function checkoutView(p: PaymentView): CheckoutView {
  return {
    paymentId: p.id,
    companyName: p.companyName,
    winnerName: p.winnerName,
    wonItems: p.wonItems,
    totalAmount: p.totalAmount,
    shippingCarrier: p.shippingCarrier,
    shippingCost: p.shippingCost,
    grandTotal: p.grandTotal,
    paymentStatus: p.paymentStatus,
    providerStatus: p.providerStatus,
    linkExpiresAt: p.linkExpiresAt,
    provider: p.provider,
  };
}

/** SPEC §7's payments endpoints, the sandbox's public checkout and the providers' webhooks. */
export async function paymentsRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, realtime } = ctx;
  const { provider, accounts, sandbox } = ctx.payments;
  const changed = (change: PaymentChange): PaymentAnswer => {
    emitPaymentChange(realtime, change);
    return { payment: change.payment };
  };

  app.get('/api/winners-summary', { preValidation: panel }, async (req) => winnersSummary(db, { scope: paymentScope(currentUser(req)) }));

  app.get('/api/payments', { preValidation: panel, schema: { querystring: ZListQuery } }, async (req) =>
    listPayments(db, { scope: paymentScope(currentUser(req)), status: req.query.status, q: req.query.q }),
  );

  app.post('/api/payments/draft', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { body: ZDraftInput } }, async (req, reply) => {
    const change = await createDraft(db, { actor: currentUser(req), winnerId: req.body.winnerId, auctionIds: req.body.auctionIds, ip: req.ip });
    emitPaymentChange(realtime, change);
    return reply.code(201).send({ paymentId: change.payment.id, payment: change.payment } satisfies DraftAnswer);
  });

  app.post(
    '/api/payments/:id/update-shipping',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZShippingInput } },
    async (req) => changed(await updateShipping(db, { actor: currentUser(req), id: req.params.id, input: req.body, ip: req.ip })),
  );

  app.post(
    '/api/payments/:id/add-auctions',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZAddAuctionsInput } },
    async (req) => changed(await addAuctions(db, { actor: currentUser(req), id: req.params.id, auctionIds: req.body.auctionIds, ip: req.ip })),
  );

  app.post('/api/payments/:id/finalize', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) => {
    const actor = currentUser(req);
    const change = await finalize(db, {
      actor,
      id: req.params.id,
      ip: req.ip,
      prepare: async ({ winnerId, sellerId }) => ({
        email: (await db.select({ email: users.email }).from(users).where(eq(users.id, winnerId)))[0]?.email ?? null,
        // A connected seller's checkout is created with their account; otherwise the platform's, and the payout flow applies.
        seller: await accounts.credentialsFor(sellerId),
      }),
      checkout: async ({ payerName, ...input }, { email, seller }) => {
        try {
          const checkout = await provider.createCheckout({ ...input, payer: { name: payerName, email }, seller });
          return { ...checkout, provider: provider.kind, collectedBySeller: seller !== null };
        } catch (err) {
          req.log.error({ err, paymentId: input.paymentId }, 'checkout failed');
          throw new AppError(err instanceof ProviderUnavailableError ? 'PROVIDER_UNAVAILABLE' : 'CONFLICT', messages.payments.checkoutFailed);
        }
      },
    });
    emitPaymentChange(realtime, change);
    return { paymentLinkUrl: change.link, payment: change.payment } satisfies FinalizeAnswer;
  });

  app.post('/api/payments/:id/cancel', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) => {
    const change = await cancelPayment(db, { actor: currentUser(req), id: req.params.id, ip: req.ip });
    // The link stops taking payments at the provider too (best effort: a payment that still
    // arrives for a canceled payment is recorded and flagged).
    const { payment } = change;
    if (payment.mpPreferenceId && payment.provider === provider.kind) {
      try {
        const seller = payment.collectedBySeller ? await accounts.credentialsFor(payment.sellerId) : null;
        await provider.expireCheckout(payment.mpPreferenceId, seller);
      } catch (err) {
        req.log.warn({ err, paymentId: payment.id }, 'could not expire the checkout of a canceled payment');
      }
    }
    return changed(change);
  });

  app.post('/api/payments/:id/request-payout', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) =>
    changed(await requestPayout(db, { actor: currentUser(req), id: req.params.id, ip: req.ip })),
  );

  app.post('/api/payments/:id/mark-paid-out', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) =>
    changed(await markPaidOut(db, { actor: currentUser(req), id: req.params.id, ip: req.ip })),
  );

  // ── The sandbox's checkout page (public: the payment id is its unguessable secret) ──

  app.get('/api/pay/:id', { config: { rateLimit: publicLimit }, schema: { params: ZParams } }, async (req) => {
    const payment = await getCheckout(db, req.params.id);
    // A draft has no link yet: nothing to pay.
    if (!payment || payment.paymentStatus === 'draft') throw new AppError('NOT_FOUND', messages.errors.notFound);
    return checkoutView(payment);
  });

  app.post('/api/pay/:id', { config: { rateLimit: publicLimit }, schema: { params: ZParams, body: ZSandboxPayInput } }, async (req) => {
    if (!sandbox) throw new AppError('NOT_FOUND', messages.payments.sandboxOnly);
    const payment = await getCheckout(db, req.params.id);
    if (!payment || payment.paymentStatus === 'draft') throw new AppError('NOT_FOUND', messages.errors.notFound);
    if (payment.paymentStatus !== 'pending') return { checkout: checkoutView(payment) };
    if (payment.linkExpiresAt && Date.parse(payment.linkExpiresAt) < Date.now()) throw new AppError('CONFLICT', messages.payments.linkExpired);
    const { providerPaymentId } = await sandbox.takePayment({ paymentId: payment.id, status: SANDBOX_STATUS[req.body.outcome], amount: payment.grandTotal });
    // The provider announces it the way Mercado Pago does: a signed webhook, through the same route.
    const webhook = sandbox.webhookFor(providerPaymentId);
    const query = new URLSearchParams(webhook.query).toString();
    const delivered = await fastify.inject({
      method: 'POST',
      url: `/api/webhooks/sandbox?${query}`,
      headers: webhook.headers,
      payload: webhook.body as Record<string, unknown>,
    });
    if (delivered.statusCode >= 500) req.log.warn({ status: delivered.statusCode, body: delivered.body }, 'sandbox webhook not processed');
    const after = await getCheckout(db, payment.id);
    return { checkout: checkoutView(after ?? payment) };
  });

  // ── Webhooks ──

  app.post(
    '/api/webhooks/:provider',
    { config: { rateLimit: { max: 600, timeWindow: '1 minute' } }, schema: { params: z.object({ provider: z.string().max(40) }) } },
    async (req, reply) => {
      const answer = await handleWebhook(ctx, {
        provider: req.params.provider,
        headers: req.headers,
        query: req.query as Record<string, string | undefined>,
        body: req.body,
        log: req.log,
      });
      return reply.code(answer.status).send(answer.body);
    },
  );
}
