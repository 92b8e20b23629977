import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { applyPaymentEvent, type PaymentView } from '../../../../domain/payments.js';
import { reachesStrikeLimit } from '../../../../domain/unpaid.js';
import { recordAudit } from '../../../audit.js';
import { type Db, rows, type Tx } from '../../../db/connect.js';
import { buyerStrikes, companies, companyBlocks, expiredLots, paymentItems, payments, secondChanceOffers } from '../../../db/schema.js';
import { type PassLoop, startPassLoop } from '../../../pass-loop.js';
import type { PaymentProvider, SellerAccounts } from '../../../providers/payments/types.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { withdrawBidder } from '../../bids/index.js';
import { collectorOf } from '../bills/collectors.js';
import { paymentChanged } from '../bills/events.js';
import type { PaymentRow } from '../bills/presenters.js';
import { view } from '../bills/queries.js';
import { save } from '../bills/service.js';
import { machineState } from '../bills/transitions.js';
import { billExpiresAtSql, clearOfferWinner, standingChanged } from './queries.js';

/**
 * The payment deadline (SPEC's "When a buyer does not pay"): a pending bill whose deadline_at has
 * passed is canceled by the system with expired_at set (its items are free again: payment_items
 * follow their payment's status), each of its lots waits for the seller's choice (expired_lots),
 * and the buyer gets one strike with the bill's company; at the company's strike_limit the buyer is
 * blocked (company_blocks, reason 'strikes') and their standing bids on the company's open lots are
 * withdrawn, as a moderator's block does (bids/withdraw.ts). A Segunda oportunidad's bill that expires is no
 * strike (the runner-up never committed): its offer just expires, and its lot is left without a
 * winner, waiting for the seller's choice again. After the commit the link is
 * expired at the provider with the account that made it; a payment that still arrives is recorded
 * and flagged by the state machine (canceled + approved), shown as "Reembolsar".
 *
 * The database is the timetable: each due bill is locked with SKIP LOCKED and checked again under
 * the lock, so two instances never expire one twice; the job sleeps until the next deadline.
 */

export interface ExpiryDeps {
  provider: PaymentProvider;
  accounts: SellerAccounts;
  log?: FastifyBaseLogger;
}

export interface ExpiryPass {
  expired: string[];
  events: DomainEvent[];
  /** Until the next pending deadline, in ms, or null when none is set. */
  nextInMs: number | null;
}

interface Expired {
  payment: PaymentView;
  /** The buyer this expiry blocked (the company's strike limit reached). */
  blocked: boolean;
  /** The lots whose bids the block withdrew (their new prices and histories), as a moderator's block does. */
  withdrawnEvents: DomainEvent[];
  preferenceId: string | null;
  provider: string | null;
}

/** When a pending bill expires: at its deadline, or CASH_PAYMENT_GRACE_HOURS later while a cash payment is under way. */
const expiresAt = billExpiresAtSql(sql`${payments.deadlineAt}`, sql`${payments.providerStatus}`);

/** Expires one due bill, or null when it is not due any more (paid, canceled, or another instance has it). */
async function expireOne(tx: Tx, id: string): Promise<Expired | null> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.paymentStatus, 'pending'), sql`${expiresAt} <= clock_timestamp()`))
    .for('update', { skipLocked: true });
  if (!row) return null;
  const moved = applyPaymentEvent(machineState(row), { type: 'cancel' });
  if (!moved.ok) return null;
  const before = await view(tx, row as PaymentRow);
  const now = new Date();
  const answer = await save(
    tx,
    row as PaymentRow,
    { paymentStatus: moved.state.paymentStatus, canceledAt: now, expiredAt: now },
    {
      by: null,
      action: 'payment.expire',
      before,
    },
  );
  const [offer] = await tx
    .update(secondChanceOffers)
    .set({ status: 'expired', answeredAt: now })
    .where(and(eq(secondChanceOffers.paymentId, row.id), eq(secondChanceOffers.status, 'offered')))
    .returning({ id: secondChanceOffers.id, auctionId: secondChanceOffers.auctionId, buyerId: secondChanceOffers.buyerId });
  // The runner-up let the offer go: its lot has no winner, and waits for the seller's choice again.
  if (offer) await clearOfferWinner(tx, offer);
  const isOffer =
    offer !== undefined ||
    (await tx.select({ id: secondChanceOffers.id }).from(secondChanceOffers).where(eq(secondChanceOffers.paymentId, row.id)).limit(1)).length > 0;
  const blocked = isOffer ? false : await strike(tx, row);
  // A buyer blocked for unpaid bills loses their standing bids on the company's open lots now, as with a moderator's block.
  const withdrawn = blocked ? await withdrawBidder(tx, { by: null, companyId: row.companyId, userId: row.winnerId }) : null;
  return { payment: answer, blocked, withdrawnEvents: withdrawn?.events ?? [], preferenceId: row.mpPreferenceId, provider: row.provider };
}

