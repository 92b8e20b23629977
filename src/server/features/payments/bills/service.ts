import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { applyPaymentEvent, type PaymentEvent, type PaymentView, type ShippingInput } from '../../../../domain/payments.js';
import { type AuditAction, type AuditOrigin, type AuditPayloads, recordAudit } from '../../../audit.js';
import type { Db, Tx } from '../../../db/connect.js';
import { pgError, UNIQUE_VIOLATION } from '../../../db/errors.js';
import { auctions, HOLDING_PAYMENT_STATUSES, paymentItems, payments } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { companyNames } from '../../../reads/companies.js';
import { realSale } from '../../../reads/real-sale.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { winnerNotBlockedByCompany } from '../../companies/index.js';
import { collectorsOf, saleKey } from './collectors.js';
import { paymentChanged } from './events.js';
import { type Actor, assertPlatformAdmin, isInScope, type PaymentScope, paymentScope } from './policies.js';
import type { PaymentRow } from './presenters.js';
import { awaitingDecisionSql, isPaymentInScope, view } from './queries.js';
import { assertEditable, assertPayoutDue, conflict, machineState, refused } from './transitions.js';

/**
 * Billing winners (SPEC §2–§7). Every change runs in one transaction that locks the payment row
 * (and the auctions it takes), checks the rules of src/domain/payments.ts, and writes the audit
 * log; the caller broadcasts `paymentStatusUpdate` after the commit. An auction is in at most one
 * draft, pending or paid payment: payment_items' partial unique index holds that even against two
 * requests racing. Totals are computed here, never taken from the client. Finalising, which calls
 * the provider (finalize, and cancel expiring the link), is in checkout.ts.
 */

/** A payment change, for the caller to answer and broadcast after the commit. */
export interface PaymentChange {
  payment: PaymentView;
  /** Auctions whose billing changed (taken, released or paid). */
  auctionIds: string[];
  /** For the publisher, after the commit: none when nothing changed. */
  events: DomainEvent[];
}

/** A committed change to a payment, with its event. */
export function changed(payment: PaymentView, auctionIds: string[]): PaymentChange {
  return { payment, auctionIds, events: [paymentChanged({ payment, auctionIds })] };
}

/** An answer that changed nothing (a repeat), so nobody needs to hear of it. */
export function unchanged(payment: PaymentView): PaymentChange {
  return { payment, auctionIds: [], events: [] };
}

/** The audit log's actions about a bill. */
type BillAction = { [K in AuditAction]: AuditPayloads[K]['entity'] extends 'payment' ? K : never }[AuditAction];
/** What save records: an action about a bill, with its own before and after (by default the bill as saved). */
type SavedAudit = {
  [K in BillAction]: { by: AuditOrigin; action: K; before: AuditPayloads[K]['before']; after?: (answer: PaymentView) => AuditPayloads[K]['after'] };
}[BillAction];

/** Writes a change to a locked payment, records it in the audit log and answers the payment as it now stands. */
export async function save(tx: Tx, row: PaymentRow, set: Partial<typeof payments.$inferInsert>, audit: SavedAudit): Promise<PaymentView> {
  const [updated] = await tx
    .update(payments)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(payments.id, row.id))
    .returning();
  const answer = await view(tx, updated as PaymentRow);
  await recordAudit(tx, {
    by: audit.by,
    action: audit.action,
    entityType: 'payment',
    entityId: row.id,
    before: audit.before,
    after: audit.after ? audit.after(answer) : answer,
  });
  return answer;
}

const notFound = () => new AppError('NOT_FOUND', messages.errors.notFound);

// ── Changes ──────────────────────────────────────────────────────────────────

export async function lockPayment(tx: Tx, id: string, scope: PaymentScope): Promise<PaymentRow> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
  if (!row || !(await isPaymentInScope(tx, scope, row))) throw notFound();
  return row;
}

