import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_PAYMENT_DEADLINE_HOURS } from '../../../../domain/after-show.js';
import { applyPaymentEvent, hasShipping, type WonItem } from '../../../../domain/payments.js';
import { type Db, rows, type Tx } from '../../../db/connect.js';
import { payments, users } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { type Checkout, type PaymentProvider, ProviderUnavailableError } from '../../../providers/payments/types.js';
import type { SellerAccounts } from './accounts.js';
import { collectorOf } from './collectors.js';
import { type Actor, paymentScope } from './policies.js';
import { view } from './queries.js';
import { makeReminderLadders } from './reminder-ladder.js';
import { cancelPayment, changed, lockPayment, type PaymentChange, save, unchanged } from './service.js';
import { conflict, isReserved, machineState, refused } from './transitions.js';

/**
 * What billing asks of the payment provider: finalize creates a checkout, cancel expires it.
 *
 * POST /api/payments/{id}/finalize: the draft becomes pending with a payment link, in three steps
 * so that no transaction waits on the provider (on PGlite one open transaction stops the whole
 * database, bids included):
 * 1. reserve: lock, check, and name the provider on the draft; from then on its amount is fixed;
 * 2. outside any transaction, ask the provider for the checkout, keyed by the payment's id, so a
 *    repeat (a second click, a retry after a crash or a lost answer) gets the same checkout back;
 * 3. record: lock again, store the link and move to pending, audited once.
 * A crash between the steps leaves a reserved draft; the next click runs 2 and 3 again.
 */

export interface FinalizeAnswer extends PaymentChange {
  link: string;
}

/** The provider and the sellers' accounts, and where to log what the provider refused. */
interface ProviderDeps {
  provider: PaymentProvider;
  accounts: SellerAccounts;
  log?: FastifyBaseLogger;
}

/** Whether WhatsApp's Cloud API is configured: a new link's reminders go through it to a buyer who agreed. */
export interface ReminderDeps {
  isCloudOn: boolean;
}

/** What the checkout is made of, read in step 1. */
interface Reservation {
  id: string;
  winnerId: string;
  winnerName: string;
  sellerId: string | null;
  companyId: string;
  items: WonItem[];
  shippingCarrier: string | null;
  shippingCost: number;
  grandTotal: number;
  /** Hours the buyer has to pay once the link is made (deadlineHours). */
  deadlineHours: number;
}

export async function finalize(db: Db, opts: ProviderDeps & ReminderDeps & Acting<Actor> & { id: string }): Promise<FinalizeAnswer> {
  const step = await reserveCheckout(db, { actor: opts.actor, id: opts.id, provider: opts.provider.kind });
  if ('done' in step) return step.done;
  const { checkout, collector } = await createCheckout(db, opts, step.reservation);
  const collectedBySeller = collector !== null;
  const { provider, accounts, log, ...acting } = opts;
  const recorded = await recordCheckout(db, { ...acting, checkout, provider: provider.kind, collectedBySeller });
  if (recorded) return recorded;
  // Cancelled while the provider was working: the new checkout must not take payments.
  await expire(opts, { preferenceId: checkout.preferenceId, collector });
  throw conflict(messages.payments.notDraft);
}

/**
 * POST /api/payments/{id}/cancel: the payment ends (service.ts), then its link stops taking
 * payments at the provider, with the account that made it.
 */
export async function cancel(db: Db, opts: ProviderDeps & Acting<Actor> & { id: string }): Promise<PaymentChange> {
  const { provider, accounts, log, ...acting } = opts;
  const change = await cancelPayment(db, acting);
  const { payment } = change;
  if (payment.provider === opts.provider.kind) {
    // Best effort: the account is found again the way finalize found it.
    await expire(opts, { preferenceId: payment.mpPreferenceId, collector: payment.collectedBySeller ? await collectorOf(db, payment) : null });
  }
  return change;
}

/** Step 1. Answers the link at once when an earlier click already finished. */
export async function reserveCheckout(
  db: Db,
  opts: { actor: Actor; id: string; provider: PaymentProvider['kind'] },
): Promise<{ done: FinalizeAnswer } | { reservation: Reservation }> {
  return db.transaction(async (tx) => {
    const row = await lockPayment(tx, opts.id, paymentScope(opts.actor));
    if (row.paymentStatus === 'pending' && row.paymentLink) return { done: { ...unchanged(await view(tx, row)), link: row.paymentLink } };
    const moved = applyPaymentEvent(machineState(row), { type: 'finalize' });
    if (!moved.ok) throw refused(moved.reason);
    const before = await view(tx, row);
    if (before.wonItems.length === 0) throw conflict(messages.payments.noItems);
    if (!hasShipping(row)) throw new AppError('VALIDATION', messages.payments.shippingRequired, { shippingCarrier: messages.payments.shippingRequired });
    if (!isReserved(row)) await tx.update(payments).set({ provider: opts.provider, updatedAt: new Date() }).where(eq(payments.id, row.id));
    return {
      reservation: {
        id: row.id,
        winnerId: row.winnerId,
        winnerName: row.winnerName,
        sellerId: row.sellerId,
        companyId: row.companyId,
        items: before.wonItems,
        shippingCarrier: row.shippingCarrier,
        shippingCost: row.shippingCost,
        grandTotal: before.grandTotal,
        deadlineHours: await deadlineHours(tx, row),
      },
    };
  });
}

