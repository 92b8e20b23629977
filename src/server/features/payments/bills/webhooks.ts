import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { isUuid } from '../../../../domain/ids.js';
import { applyPaymentEvent } from '../../../../domain/payments.js';
import type { AppContext } from '../../../context.js';
import type { Db } from '../../../db/connect.js';
import { payments, webhookEvents } from '../../../db/schema.js';
import { type ProviderPayment, ProviderUnavailableError, type WebhookRequest } from '../../../providers/payments/types.js';
import { view } from './queries.js';
import { changed, type PaymentChange, save } from './service.js';
import { machineState } from './transitions.js';

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
export async function handleWebhook(
  ctx: AppContext,
  req: WebhookRequest & { provider: string; log: FastifyBaseLogger; requestId?: string },
): Promise<WebhookAnswer> {
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
    const { change, outcome } = await applyProviderPayment(db, { provider: provider.kind, record, requestId: req.requestId });
    if (change) await ctx.publisher.publish(change.events);
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

// ── What the provider says ──────────────────────────────────────────────────

/**
 * Applies the provider's record of a payment (fetched after a verified webhook). Idempotent: the
 * same provider payment and status change nothing twice. Safe out of order: an older provider
 * change than the one applied is ignored, and the state machine never moves a paid payment back.
 * An approval for less than the grand total does not pay it: it is flagged for someone to look.
 */
export async function applyProviderPayment(
  db: Db,
  opts: { provider: 'sandbox' | 'mercadopago'; record: ProviderPayment; requestId?: string | undefined },
): Promise<{ change: PaymentChange | null; outcome: 'applied' | 'unchanged' | 'stale' | 'unknown' }> {
  const { record } = opts;
  const paymentId = record.externalReference;
  if (!isUuid(paymentId)) return { change: null, outcome: 'unknown' };
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (!row) return { change: null, outcome: 'unknown' as const };
    const sameRecord = row.mpPaymentId === record.id;
    if (sameRecord && row.providerUpdatedAt && record.updatedAt && record.updatedAt < row.providerUpdatedAt) return { change: null, outcome: 'stale' as const };
    if (sameRecord && row.providerStatus === record.status && (!record.updatedAt || +record.updatedAt === +(row.providerUpdatedAt ?? 0))) {
      return { change: null, outcome: 'unchanged' as const };
    }
    // A paid payment keeps the provider payment that paid it; another attempt's news is only recorded.
    if (row.paymentStatus === 'paid' && row.mpPaymentId && !sameRecord) {
      if (record.status !== 'approved') return { change: null, outcome: 'stale' as const };
    }
    const grand = row.totalAmount + row.shippingCost;
    const short = record.status === 'approved' && record.amount !== null && record.amount < grand;
    const moved = applyPaymentEvent(machineState(row), { type: 'provider', status: short ? 'pending' : record.status });
    if (!moved.ok) return { change: null, outcome: 'unchanged' as const };
    const next = moved.state;
    const becamePaid = row.paymentStatus !== 'paid' && next.paymentStatus === 'paid';
    const before = await view(tx, row);
    const answer = await save(
      tx,
      row,
      {
        paymentStatus: next.paymentStatus,
        providerStatus: short ? 'approved' : next.providerStatus,
        flagged: next.flagged || short,
        webhookAt: new Date(),
        providerUpdatedAt: record.updatedAt ?? new Date(),
        ...(row.paymentStatus !== 'paid' || sameRecord ? { mpPaymentId: record.id } : {}),
        ...(becamePaid ? { paidAt: new Date() } : {}),
      },
      {
        // Nobody signed in acts; the provider's delivery is still a request of its own.
        by: { actor: null, requestId: opts.requestId ?? null },
        action: `payment.provider.${record.status}`,
        before: { paymentStatus: before.paymentStatus, providerStatus: before.providerStatus, flagged: before.flagged },
        after: (a) => ({
          paymentStatus: a.paymentStatus,
          providerStatus: a.providerStatus,
          flagged: a.flagged,
          providerPaymentId: record.id,
          amount: record.amount,
        }),
      },
    );
    return { change: changed(answer, becamePaid ? answer.auctionIds : []), outcome: 'applied' as const };
  });
}
