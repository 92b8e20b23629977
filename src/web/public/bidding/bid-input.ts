import { ZBidInput } from '../../../domain/bidding.js';

/** A NumberInput's value: a number, or '' while empty. */
export type Amount = number | '';

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

/**
 * Why these values cannot be sent, as catalogue keys per field; null when they can. The server's
 * own schema (ZBidInput) plus the live minimum, so the form refuses what the server would.
 */
export function checkBid(amount: Amount, maxAmount: Amount, isAuto: boolean, nextMinimum: number): BidErrors | null {
  const parsed = ZBidInput.safeParse({ amount: amount === '' ? undefined : amount, maxAmount: isAuto ? (maxAmount === '' ? undefined : maxAmount) : null });
  const errors: BidErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'maxAmount' ? 'maxAmount' : 'amount';
      errors[field] ??= ERROR_KEYS.has(issue.message) ? (issue.message as BidErrorKey) : 'bidRequired';
    }
  }
  if (isAuto && maxAmount === '') errors.maxAmount ??= 'bidRequired';
  if (typeof amount === 'number' && !errors.amount && amount < nextMinimum) errors.amount = 'belowMinimum';
  return errors.amount || errors.maxAmount ? errors : null;
}
