import { MAX_PRICE } from '../../../domain/money.js';
import type { Amount } from '../../lib/peso-text';

/** Keys of `bidding.errors`: ZBidInput's issue codes plus the live minimum. */
export type BidErrorKey = 'bidRequired' | 'bidInteger' | 'bidPositive' | 'bidTooHigh' | 'maxBelowAmount' | 'belowMinimum';
export interface BidErrors {
  amount?: BidErrorKey;
  maxAmount?: BidErrorKey;
}

/** ZBidInput's rule for one amount (ZPesos): its first issue, or undefined. */
function pesosIssue(value: number | undefined): BidErrorKey | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'bidRequired';
  if (!Number.isSafeInteger(value)) return 'bidInteger';
  if (value < 1) return 'bidPositive';
  if (value > MAX_PRICE) return 'bidTooHigh';
  return undefined;
}

/**
 * The first issue per field that the server's ZBidInput (src/domain/bidding.ts) finds in these
 * values, without Zod: a buyer's phone does not download 85 KB of Zod for two numbers.
 * test/web/public/bid-input.test.ts checks it against ZBidInput itself, so the two cannot drift apart.
 */
export function bidInputIssues(amount: number | undefined, maxAmount: number | null | undefined): BidErrors {
  const errors: BidErrors = {};
  const amountIssue = pesosIssue(amount);
  if (amountIssue) errors.amount = amountIssue;
  if (maxAmount != null) {
    const maxIssue = pesosIssue(maxAmount);
    if (maxIssue) errors.maxAmount = maxIssue;
  }
  // ZBidInput's refinement runs unless a field is no whole number (Zod aborts there, not on a range).
  const whole = (value: number | undefined): value is number => Number.isInteger(value);
  if (maxAmount != null && whole(amount) && whole(maxAmount) && maxAmount < amount) errors.maxAmount ??= 'maxBelowAmount';
  return errors;
}

export interface BidFormValues {
  amount: number;
  maxAmount: number | null;
}

/** The number an Amount stands for; undefined when empty or not a number at all ('-'). */
export function amountValue(value: Amount): number | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
  const text = value.trim();
  if (text === '') return undefined;
  const parsed = Number(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/**
 * Why these values cannot be sent, as catalogue keys per field; null when they can. The server's
 * own rules (ZBidInput, through bidInputIssues) plus the live minimum, so the form refuses what the server would.
 */
export function checkBid(amount: Amount, maxAmount: Amount, isAuto: boolean, nextMinimum: number): BidErrors | null {
  const bid = amountValue(amount);
  const max = amountValue(maxAmount);
  const issues = bidInputIssues(bid, isAuto ? max : null);
  const errors: BidErrors = {};
  // Past the top price, that is the news (Zod would call 20 digits 'not an integer').
  if (bid !== undefined && bid > MAX_PRICE) errors.amount = 'bidTooHigh';
  if (isAuto && max !== undefined && max > MAX_PRICE) errors.maxAmount = 'bidTooHigh';
  errors.amount ??= issues.amount;
  errors.maxAmount ??= issues.maxAmount;
  if (isAuto && max === undefined) errors.maxAmount ??= 'bidRequired';
  if (bid !== undefined && !errors.amount && bid < nextMinimum) errors.amount = 'belowMinimum';
  // Zod skips the maximum-versus-bid rule when a field failed; a maximum under the bid is still worth saying.
  if (isAuto && bid !== undefined && max !== undefined && !errors.maxAmount && max < bid) errors.maxAmount = 'maxBelowAmount';
  return errors.amount || errors.maxAmount ? errors : null;
}

/** A bid or maximum at this many times the price or more gets a second look before it is sent. */
export const LARGE_BID_FACTOR = 10;

/** What is far above the price, with how many times the price it is; null when nothing is. */
export interface LargeBid {
  /** The price it was compared with: the current price, or the starting price before any bid. */
  reference: number;
  amountTimes: number | null;
  maxTimes: number | null;
}

/**
 * The second look: a bid or maximum ten times the price or more is far more
 * often a slipped zero than an intent, so the review asks again, spelling the amount out.
 */
export function largeBid(values: BidFormValues, reference: number): LargeBid | null {
  const base = Math.max(reference, 1);
  const times = (value: number | null) => (value !== null && value >= base * LARGE_BID_FACTOR ? Math.floor(value / base) : null);
  const amountTimes = times(values.amount);
  const maxTimes = times(values.maxAmount);
  return amountTimes === null && maxTimes === null ? null : { reference: base, amountTimes, maxTimes };
}
