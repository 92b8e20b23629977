import { describe, expect, it } from 'vitest';
import { DEFAULT_INCREMENT_BANDS, incrementAt } from '../../../src/domain/bid-rules';
import { MAX_PRICE } from '../../../src/domain/money';
import { hasBands, nextMinimumOf, quickBidAmounts, stepAt } from '../../../src/web/public/bidding/bid-steps';
import { primaryAction } from '../../../src/web/public/live/phone/one-tap';
import { state } from '../../support/live-hub-fixtures';

const bands = { minIncrement: 10, incrementBands: [...DEFAULT_INCREMENT_BANDS] };
const flat = { minIncrement: 20, incrementBands: null };

describe('quick-bid amounts', () => {
  it('start at the next minimum and step by the band of the amount before each', () => {
    expect(quickBidAmounts(130, bands)).toEqual([130, 140, 150]);
    // Crossing a band: from $480 the steps are $10 until $500, then $20.
    expect(quickBidAmounts(490, bands)).toEqual([490, 500, 520]);
    expect(quickBidAmounts(95, bands)).toEqual([95, 100, 110]);
    expect(quickBidAmounts(9_900, bands, 4)).toEqual([9_900, 10_000, 10_200, 10_400]);
  });

  it('step by the flat increment without a band table', () => {
    expect(quickBidAmounts(520, flat)).toEqual([520, 540, 560]);
  });

  it('never pass the top price', () => {
    const amounts = quickBidAmounts(MAX_PRICE - 100, bands);
    expect(amounts).toEqual([MAX_PRICE - 100, MAX_PRICE]);
  });

  it('each step is the engine’s increment at the amount before it', () => {
    for (const start of [0, 5, 99, 100, 101, 499, 999, 4_999, 5_000, 123_456]) {
      const amounts = quickBidAmounts(start, bands, 5);
      for (let i = 1; i < amounts.length; i++) expect(amounts[i]).toBe((amounts[i - 1] ?? 0) + incrementAt(amounts[i - 1] ?? 0, bands));
    }
  });
});

describe('the next minimum and the one-tap amount', () => {
  it('follow the band of the current price', () => {
    const at120 = state({
      currentPrice: 120,
      bidCount: 1,
      startingPrice: 100,
      nextMinimum: 130,
      minIncrement: 10,
      incrementBands: [...DEFAULT_INCREMENT_BANDS],
    });
    expect(nextMinimumOf(at120)).toBe(130);
    expect(primaryAction({ state: at120, isOver: false, isOwnAuction: false, myTag: 'me' })).toEqual({ kind: 'bid', amount: 130 });
    const at600 = state({ currentPrice: 600, bidCount: 3, nextMinimum: 620, minIncrement: 20, incrementBands: [...DEFAULT_INCREMENT_BANDS] });
    expect(nextMinimumOf(at600)).toBe(620);
  });

  it('is the starting price before any bid', () => {
    expect(nextMinimumOf(state({ currentPrice: null, bidCount: 0, startingPrice: 250, nextMinimum: 250, incrementBands: [...DEFAULT_INCREMENT_BANDS] }))).toBe(
      250,
    );
  });

  it('never offers less than the server’s own next minimum', () => {
    expect(nextMinimumOf(state({ currentPrice: 120, bidCount: 1, nextMinimum: 140, minIncrement: 20, incrementBands: null }))).toBe(140);
  });

  it('tells a band table from a flat increment', () => {
    expect(hasBands(bands)).toBe(true);
    expect(hasBands(flat)).toBe(false);
    expect(hasBands({ minIncrement: 5, incrementBands: [{ from: 0, increment: 5 }] })).toBe(false);
    expect(stepAt(1_000, bands)).toBe(50);
  });
});
