import { describe, expect, it } from 'vitest';
import type { ShowSummary } from '../../../src/domain/show-summary.js';
import { clockTime, compactPesos, formatRatio, isEmptySummary, priceBars, viewerBands, waMeHref } from '../../../src/web/livehub/after-show/summary-format';

/** The show's summary panel: the bands on the viewers chart, the price bars and the labels. */

const viewers = [0, 1, 2, 3, 4].map((i) => ({ at: 100_000 + i * 5000, viewers: i }));

describe('the viewers chart’s bands', () => {
  it('shades each lot’s time on the block within the samples, alternating colours', () => {
    const bands = viewerBands(
      viewers,
      [
        { lotId: 'l1', name: 'Reloj', openedAt: 90_000, closedAt: 107_000 },
        { lotId: 'l2', name: 'Lámpara', openedAt: 107_000, closedAt: 112_000 },
        { lotId: 'l3', name: 'Silla', openedAt: 112_000, closedAt: null },
      ],
      200_000,
    );
    expect(bands).toEqual([
      { x1: 100_000, x2: 107_000, name: 'Reloj', color: 'yellow.3' },
      { x1: 107_000, x2: 112_000, name: 'Lámpara', color: 'grape.3' },
      // Still on the block: it runs to the last sample.
      { x1: 112_000, x2: 120_000, name: 'Silla', color: 'yellow.3' },
    ]);
  });

  it('drops a band outside the samples, and draws none with fewer than two samples', () => {
    expect(viewerBands(viewers, [{ lotId: 'l', name: 'Antes', openedAt: 10_000, closedAt: 20_000 }], 200_000)).toEqual([]);
    expect(viewerBands(viewers.slice(0, 1), [{ lotId: 'l', name: 'X', openedAt: 0, closedAt: null }], 200_000)).toEqual([]);
  });
});

describe('the summary’s labels', () => {
  it('bars every lot, an unsold one at zero', () => {
    expect(
      priceBars([
        { lotId: 'a', name: 'Reloj', startingPrice: 500, finalPrice: 900 },
        { lotId: 'b', name: 'Silla', startingPrice: 300, finalPrice: null },
      ]),
    ).toEqual([
      { lot: '#1', name: 'Reloj', startingPrice: 500, finalPrice: 900 },
      { lot: '#2', name: 'Silla', startingPrice: 300, finalPrice: 0 },
    ]);
  });

  it('writes times in Mexico City, ratios and compact pesos the es-MX way', () => {
    expect(clockTime(Date.UTC(2030, 0, 4, 0, 5))).toBe('18:05');
    // recharts may ask for a tick it has no value for.
    expect(clockTime(Number.NaN)).toBe('');
    expect(formatRatio(1.456)).toBe('1.46');
    expect(formatRatio(null)).toBeNull();
    expect(compactPesos(500)).toBe('$500');
    expect(waMeHref('+52 33 1234 5678')).toBe('https://wa.me/523312345678');
    expect(waMeHref(null)).toBeNull();
  });

  it('is empty while nothing sold and nobody bought', () => {
    const summary = { totals: { lotsSold: 0 }, buyers: [] } as unknown as ShowSummary;
    expect(isEmptySummary(summary)).toBe(true);
    expect(isEmptySummary({ ...summary, totals: { ...summary.totals, lotsSold: 1 } } as ShowSummary)).toBe(false);
  });
});
