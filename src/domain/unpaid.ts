import { z } from 'zod';
import type { ExpiredLotDecision, SecondChanceStatus } from './after-show.js';

/**
 * When a buyer does not pay: at its deadline an unpaid bill expires, each of its lots waits for
 * the seller's choice (Segunda oportunidad, another show, release), and the buyer gets a strike
 * with that company; at the company's limit the buyer is blocked from its auctions and shows.
 */

/** A bid as the runner-up rule reads it. */
export interface BidLine {
  bidderId: string;
  bidderName: string;
  amount: number;
}

export interface RunnerUp {
  userId: string;
  name: string;
  /** Their own highest bid, in pesos: what a Segunda oportunidad offers the lot at. */
  amount: number;
}

/**
 * The runner-up of a lot: the highest bidder other than the winner who did not pay (and anyone who
 * already let a Segunda oportunidad on it go: declined or expired), at their own highest bid (never
 * the winning price). On equal amounts the earlier line (first in `lines`) wins.
 */
export function runnerUpOf(lines: readonly BidLine[], winnerId: string | null, passed: readonly string[] = []): RunnerUp | null {
  let best: RunnerUp | null = null;
  for (const l of lines) {
    if (l.bidderId === winnerId || passed.includes(l.bidderId)) continue;
    if (!best || l.amount > best.amount) best = { userId: l.bidderId, name: l.bidderName, amount: l.amount };
  }
  return best;
}

/** Strikes that are not lifted reach the company's limit: the buyer is blocked. */
/**
 * A buyer who started a cash payment (an OXXO voucher: the provider says pending or in process)
 * before the deadline may pay it at the store until the deadline and be confirmed hours later: the
 * bill waits this long past its deadline before it expires, so a payment made in time is not
 * treated as late.
 */
export const CASH_PAYMENT_GRACE_HOURS = 24;

/** The provider's states of a payment started but not yet confirmed (a cash voucher, a card under review). */
export const PAYMENT_UNDERWAY_STATUSES = ['pending', 'in_process'] as const;

export const isPaymentUnderway = (providerStatus: string | null | undefined): boolean =>
  (PAYMENT_UNDERWAY_STATUSES as readonly string[]).includes(providerStatus ?? '');

/** When an unpaid bill expires: at its deadline, or CASH_PAYMENT_GRACE_HOURS later while a payment is under way. */
export function billExpiresAt(deadlineAt: Date, providerStatus: string | null | undefined): Date {
  return isPaymentUnderway(providerStatus) ? new Date(deadlineAt.getTime() + CASH_PAYMENT_GRACE_HOURS * 3_600_000) : deadlineAt;
}

export const reachesStrikeLimit = (activeStrikes: number, limit: number): boolean => activeStrikes >= limit;

/**
 * Whether the seller may (still) choose for an expired lot: once, unless a Segunda oportunidad
 * ended without a sale (declined, expired, canceled), which leaves the lot to choose again.
 */
export function mayDecide(decision: ExpiredLotDecision | null, offerStatus: SecondChanceStatus | null): boolean {
  if (decision === null) return true;
  return decision === 'secondChance' && offerStatus !== null && offerStatus !== 'offered' && offerStatus !== 'paid';
}

// ── Answers ─────────────────────────────────────────────────────────────────

export interface SecondChanceOfferView {
  id: string;
  buyerId: string;
  buyerName: string;
  amount: number;
  status: SecondChanceStatus;
  paymentId: string | null;
  createdAt: string;
}

export interface ExpiredLotView {
  auctionId: string;
  auctionName: string;
  amount: number;
  decision: ExpiredLotDecision | null;
  decidedAt: string | null;
  runnerUp: (RunnerUp & { blocked: boolean }) | null;
  offer: SecondChanceOfferView | null;
  /** The seller may choose now (mayDecide). */
  open: boolean;
}

export interface ExpiredBillView {
  paymentId: string;
  companyId: string;
  winnerId: string;
  winnerName: string;
  winnerWhatsapp: string | null;
  grandTotal: number;
  deadlineAt: string | null;
  expiredAt: string;
  lots: ExpiredLotView[];
}

/** A canceled bill that was paid anyway: the money must go back ("Reembolsar"). */
export interface LatePaymentView {
  paymentId: string;
  winnerName: string;
  grandTotal: number;
  mpPaymentId: string | null;
  expiredAt: string | null;
  canceledAt: string | null;
}

export interface ExpiredAnswer {
  bills: ExpiredBillView[];
  latePayments: LatePaymentView[];
}

export interface StruckBuyerView {
  companyId: string;
  userId: string;
  name: string;
  strikes: number;
  limit: number;
  blocked: boolean;
}

export interface StrikesAnswer {
  buyers: StruckBuyerView[];
}

/** GET /api/me/unpaid: what a buyer is warned of before bidding with a company. */
export interface MyUnpaidAnswer {
  /** Bills of this company past their deadline and not paid (expired, or pending past the deadline). */
  overdue: number;
  strikes: number;
  limit: number;
  blocked: boolean;
}

// ── Inputs ──────────────────────────────────────────────────────────────────

export const ZFutureShowInput = z.object({ sessionId: z.uuid({ error: 'sessionRequired' }) });
export type FutureShowInput = z.infer<typeof ZFutureShowInput>;

/** The company by its id, or by one of its auctions (a live page's buyer does not know the company's id). */
export const ZMyUnpaidQuery = z
  .object({ companyId: z.string().trim().min(1).max(100).optional(), auctionId: z.uuid({ error: 'invalid' }).optional() })
  .refine((q) => q.companyId !== undefined || q.auctionId !== undefined, { error: 'companyRequired', path: ['companyId'] });
