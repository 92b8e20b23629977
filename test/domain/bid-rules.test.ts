import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INCREMENT_BANDS, DEFAULT_MIN_INCREMENT, incrementAt, mayTakePrebids, nextMinimumBid } from '../../src/domain/bid-rules.js';
import { INCREMENT_BANDS_MAX, ZIncrementBands } from '../../src/domain/live.js';
import { bandTables, modelIncrement } from './bidding-model.js';

describe('the default band table for pesos', () => {
  it('is a table a seller could have saved: from 0, ascending, within the limits', () => {
    expect(ZIncrementBands.safeParse([...DEFAULT_INCREMENT_BANDS]).success).toBe(true);
    expect(DEFAULT_INCREMENT_BANDS.length).toBeLessThanOrEqual(INCREMENT_BANDS_MAX);
  });

  it.each([
    [0, 5],
    [99, 5],
    [100, 10],
    [499, 10],
    [500, 20],
    [999, 20],
    [1_000, 50],
    [4_999, 50],
    [5_000, 100],
    [9_999, 100],
    [10_000, 200],
    [2_500_000, 200],
  ])('steps a price of $%d by $%d', (price, increment) => {
    expect(incrementAt(price, { minIncrement: DEFAULT_MIN_INCREMENT, incrementBands: DEFAULT_INCREMENT_BANDS })).toBe(increment);
  });
});

describe('incrementAt', () => {
  it('is the flat increment without a band table (null, missing or empty)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 1_000 }), (price, minIncrement) => {
        expect(incrementAt(price, { minIncrement })).toBe(minIncrement);
        expect(incrementAt(price, { minIncrement, incrementBands: null })).toBe(minIncrement);
        expect(incrementAt(price, { minIncrement, incrementBands: [] })).toBe(minIncrement);
      }),
    );
  });

  it('is the increment of the band the price falls in, whatever the table', () => {
    fc.assert(
      fc.property(bandTables, fc.integer({ min: 0, max: 30_000 }), (bands, price) => {
        const increment = incrementAt(price, { minIncrement: 7, incrementBands: bands });
        expect(increment).toBe(modelIncrement(price, 7, bands));
        // The band's own edge belongs to it; the amount just below belongs to the band before.
        for (const [i, band] of bands.entries()) {
          expect(incrementAt(band.from, { minIncrement: 7, incrementBands: bands })).toBe(band.increment);
          if (i > 0) expect(incrementAt(band.from - 1, { minIncrement: 7, incrementBands: bands })).toBe(bands[i - 1]?.increment);
        }
      }),
    );
  });
});

describe('nextMinimumBid', () => {
  it('asks for the starting price first, then the price plus the increment at the price', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.option(fc.integer({ min: 0, max: 100_000_000 }), { nil: null }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.option(bandTables, { nil: null }),
        (startingPrice, currentPrice, minIncrement, incrementBands) => {
          const next = nextMinimumBid({ currentPrice, startingPrice, minIncrement, incrementBands });
          expect(next).toBe(currentPrice === null ? startingPrice : currentPrice + modelIncrement(currentPrice, minIncrement, incrementBands));
        },
      ),
    );
  });

  it('follows the default bands across their edges', () => {
    const rule = { startingPrice: 50, minIncrement: DEFAULT_MIN_INCREMENT, incrementBands: DEFAULT_INCREMENT_BANDS };
    expect(nextMinimumBid({ ...rule, currentPrice: null })).toBe(50);
    expect(nextMinimumBid({ ...rule, currentPrice: 95 })).toBe(100);
    expect(nextMinimumBid({ ...rule, currentPrice: 100 })).toBe(110);
    expect(nextMinimumBid({ ...rule, currentPrice: 990 })).toBe(1_010);
    expect(nextMinimumBid({ ...rule, currentPrice: 1_000 })).toBe(1_050);
    expect(nextMinimumBid({ ...rule, currentPrice: 10_000 })).toBe(10_200);
    expect(nextMinimumBid({ ...rule, currentPrice: 10_000, incrementBands: null })).toBe(10_020);
  });
});

describe('whether a page asks about a pre-bid', () => {
  it('asks only while the auction has no bids, is not over and runs no clock (or is pending)', () => {
    expect(mayTakePrebids({ status: 'live', bidCount: 0, endTime: null })).toBe(true);
    expect(mayTakePrebids({ status: 'pending', bidCount: 0, endTime: 1_000 })).toBe(true);
    expect(mayTakePrebids({ status: 'active', bidCount: 0, endTime: 1_000 })).toBe(false);
    expect(mayTakePrebids({ status: 'live', bidCount: 1, endTime: null })).toBe(false);
    expect(mayTakePrebids({ status: 'ended', bidCount: 0, endTime: null })).toBe(false);
  });
});
