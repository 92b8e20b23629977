import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZBidInput } from '../../../src/domain/bidding';
import { amountValue, bidInputIssues, checkBid, LARGE_BID_FACTOR, largeBid } from '../../../src/web/public/bidding/bid-input';

/** What the server's schema says: the first issue's message per field. */
function zodIssues(amount: number | undefined, maxAmount: number | null | undefined) {
  const parsed = ZBidInput.safeParse({ amount, maxAmount });
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[issue.path[0] === 'maxAmount' ? 'maxAmount' : 'amount'] ??= issue.message;
  }
  return errors;
}

describe('bidInputIssues (the form, without Zod) agrees with ZBidInput (the server)', () => {
  const amount = fc.oneof(
    fc.constant(undefined),
    fc.integer({ min: -10, max: 10 }),
    fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
    fc.double({ noNaN: false }),
    fc.constantFrom(0, 1, 0.5, -0.5, 1.5, 99_999_999, 100_000_000, 100_000_001, 1e20, 2 ** 53, Number.MAX_SAFE_INTEGER, Infinity, -Infinity, Number.NaN),
  );
  it('on any pair of amounts', () => {
    fc.assert(
      fc.property(amount, fc.oneof(fc.constant(null), amount), (a, m) => {
        expect(bidInputIssues(a, m)).toEqual(zodIssues(a, m));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('checkBid on what was typed, as typed', () => {
  it('says a bid under the minimum is under the minimum (it is never raised to it)', () => {
    expect(checkBid(700, '', false, 1800)).toEqual({ amount: 'belowMinimum' });
  });

  it('says a maximum over the top price is too high, even with more digits than a number holds', () => {
    expect(checkBid(1800, 99_999_999_999, true, 1800)).toEqual({ maxAmount: 'bidTooHigh' });
    // Mantine hands over 14 digits or more as text.
    expect(checkBid(1800, '99999999999999999999', true, 1800)).toEqual({ maxAmount: 'bidTooHigh' });
    expect(checkBid('123456789012345', '', false, 1800)).toEqual({ amount: 'bidTooHigh' });
  });

  it('says a maximum below the bid is below the bid, also when the bid itself is wrong', () => {
    expect(checkBid(2000, 1900, true, 1800)).toEqual({ maxAmount: 'maxBelowAmount' });
    expect(checkBid(700, 650, true, 1800)).toEqual({ amount: 'belowMinimum', maxAmount: 'maxBelowAmount' });
  });

  it('names a minus sign, centavos and half-typed text instead of dropping them', () => {
    expect(checkBid(-700, '', false, 1800)).toEqual({ amount: 'bidPositive' });
    expect(checkBid(1800.5, '', false, 1800)).toEqual({ amount: 'bidInteger' });
    expect(checkBid('1800.', '', false, 1800)).toBeNull();
    expect(checkBid('-', '', false, 1800)).toEqual({ amount: 'bidRequired' });
  });
});

describe('amountValue', () => {
  it('reads numbers and numeric text; empty or non-numeric is nothing', () => {
    expect(amountValue(1800)).toBe(1800);
    expect(amountValue('1800.')).toBe(1800);
    expect(amountValue('')).toBeUndefined();
    expect(amountValue('-')).toBeUndefined();
  });
});

describe('largeBid', () => {
  it('marks a bid or maximum at ten times the price or more, with how many times it is', () => {
    expect(LARGE_BID_FACTOR).toBe(10);
    expect(largeBid({ amount: 9_999, maxAmount: null }, 1000)).toBeNull();
    expect(largeBid({ amount: 10_000, maxAmount: null }, 1000)).toEqual({ reference: 1000, amountTimes: 10, maxTimes: null });
    expect(largeBid({ amount: 1_020, maxAmount: 25_000 }, 1000)).toEqual({ reference: 1000, amountTimes: null, maxTimes: 25 });
    expect(largeBid({ amount: 1_020, maxAmount: 5_000 }, 1000)).toBeNull();
  });

  it('compares with at least one peso when the price is zero', () => {
    expect(largeBid({ amount: 5, maxAmount: null }, 0)).toBeNull();
    expect(largeBid({ amount: 10, maxAmount: null }, 0)).toEqual({ reference: 1, amountTimes: 10, maxTimes: null });
  });
});
