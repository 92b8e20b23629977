import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAYMENT_STATUSES } from '../../../../domain/payment-status.js';
import {
  type DraftAnswer,
  type FinalizeAnswer,
  PAYOUT_STATUSES,
  type PaymentAnswer,
  type PaymentView,
  type ProviderStatus,
  type SandboxOutcome,
  ZAddAuctionsInput,
  ZDraftInput,
  ZSandboxPayInput,
  ZShippingInput,
} from '../../../../domain/payments.js';
import { zText } from '../../../../domain/text.js';
import type { AppContext } from '../../../context.js';
import { currentUser, requireRole } from '../../../http/auth-hooks.js';
import { AppError } from '../../../http/errors.js';
import { requestContext } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { cancel, finalize } from './checkout.js';
import { paymentScope } from './policies.js';
import { presentCheckout } from './presenters.js';
import { getCheckout, listPayments, winnersSummary } from './queries.js';
import { addAuctions, createDraft, markPaidOut, type PaymentChange, requestPayout, updateShipping } from './service.js';
import { handleWebhook } from './webhooks.js';

const ZParams = z.object({ id: z.uuid({ error: 'invalid' }) });
/**
 * A payment link as the buyer opened it: any text, so a link cut short or mangled on its way (a
 * WhatsApp message, a copy by hand) answers that no such payment exists (404), not a bad request.
 */
const ZPayParams = z.object({ id: z.string().max(200) });
const ZListQuery = z.object({
  status: z.enum(PAYMENT_STATUSES).optional(),
  payoutStatus: z.enum(PAYOUT_STATUSES).optional(),
  q: zText().max(100).optional(),
});
/** GET /api/winners-summary?sessionId=: only that show's lots. */
const ZWinnersQuery = z.object({ sessionId: z.uuid({ error: 'invalid' }).optional() });
const panel = requireRole('admin', 'seller');
/** Per user: generous for a seller billing a long list, tight enough to stop a runaway script. */
const writeLimit = { max: 120, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => req.user?.id ?? req.ip };
/** The public checkout and the webhooks, per address. */
const publicLimit = { max: 60, timeWindow: '1 minute' };

const SANDBOX_STATUS: Record<SandboxOutcome, ProviderStatus> = { approve: 'approved', reject: 'rejected', pending: 'pending' };

/** SPEC §7's payments endpoints, the sandbox's public checkout and the providers' webhooks. */
export async function paymentsRoutes(fastify: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, publisher } = ctx;
  const { provider, accounts, sandbox } = ctx.payments;
  const isCloudOn = ctx.whatsapp !== null;
  if (ctx.config.payments.isPublicDemo)
    fastify.log.warn(
      'PAYMENTS_SANDBOX_PUBLIC_DEMO=true: production runs the payments sandbox; every checkout is a test, and anyone with a link can mark it paid',
    );
  /** While the sandbox runs (development, or a declared public demo), every checkout says it is a test. */
  const checkoutOf = (payment: PaymentView) => presentCheckout(payment, { isSandboxActive: sandbox !== null });
  const changed = async (change: PaymentChange): Promise<PaymentAnswer> => {
    await publisher.publish(change.events);
    return { payment: change.payment };
  };

  app.get('/api/winners-summary', { preValidation: panel, schema: { querystring: ZWinnersQuery } }, async (req) =>
    winnersSummary(db, { scope: paymentScope(currentUser(req)), ...(req.query.sessionId ? { sessionId: req.query.sessionId.toLowerCase() } : {}) }),
  );

  app.get('/api/payments', { preValidation: panel, schema: { querystring: ZListQuery } }, async (req) =>
    listPayments(db, { scope: paymentScope(currentUser(req)), status: req.query.status, payoutStatus: req.query.payoutStatus, q: req.query.q }),
  );

  app.post('/api/payments/draft', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { body: ZDraftInput } }, async (req, reply) => {
    const change = await createDraft(db, { ...requestContext(req), winnerId: req.body.winnerId, auctionIds: req.body.auctionIds });
    await publisher.publish(change.events);
    return reply.code(201).send({ paymentId: change.payment.id, payment: change.payment } satisfies DraftAnswer);
  });

  app.post(
    '/api/payments/:id/update-shipping',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZShippingInput } },
    async (req) => changed(await updateShipping(db, { ...requestContext(req), id: req.params.id, input: req.body })),
  );

  app.post(
    '/api/payments/:id/add-auctions',
    { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams, body: ZAddAuctionsInput } },
    async (req) => changed(await addAuctions(db, { ...requestContext(req), id: req.params.id, auctionIds: req.body.auctionIds })),
  );

  app.post('/api/payments/:id/finalize', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) => {
    const change = await finalize(db, { ...requestContext(req), id: req.params.id, provider, accounts, log: req.log, isCloudOn });
    await publisher.publish(change.events);
    return { paymentLinkUrl: change.link, payment: change.payment } satisfies FinalizeAnswer;
  });

  app.post('/api/payments/:id/cancel', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) => {
    const change = await cancel(db, { ...requestContext(req), id: req.params.id, provider, accounts, log: req.log });
    return changed(change);
  });

  app.post('/api/payments/:id/request-payout', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) =>
    changed(await requestPayout(db, { ...requestContext(req), id: req.params.id })),
  );

  app.post('/api/payments/:id/mark-paid-out', { config: { rateLimit: writeLimit }, preValidation: panel, schema: { params: ZParams } }, async (req) =>
    changed(await markPaidOut(db, { ...requestContext(req), id: req.params.id })),
  );

  // ── The sandbox's checkout page (public: the payment id is its unguessable secret) ──

  app.get('/api/pay/:id', { config: { rateLimit: publicLimit }, schema: { params: ZPayParams } }, async (req) => {
    const payment = await getCheckout(db, req.params.id);
    // A draft has no link yet: nothing to pay.
    if (!payment || payment.paymentStatus === 'draft') throw new AppError('NOT_FOUND', messages.payments.checkoutNotFound);
    return checkoutOf(payment);
  });

  app.post('/api/pay/:id', { config: { rateLimit: publicLimit }, schema: { params: ZPayParams, body: ZSandboxPayInput } }, async (req) => {
    if (!sandbox) throw new AppError('NOT_FOUND', messages.payments.sandboxOnly);
    const payment = await getCheckout(db, req.params.id);
    if (!payment || payment.paymentStatus === 'draft') throw new AppError('NOT_FOUND', messages.payments.checkoutNotFound);
    if (payment.paymentStatus !== 'pending') return { checkout: checkoutOf(payment) };
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
    return { checkout: checkoutOf(after ?? payment) };
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
        requestId: String(req.id),
      });
      return reply.code(answer.status).send(answer.body);
    },
  );
}
