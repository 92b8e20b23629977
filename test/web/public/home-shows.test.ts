import { describe, expect, it } from 'vitest';
import type { HomeShow } from '../../../src/web/api/home';
import { busiestFirst, categoryFromSearch, groupByDay, inCategory, mexicoDay, nextDay, searchWithCategory } from '../../../src/web/public/home/home-shows';

function show(id: string, over: Partial<HomeShow> = {}): HomeShow {
  return {
    id,
    title: `Show ${id}`,
    url: `/live/tienda/${id}`,
    sellerName: 'Tienda',
    sellerSlug: 'tienda',
    status: 'scheduled',
    scheduledAt: 0,
    viewerCount: 0,
    coverUrl: null,
    lots: [],
    ...over,
  };
}

// Mexico City is UTC−6 all year since 2022.
const mx = (y: number, m: number, d: number, h: number, min = 0) => Date.UTC(y, m - 1, d, h + 6, min);

describe('upcoming shows grouped by their day in Mexico City', () => {
  // Thursday 3 December 2026, 22:30 in Mexico City (already Friday 04:30 UTC).
  const now = mx(2026, 12, 3, 22, 30);

  it('labels today and tomorrow by the Mexico City calendar, not UTC', () => {
    expect(mexicoDay(now)).toBe('2026-12-03');
    const groups = groupByDay([show('late', { scheduledAt: mx(2026, 12, 3, 23, 45) }), show('morning', { scheduledAt: mx(2026, 12, 4, 9) })], now);
    expect(groups.map((g) => [g.day, g.label.kind, g.shows.map((s) => s.id)])).toEqual([
      ['2026-12-03', 'today', ['late']],
      ['2026-12-04', 'tomorrow', ['morning']],
    ]);
  });

  it('names later days by weekday and date in Spanish, in time order', () => {
    const groups = groupByDay(
      [show('b', { scheduledAt: mx(2026, 12, 5, 20) }), show('a', { scheduledAt: mx(2026, 12, 5, 18) }), show('c', { scheduledAt: mx(2027, 1, 2, 12) })],
      now,
    );
    expect(groups.map((g) => g.label)).toEqual([
      { kind: 'date', text: 'sábado 5 de diciembre' },
      { kind: 'date', text: 'sábado 2 de enero' },
    ]);
    expect(groups[0]?.shows.map((s) => s.id)).toEqual(['a', 'b']);
  });

  it('keeps a show whose time passed without starting under today', () => {
    const groups = groupByDay([show('overdue', { scheduledAt: mx(2026, 12, 2, 20) }), show('now', { scheduledAt: mx(2026, 12, 3, 23) })], now);
    expect(groups.map((g) => [g.label.kind, g.shows.map((s) => s.id)])).toEqual([['today', ['overdue', 'now']]]);
  });

  it('steps days across months and years', () => {
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
  });
});

describe('the category filter', () => {
  const shows = [show('relojes', { categoryIds: ['c1'] }), show('tenis', { categoryIds: ['c2', 'c3'] }), show('sin', {})];

  it('keeps only the shows of the chosen category, and all of them with none chosen', () => {
    expect(inCategory(shows, 'c3').map((s) => s.id)).toEqual(['tenis']);
    expect(inCategory(shows, 'c9')).toEqual([]);
    expect(inCategory(shows, null).map((s) => s.id)).toEqual(['relojes', 'tenis', 'sin']);
  });

  it('reads and writes the chip in the URL as ?categoria=, keeping the other parameters', () => {
    expect(categoryFromSearch('?categoria=c2')).toBe('c2');
    expect(categoryFromSearch('?categoria=')).toBeNull();
    expect(categoryFromSearch('')).toBeNull();
    expect(searchWithCategory('?q=reloj', 'c1')).toBe('?q=reloj&categoria=c1');
    expect(searchWithCategory('?q=reloj&categoria=c1', null)).toBe('?q=reloj');
    expect(searchWithCategory('?categoria=c1', null)).toBe('');
  });
});

describe('live shows', () => {
  it('come busiest first', () => {
    const live = [show('a', { viewerCount: 3 }), show('b', { viewerCount: 40 }), show('c', { viewerCount: 12 })];
    expect(busiestFirst(live).map((s) => s.id)).toEqual(['b', 'c', 'a']);
  });
});
