import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { webhookEvents } from '../../db/schema.js';
import { ProviderUnavailableError, type WebhookRequest } from '../../providers/payments/index.js';
import { emitPaymentChange } from './events.js';
import { applyProviderPayment } from './service.js';

export interface WebhookAnswer {
  status: number;
  body: { status: string } | { error: { code: string; message: string } };
}

/**
 * POST /api/webhooks/{provider} (ARCHITECTURE): verify the signature, fetch the payment from the
 * provider, apply it idempotently, answer fast. A forged or stale delivery answers 401 and changes
 * nothing (it is not stored). Each verified delivery is stored once by its event id; a repeat of
 * one already processed answers 200 at once. When the provider cannot be reached the answer is
 * 503, so it delivers again later and the payment converges then.
 */
export async function handleWebhook(ctx: AppContext, req: WebhookRequest & { provider: string; log: FastifyBaseLogger }): Promise<WebhookAnswer> {
  const { provider, accounts } = ctx.payments;
  if (req.provider !== provider.kind) return { status: 404, body: { error: { code: 'NOT_FOUND', message: 'Proveedor de pagos desconocido.' } } };
  const verdict = provider.verifyWebhook(req);
  if (!verdict.ok) {
    req.log.warn({ reason: verdict.reason, provider: provider.kind }, 'webhook refused');
    return { status: 401, body: { error: { code: 'UNAUTHENTICATED', message: `Webhook rechazado (${verdict.reason}).` } } };
  }

  const db = ctx.db;
  const inserted = await db
    .insert(webhookEvents)
    .values({
      provider: provider.kind,
      eventId: verdict.eventId,
      topic: verdict.topic,
      resourceId: verdict.resourceId,
      signatureValid: true,
      payload: { query: req.query, body: req.body ?? null },
    })
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  let eventRowId = inserted[0]?.id;
  if (!eventRowId) {
    const [existing] = await db
      .select({ id: webhookEvents.id, processedAt: webhookEvents.processedAt })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.provider, provider.kind), eq(webhookEvents.eventId, verdict.eventId)));
    if (existing?.processedAt) return { status: 200, body: { status: 'duplicate' } };
    eventRowId = existing?.id;
  }
  const done = (error: string | null) =>
    eventRowId ? db.update(webhookEvents).set({ processedAt: new Date(), error }).where(eq(webhookEvents.id, eventRowId)) : Promise.resolve();

  if (verdict.topic !== 'payment') {
    await done(null);
    return { status: 200, body: { status: 'ignored' } };
  }

  const collector = (req.body as { user_id?: unknown } | null)?.user_id;
  try {
    const seller = await accounts.credentialsForProviderUser(collector === undefined || collector === null ? null : String(collector));
    const record = await provider.fetchPayment(verdict.resourceId, seller);
    if (!record) {
      await done('unknown payment');
      return { status: 200, body: { status: 'unknown' } };
    }
    const { change, outcome } = await applyProviderPayment(db, { provider: provider.kind, record });
    if (change) emitPaymentChange(ctx.realtime, change);
    await done(outcome === 'unknown' ? 'unknown payment' : null);
    return { status: 200, body: { status: outcome } };
  } catch (err) {
    if (eventRowId)
      await db
        .update(webhookEvents)
        .set({ error: String((err as Error).message ?? err).slice(0, 500) })
        .where(eq(webhookEvents.id, eventRowId));
    if (err instanceof ProviderUnavailableError) {
      req.log.warn({ err }, 'payment provider unavailable: the webhook will be retried');
      return { status: 503, body: { error: { code: 'PROVIDER_UNAVAILABLE', message: 'El proveedor de pagos no responde; reintenta más tarde.' } } };
    }
    throw err;
  }
}
