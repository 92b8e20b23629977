import { MAX_PRICE } from '../../../domain/auctions.js';
import { ZBidInput } from '../../../domain/bidding.js';

/**
 * A NumberInput's value as Mantine hands it over: a number, '' while empty, or the typed text when
 * it is no plain number yet ('700.', or more digits than a number holds). Kept as typed: the form
 * never rewrites what the bidder wrote, it says what is wrong with it.
 */
export type Amount = number | string;

/** Keys of `bidding.errors`: ZBidInput's issue codes plus the live minimum. */
export type BidErrorKey = 'bidRequired' | 'bidInteger' | 'bidPositive' | 'bidTooHigh' | 'maxBelowAmount' | 'belowMinimum';
export interface BidErrors {
  amount?: BidErrorKey;
  maxAmount?: BidErrorKey;
}
const ERROR_KEYS = new Set<string>(['bidRequired', 'bidInteger', 'bidPositive', 'bidTooHigh', 'maxBelowAmount', 'belowMinimum'] satisfies BidErrorKey[]);

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
 * own schema (ZBidInput) plus the live minimum, so the form refuses what the server would.
 */
export function checkBid(amount: Amount, maxAmount: Amount, isAuto: boolean, nextMinimum: number): BidErrors | null {
  const bid = amountValue(amount);
  const max = amountValue(maxAmount);
  const parsed = ZBidInput.safeParse({ amount: bid, maxAmount: isAuto ? max : null });
  const errors: BidErrors = {};
  // Past the top price, that is the news (Zod would call 20 digits 'not an integer').
  if (bid !== undefined && bid > MAX_PRICE) errors.amount = 'bidTooHigh';
  if (isAuto && max !== undefined && max > MAX_PRICE) errors.maxAmount = 'bidTooHigh';
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'maxAmount' ? 'maxAmount' : 'amount';
      errors[field] ??= ERROR_KEYS.has(issue.message) ? (issue.message as BidErrorKey) : 'bidRequired';
    }
  }
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
 * The second look (item 1 of issue 14): a bid or maximum ten times the price or more is far more
 * often a slipped zero than an intent, so the review asks again, spelling the amount out.
 */
export function largeBid(values: BidFormValues, reference: number): LargeBid | null {
  const base = Math.max(reference, 1);
  const times = (value: number | null) => (value !== null && value >= base * LARGE_BID_FACTOR ? Math.floor(value / base) : null);
  const amountTimes = times(values.amount);
  const maxTimes = times(values.maxAmount);
  return amountTimes === null && maxTimes === null ? null : { reference: base, amountTimes, maxTimes };
}