/**
 * Locks the auctions a payment takes and checks each: in the actor's scope, ended, won by this
 * winner, of the payment's company and collecting account, and in no other draft, pending or paid
 * payment.
 * Locked in id order, so two drafts taking overlapping auctions wait for each other instead of
 * deadlocking.
 */
async function lockBillable(
  tx: Tx,
  opts: {
    auctionIds: string[];
    winnerId: string;
    scope: PaymentScope;
    payment: { companyId: string; sellerId: string | null } | null;
    /** The expired bill whose lot the seller is deciding now (Segunda oportunidad). */
    deciding?: string | undefined;
  },
) {
  const ids = [...opts.auctionIds].sort();
  const rows = await tx
    .select({
      id: auctions.id,
      name: auctions.name,
      amount: auctions.currentPrice,
      status: auctions.status,
      winnerId: auctions.currentWinnerId,
      companyId: auctions.companyId,
      sellerId: auctions.sellerId,
    })
    .from(auctions)
    .where(inArray(auctions.id, ids))
    .orderBy(asc(auctions.id))
    .for('update');
  if (rows.length !== ids.length) throw conflict(messages.payments.notBillable);
  // A rehearsal's lots, and what a simulated bidder won, are never billed (live/sessions/rehearsal-snapshot.ts).
  const [rehearsed] = await tx
    .select({ id: auctions.id })
    .from(auctions)
    .where(and(inArray(auctions.id, ids), sql`not ${realSale({ auctionId: auctions.id, winnerId: auctions.currentWinnerId })}`))
    .limit(1);
  if (rehearsed) throw conflict(messages.payments.rehearsal);
  // Nor is what a buyer the company blocked had won (companies/blocked-winners.ts).
  const [blockedWin] = await tx
    .select({ id: auctions.id })
    .from(auctions)
    .where(and(inArray(auctions.id, ids), sql`not ${winnerNotBlockedByCompany(auctions)}`))
    .limit(1);
  if (blockedWin) throw conflict(messages.payments.winnerBlocked);
  // A lot waiting in 'Cuentas vencidas' is billed to nobody until the seller chooses what to do with it.
  const [awaiting] = await tx
    .select({ id: auctions.id })
    .from(auctions)
    .where(and(inArray(auctions.id, ids), awaitingDecisionSql(sql`${auctions.id}`, { except: opts.deciding })))
    .limit(1);
  if (awaiting) throw conflict(messages.payments.awaitingDecision);
  for (const r of rows) {
    if (!isInScope(opts.scope, r) || r.status !== 'ended' || r.winnerId !== opts.winnerId) throw conflict(messages.payments.notBillable);
  }
  // One company and one collecting account per payment (collectors.ts): sellers of a company that
  // collects for them share one bill; a seller collecting in their own account bills apart.
  const first = opts.payment ?? (rows[0] as (typeof rows)[number]);
  if (rows.some((r) => r.companyId !== first.companyId)) throw conflict(messages.payments.mixedCompanies);
  const collectors = await collectorsOf(tx, [first, ...rows]);
  const collector = collectors.get(saleKey(first));
  if (rows.some((r) => collectors.get(saleKey(r)) !== collector)) throw conflict(messages.payments.mixedSellers);
  const held = await tx
    .select({ auctionId: paymentItems.auctionId })
    .from(paymentItems)
    .where(and(inArray(paymentItems.auctionId, ids), inArray(paymentItems.paymentStatus, [...HOLDING_PAYMENT_STATUSES])))
    .limit(1);
  if (held.length) throw conflict(messages.payments.alreadyBilled);
  return rows;
}

/** The unique index saw another payment take one of the auctions first (two requests raced). */
async function billing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (pgError(err)?.code === UNIQUE_VIOLATION && pgError(err)?.constraint === 'payment_items_one_holding_payment')
      throw conflict(messages.payments.alreadyBilled);
    throw err;
  }
}