/**
 * Step 2, outside any transaction: the checkout is made with the collecting account (collectors.ts):
 * the seller's own, the company's admin's, or the platform's (no credentials).
 */
async function createCheckout(db: Db, opts: ProviderDeps, r: Reservation): Promise<{ checkout: Checkout; collector: string | null }> {
  try {
    const [payer] = await db.select({ email: users.email }).from(users).where(eq(users.id, r.winnerId));
    const collector = await collectorOf(db, r);
    const seller = await opts.accounts.credentialsFor(collector);
    const checkout = await opts.provider.createCheckout({
      paymentId: r.id,
      items: r.items,
      shippingCarrier: r.shippingCarrier,
      shippingCost: r.shippingCost,
      grandTotal: r.grandTotal,
      payer: { name: r.winnerName, email: payer?.email ?? null },
      seller,
      expiresAt: new Date(Date.now() + r.deadlineHours * 3_600_000),
    });
    return { checkout, collector: seller ? collector : null };
  } catch (err) {
    opts.log?.error({ err, paymentId: r.id }, 'checkout failed');
    throw new AppError(err instanceof ProviderUnavailableError ? 'PROVIDER_UNAVAILABLE' : 'CONFLICT', messages.payments.checkoutFailed);
  }
}

/** Step 3. Null when the payment is no longer a draft to finish (it was cancelled meanwhile). */
export async function recordCheckout(
  db: Db,
  opts: Acting<Actor> & ReminderDeps & { id: string; checkout: Checkout; provider: PaymentProvider['kind']; collectedBySeller: boolean },
): Promise<FinalizeAnswer | null> {
  return db.transaction(async (tx) => {
    const row = await lockPayment(tx, opts.id, paymentScope(opts.actor));
    // Another click recorded the same checkout first.
    if (row.paymentStatus === 'pending' && row.paymentLink) return { ...unchanged(await view(tx, row)), link: row.paymentLink };
    if (row.paymentStatus !== 'draft') return null;
    const before = await view(tx, row);
    const { checkout } = opts;
    const answer = await save(
      tx,
      row,
      {
        paymentStatus: 'pending',
        paymentLink: checkout.url,
        mpPreferenceId: checkout.preferenceId,
        linkExpiresAt: checkout.expiresAt,
        linkCreatedAt: new Date(),
        // The deadline is the link's own expiry: after it the link takes nothing (payments/deadlines).
        deadlineAt: checkout.expiresAt,
        provider: opts.provider,
        collectedBySeller: opts.collectedBySeller,
      },
      { by: opts, action: 'payment.finalize', before },
    );
    await makeReminderLadders(tx, { isCloudOn: opts.isCloudOn, paymentId: row.id });
    return { ...changed(answer, answer.auctionIds), link: checkout.url };
  });
}

/**
 * The payment deadline of a bill, in hours: its show's own (live_sessions.payment_deadline_hours),
 * else its company's (companies.payment_deadline_hours), else 72.
 */
export async function deadlineHours(tx: Db | Tx, row: { sessionId: string | null; companyId: string }): Promise<number> {
  const [hit] = rows<{ hours: number | null }>(
    await tx.execute(sql`
      select coalesce(
        (select s.payment_deadline_hours from live_sessions s where s.id = ${row.sessionId}::uuid),
        (select c.payment_deadline_hours from companies c where c.id = ${row.companyId}),
        ${DEFAULT_PAYMENT_DEADLINE_HOURS}::int
      ) as hours`),
  );
  return Number(hit?.hours ?? DEFAULT_PAYMENT_DEADLINE_HOURS);
}

/** Best effort: a payment that still arrives for a cancelled payment is recorded and flagged. */
async function expire(opts: ProviderDeps, checkout: { preferenceId: string | null; collector: string | null }) {
  if (!checkout.preferenceId) return;
  try {
    await opts.provider.expireCheckout(checkout.preferenceId, checkout.collector ? await opts.accounts.credentialsFor(checkout.collector) : null);
  } catch (err) {
    opts.log?.warn({ err, preferenceId: checkout.preferenceId }, 'could not expire the checkout of a cancelled payment');
  }
}