/** The lots wait for the seller's choice; the buyer gets a strike, and the block at the company's limit (answers whether it blocked now). */
async function strike(tx: Tx, row: PaymentRow): Promise<boolean> {
  const items = await tx.select({ auctionId: paymentItems.auctionId }).from(paymentItems).where(eq(paymentItems.paymentId, row.id));
  if (items.length) {
    await tx
      .insert(expiredLots)
      .values(items.map((i) => ({ paymentId: row.id, auctionId: i.auctionId })))
      .onConflictDoNothing();
  }
  await tx.insert(buyerStrikes).values({ companyId: row.companyId, userId: row.winnerId, paymentId: row.id }).onConflictDoNothing();
  const [count] = rows<{ n: number }>(
    await tx.execute(
      sql`select count(*)::int as n from buyer_strikes where company_id = ${row.companyId} and user_id = ${row.winnerId}::uuid and lifted_at is null`,
    ),
  );
  const [company] = await tx.select({ limit: companies.strikeLimit }).from(companies).where(eq(companies.id, row.companyId));
  const limit = company?.limit ?? 2;
  if (!reachesStrikeLimit(Number(count?.n ?? 0), limit)) return false;
  const blocked = await tx
    .insert(companyBlocks)
    .values({ companyId: row.companyId, userId: row.winnerId, blockedBy: null, reason: 'strikes' })
    .onConflictDoNothing()
    .returning({ userId: companyBlocks.userId });
  if (blocked.length) {
    await recordAudit(tx, {
      by: null,
      action: 'unpaid.strikes.block',
      entityType: 'company',
      entityId: row.companyId,
      after: { userId: row.winnerId, strikes: Number(count?.n ?? 0), limit },
    });
  }
  return blocked.length > 0;
}

/** Best effort, outside any transaction: the link stops taking payments, with the account that made it. */
export async function expireLink(db: Db, deps: ExpiryDeps, payment: PaymentView, preference: { provider: string | null; preferenceId: string | null }) {
  if (!preference.preferenceId || preference.provider !== deps.provider.kind) return;
  try {
    const collector = payment.collectedBySeller ? await collectorOf(db, payment) : null;
    await deps.provider.expireCheckout(preference.preferenceId, collector ? await deps.accounts.credentialsFor(collector) : null);
  } catch (err) {
    deps.log?.warn({ err, paymentId: payment.id }, 'could not expire the checkout of an expired payment');
  }
}

/** One pass: expires every due bill (up to 100), then answers the events and the time to the next deadline. */
export async function expireDuePayments(db: Db, deps: ExpiryDeps): Promise<ExpiryPass> {
  const due = rows<{ id: string }>(
    await db.execute(sql`select id from payments where payment_status = 'pending' and ${expiresAt} <= clock_timestamp() order by deadline_at limit 100`),
  );
  const expired: string[] = [];
  const events: DomainEvent[] = [];
  for (const { id } of due) {
    try {
      const done = await db.transaction((tx) => expireOne(tx, id));
      if (!done) continue;
      expired.push(id);
      events.push(paymentChanged({ payment: done.payment, auctionIds: done.payment.auctionIds }));
      if (done.blocked) events.push(standingChanged(done.payment.companyId, done.payment.winnerId, true), ...done.withdrawnEvents);
      await expireLink(db, deps, done.payment, done);
    } catch (err) {
      deps.log?.error({ err, paymentId: id }, 'payment expiry failed');
    }
  }
  const [next] = rows<{ ms: string | number | null }>(
    await db.execute(
      sql`select (extract(epoch from min(${expiresAt}) - clock_timestamp()) * 1000)::bigint as ms from payments where payment_status = 'pending' and deadline_at is not null`,
    ),
  );
  return { expired, events, nextInMs: next?.ms === null || next?.ms === undefined ? null : Number(next.ms) };
}

/** The expiry job: a pass, then sleep until the next deadline, never longer than `maxSleepMs` (60 s). */
export function startPaymentExpiry(
  opts: ExpiryDeps & { db: Db; log: FastifyBaseLogger; publish: (events: DomainEvent[]) => Promise<void>; maxSleepMs?: number },
): PassLoop {
  const maxSleepMs = opts.maxSleepMs ?? 60_000;
  return startPassLoop({
    name: 'payment expiry',
    log: opts.log,
    retryMs: maxSleepMs,
    unref: true,
    async pass() {
      const done = await expireDuePayments(opts.db, opts);
      if (done.events.length > 0) await opts.publish(done.events);
      // A few ms past the due time, so the database's clock has passed it too.
      return (done.nextInMs === null ? maxSleepMs : Math.min(maxSleepMs, Math.max(0, done.nextInMs))) + 5;
    },
  });
}