/** POST /api/payments/draft: the winner's chosen auctions become one draft payment. */
export async function createDraft(
  db: Db | Tx,
  opts: Acting<Actor> & {
    winnerId: string;
    auctionIds: string[];
    /** The show it bills ('Cobrar el show'). */
    sessionId?: string | null;
    /** A Segunda oportunidad: the expired bill whose lot it bills to the runner-up. */
    deciding?: string;
  },
): Promise<PaymentChange> {
  const scope = paymentScope(opts.actor);
  return billing(() =>
    db.transaction(async (tx) => {
      const taken = await lockBillable(tx, { auctionIds: opts.auctionIds, winnerId: opts.winnerId, scope, payment: null, deciding: opts.deciding });
      const first = taken[0] as (typeof taken)[number];
      const [winner] = await tx.select({ name: auctions.currentWinnerName, whatsapp: auctions.winnerWhatsapp }).from(auctions).where(eq(auctions.id, first.id));
      // The name when billed, kept as history: every view reads the company's current name.
      const companyName = (await companyNames(tx, [first.companyId])).get(first.companyId) ?? null;
      const [row] = await tx
        .insert(payments)
        .values({
          winnerId: opts.winnerId,
          winnerName: winner?.name ?? '',
          winnerWhatsapp: winner?.whatsapp ?? null,
          sellerId: taken.every((t) => t.sellerId === first.sellerId) ? first.sellerId : null,
          companyId: first.companyId,
          companyName,
          totalAmount: taken.reduce((sum, t) => sum + (t.amount ?? 0), 0),
          paymentStatus: 'draft',
          createdBy: opts.actor.id,
          sessionId: opts.sessionId ?? null,
        })
        .returning();
      const payment = row as PaymentRow;
      await tx
        .insert(paymentItems)
        .values(taken.map((t) => ({ paymentId: payment.id, paymentStatus: 'draft' as const, auctionId: t.id, auctionName: t.name, amount: t.amount ?? 0 })));
      const answer = await view(tx, payment);
      await recordAudit(tx, {
        by: opts,
        action: 'payment.draft',
        entityType: 'payment',
        entityId: payment.id,
        after: answer,
      });
      return changed(answer, answer.auctionIds);
    }),
  );
}

/** POST /api/payments/{id}/add-auctions: more of the same winner's unbilled auctions, while a draft. */
export async function addAuctions(db: Db | Tx, opts: Acting<Actor> & { id: string; auctionIds: string[] }): Promise<PaymentChange> {
  const scope = paymentScope(opts.actor);
  return billing(() =>
    db.transaction(async (tx) => {
      const row = await lockPayment(tx, opts.id, scope);
      assertEditable(row);
      const before = await view(tx, row);
      const fresh = opts.auctionIds.filter((id) => !before.auctionIds.includes(id));
      if (fresh.length === 0) return unchanged(before);
      const taken = await lockBillable(tx, { auctionIds: fresh, winnerId: row.winnerId, scope, payment: row });
      await tx
        .insert(paymentItems)
        .values(taken.map((t) => ({ paymentId: row.id, paymentStatus: 'draft' as const, auctionId: t.id, auctionName: t.name, amount: t.amount ?? 0 })));
      const answer = await save(
        tx,
        row,
        {
          totalAmount: row.totalAmount + taken.reduce((sum, t) => sum + (t.amount ?? 0), 0),
          // Another seller's items in the company's bill: it no longer has one seller.
          ...(taken.some((t) => t.sellerId !== row.sellerId) ? { sellerId: null } : {}),
        },
        { by: opts, action: 'payment.add_auctions', before },
      );
      return changed(
        answer,
        taken.map((t) => t.id),
      );
    }),
  );
}

/**
 * A locked draft's shipping, whoever chose it (the seller by hand, a show's rules), audited as
 * 'payment.shipping' from `before` (the row's own shipping unless the caller knew it earlier).
 */
