import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { rulesOf, type ShippingRulesInput, type ShowLinkResult, type ShowShipping, shippingFor } from '../../../../domain/show-billing.js';
import { recordAudit } from '../../../audit.js';
import type { Db, Tx } from '../../../db/connect.js';
import { payments } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import type { PaymentProvider, SellerAccounts } from '../../../providers/payments/types.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { bumpSession, lockEditable, readEditable } from '../../live/index.js';
import { finalize } from '../bills/checkout.js';
import { type Actor, paymentScope } from '../bills/policies.js';
import type { PaymentRow } from '../bills/presenters.js';
import { addAuctions, changed, createDraft, type PaymentChange, saveShipping } from '../bills/service.js';
import { type ShowBillGroup, showPayments, unbilledGroups } from './queries.js';

/**
 * 'Cobrar el show' (one bill per buyer for all their wins in the show, shipping from the show's
 * rules) and 'Generar enlaces' (every draft of the show gets its link, a few at a time, through
 * the existing finalize, which calls the provider outside any transaction and is idempotent by
 * payment id). Only the session's editor (live/sessions/sessions.ts readEditable) bills its show; the
 * payments themselves are read and changed in the actor's payment scope, as everywhere.
 */

const shippingOf = (row: { shippingRules: ShowShipping['rules']; paymentDeadlineHours: number | null }): ShowShipping => ({
  rules: row.shippingRules ?? null,
  paymentDeadlineHours: row.paymentDeadlineHours ?? null,
});

/** GET /api/live-sessions/{id}/shipping. */
export async function readShipping(db: Db, opts: { actor: Actor; id: string }): Promise<ShowShipping> {
  return shippingOf(await readEditable(db, opts.id, opts.actor));
}

/** PUT /api/live-sessions/{id}/shipping: the show's rules (and its own deadline when given), audited. */
export async function setShipping(db: Db, opts: Acting<Actor> & { id: string; input: ShippingRulesInput }): Promise<ShowShipping> {
  return db.transaction(async (tx) => {
    const session = await lockEditable(tx, opts.id, opts.actor);
    const before = shippingOf(session);
    const rules = rulesOf(opts.input);
    const hours = opts.input.paymentDeadlineHours === undefined ? session.paymentDeadlineHours : opts.input.paymentDeadlineHours;
    const row = await bumpSession(tx, session.id, { shippingRules: rules, paymentDeadlineHours: hours });
    const after = shippingOf(row);
    await recordAudit(tx, { by: opts, action: 'live_session.shipping', entityType: 'live_session', entityId: session.id, before, after });
    return after;
  });
}

/**
 * The buyer's draft of this show still open to changes (no checkout under way), which a win
 * billed later joins: one bill per buyer for the show, as long as its link is not made.
 */
async function openShowDraft(tx: Tx, opts: { sessionId: string; group: ShowBillGroup }): Promise<string | null> {
  const [row] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.sessionId, opts.sessionId),
        eq(payments.winnerId, opts.group.winnerId),
        eq(payments.companyId, opts.group.companyId),
        eq(payments.paymentStatus, 'draft'),
        isNull(payments.provider),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(1);
  return row?.id ?? null;
}

/** The group's lots in the buyer's open draft of the show, else in a new one; a draft of another collecting account cannot take them. */
async function draftFor(
  tx: Tx,
  opts: Acting<Actor> & { sessionId: string; group: ShowBillGroup },
): Promise<PaymentChange & { isNew: boolean; before: { shippingCarrier: string | null; shippingCost: number } }> {
  const { group, sessionId, ...acting } = opts;
  const open = await openShowDraft(tx, { sessionId, group });
  if (open) {
    const [row] = await tx
      .select({ shippingCarrier: payments.shippingCarrier, shippingCost: payments.shippingCost })
      .from(payments)
      .where(eq(payments.id, open));
    try {
      // addAuctions runs as a savepoint of this transaction: a refusal leaves nothing behind.
      const change = await addAuctions(tx, { ...acting, id: open, auctionIds: group.auctionIds });
      return { ...change, isNew: false, before: { shippingCarrier: row?.shippingCarrier ?? null, shippingCost: row?.shippingCost ?? 0 } };
    } catch (err) {
      // Another seller's account collects these lots: they make a bill of their own.
      if (!(err instanceof AppError && err.message === messages.payments.mixedSellers)) throw err;
    }
  }
  const created = await createDraft(tx, { ...acting, winnerId: group.winnerId, auctionIds: group.auctionIds, sessionId });
  return { ...created, isNew: true, before: { shippingCarrier: null, shippingCost: 0 } };
}