export async function saveShipping(tx: Tx, row: PaymentRow, shipping: ShippingInput, audit: { by: AuditOrigin; before?: ShippingInput }): Promise<PaymentView> {
  return save(
    tx,
    row,
    { shippingCarrier: shipping.shippingCarrier, shippingCost: shipping.shippingCost },
    {
      by: audit.by,
      action: 'payment.shipping',
      before: audit.before ?? { shippingCarrier: row.shippingCarrier, shippingCost: row.shippingCost },
      after: (a) => ({ shippingCarrier: a.shippingCarrier, shippingCost: a.shippingCost }),
    },
  );
}

/** POST /api/payments/{id}/update-shipping: carrier and cost, while a draft (a link's amount is fixed). */
export async function updateShipping(db: Db, opts: Acting<Actor> & { id: string; input: ShippingInput }): Promise<PaymentChange> {
  return db.transaction(async (tx) => {
    const row = await lockPayment(tx, opts.id, paymentScope(opts.actor));
    assertEditable(row);
    if (row.shippingCarrier === opts.input.shippingCarrier && row.shippingCost === opts.input.shippingCost) return unchanged(await view(tx, row));
    return changed(await saveShipping(tx, row, opts.input, { by: opts }), []);
  });
}

/** Cancel, request payout, mark paid out: one event of the state machine on a locked payment. */
async function transition(
  db: Db,
  opts: Acting<Actor> & {
    id: string;
    event: PaymentEvent;
    action: 'payment.cancel' | 'payment.request_payout' | 'payment.mark_paid_out';
    check?: (row: PaymentRow) => void;
  },
): Promise<PaymentChange> {
  return db.transaction(async (tx) => {
    const row = await lockPayment(tx, opts.id, paymentScope(opts.actor));
    opts.check?.(row);
    const moved = applyPaymentEvent(machineState(row), opts.event);
    if (!moved.ok) throw refused(moved.reason);
    const before = await view(tx, row);
    const now = new Date();
    const next = moved.state;
    const answer = await save(
      tx,
      row,
      {
        paymentStatus: next.paymentStatus,
        payoutStatus: next.payoutStatus,
        ...(next.paymentStatus === 'canceled' && row.paymentStatus !== 'canceled' ? { canceledAt: now } : {}),
        ...(next.payoutStatus === 'requested' && row.payoutStatus !== 'requested' ? { payoutRequestedAt: now } : {}),
        ...(next.payoutStatus === 'paid_out' && row.payoutStatus !== 'paid_out' ? { paidOutAt: now } : {}),
      },
      { by: opts, action: opts.action, before },
    );
    return changed(answer, row.paymentStatus !== next.paymentStatus ? answer.auctionIds : []);
  });
}

/** POST /api/payments/{id}/cancel: a draft or pending payment ends and its auctions are billable again. */
export function cancelPayment(db: Db, opts: Acting<Actor> & { id: string }): Promise<PaymentChange> {
  return transition(db, { ...opts, event: { type: 'cancel' }, action: 'payment.cancel' });
}

/** POST /api/payments/{id}/request-payout: the seller asks the platform for a paid payment's money. */
export function requestPayout(db: Db, opts: Acting<Actor> & { id: string }): Promise<PaymentChange> {
  return transition(db, {
    ...opts,
    event: { type: 'requestPayout' },
    action: 'payment.request_payout',
    check: assertPayoutDue,
  });
}

/** POST /api/payments/{id}/mark-paid-out: a platform admin records that the seller was paid, once the seller asked. */
export function markPaidOut(db: Db, opts: Acting<Actor> & { id: string }): Promise<PaymentChange> {
  assertPlatformAdmin(opts.actor);
  return transition(db, {
    ...opts,
    event: { type: 'markPaidOut' },
    action: 'payment.mark_paid_out',
    check: assertPayoutDue,
  });
}