/** One group's draft with its shipping (for all its lots), in one transaction: no draft is ever left without the show's shipping. */
async function billGroup(db: Db, opts: Acting<Actor> & { sessionId: string; group: ShowBillGroup; rules: NonNullable<ShowShipping['rules']> }) {
  const { rules, ...rest } = opts;
  const { group, sessionId, ...acting } = rest;
  return db.transaction(async (tx) => {
    const draft = await draftFor(tx, { ...acting, sessionId, group });
    // A click racing another found its lots already in the buyer's draft: nothing to do.
    if (draft.events.length === 0) return null;
    const shipping = shippingFor(rules, draft.payment.wonItems);
    const [row] = await tx.select().from(payments).where(eq(payments.id, draft.payment.id)).for('update');
    const answer = await saveShipping(tx, row as PaymentRow, shipping, { by: acting, before: draft.before });
    return { ...changed(answer, draft.auctionIds), isNew: draft.isNew };
  });
}

/**
 * POST /api/live-sessions/{id}/bill: a draft for every buyer with unbilled wins in the show, then
 * every bill of the show. A repeat (or a click racing another) bills nobody twice: billed lots are
 * no longer unbilled, and payment_items' unique index stops a race (that group is skipped).
 */
export async function billShow(db: Db, opts: Acting<Actor> & { id: string }) {
  const session = await readEditable(db, opts.id, opts.actor);
  const { rules } = shippingOf(session);
  if (!rules) throw new AppError('CONFLICT', messages.showBilling.noRules);
  const scope = paymentScope(opts.actor);
  const groups = await unbilledGroups(db, { sessionId: session.id, scope });
  const events: DomainEvent[] = [];
  let created = 0;
  for (const group of groups) {
    try {
      const change = await billGroup(db, { ...opts, sessionId: session.id, group, rules });
      if (!change) continue;
      events.push(...change.events);
      if (change.isNew) created += 1;
    } catch (err) {
      // Another click billed these lots first: they are in the show's bills already.
      if (err instanceof AppError && err.message === messages.payments.alreadyBilled) continue;
      throw err;
    }
  }
  return { payments: await showPayments(db, { sessionId: session.id, scope }), created, events };
}

/** How many checkouts 'Generar enlaces' asks the provider for at once. */
export const LINK_CONCURRENCY = 3;

/**
 * POST /api/live-sessions/{id}/bill/links: finalize each draft of the show, LINK_CONCURRENCY at a
 * time, each on its own (no transaction spans two bills, none spans a provider call). A bill that
 * fails says why in its result; the others go on. A second run, or one after a crash, makes no
 * second checkout: finalize reserves the draft and asks the provider keyed by the payment's id.
 */
export async function makeLinks(
  db: Db,
  opts: Acting<Actor> & {
    id: string;
    provider: PaymentProvider;
    accounts: SellerAccounts;
    log?: FastifyBaseLogger;
    /** Whether the links' reminders may go through WhatsApp's Cloud API. */
    isCloudOn: boolean;
    publish: (events: DomainEvent[]) => Promise<void>;
  },
) {
  const { publish, provider, accounts, log, isCloudOn, id, ...acting } = opts;
  const session = await readEditable(db, id, acting.actor);
  const scope = paymentScope(acting.actor);
  const drafts = await showPayments(db, { sessionId: session.id, scope, status: 'draft' });
  const results: ShowLinkResult[] = [];
  let next = 0;
  async function worker() {
    while (next < drafts.length) {
      const draft = drafts[next++] as (typeof drafts)[number];
      try {
        const change = await finalize(db, { ...acting, id: draft.id, provider, accounts, isCloudOn, ...(log ? { log } : {}) });
        await publish(change.events);
        results.push({ paymentId: draft.id, ok: true, link: change.link, error: null });
      } catch (err) {
        if (!(err instanceof AppError)) log?.error({ err, paymentId: draft.id }, 'show link failed');
        results.push({ paymentId: draft.id, ok: false, link: null, error: err instanceof AppError ? err.message : messages.errors.internal });
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(LINK_CONCURRENCY, drafts.length) }, worker));
  const order = new Map(drafts.map((d, i) => [d.id, i]));
  results.sort((a, b) => (order.get(a.paymentId) ?? 0) - (order.get(b.paymentId) ?? 0));
  return { results, payments: await showPayments(db, { sessionId: session.id, scope }) };
}
