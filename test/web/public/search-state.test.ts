import { describe, expect, it } from 'vitest';
import type { SearchItem } from '../../../src/web/api/home';
import { queryState, resultWhen, searchPageUrl } from '../../../src/web/public/search/search-state';

const item = (over: Partial<SearchItem>): SearchItem => ({
  kind: 'lot',
  auctionId: 'a1',
  sessionId: 's1',
  name: 'Relój Seiko',
  imageUrl: null,
  price: 1800,
  startsAt: null,
  url: '/live/tienda/s1?lote=a1',
  ...over,
});

describe('what a typed search asks', () => {
  it('waits for two characters, counted trimmed, and refuses more than a hundred', () => {
    expect(queryState('')).toEqual({ kind: 'empty' });
    expect(queryState('   ')).toEqual({ kind: 'empty' });
    expect(queryState(' r ')).toEqual({ kind: 'tooShort' });
    expect(queryState(' re ')).toEqual({ kind: 'ready', q: 're' });
    expect(queryState('x'.repeat(100))).toEqual({ kind: 'ready', q: 'x'.repeat(100) });
    expect(queryState('x'.repeat(101))).toEqual({ kind: 'tooLong' });
  });
});

describe("a result's time", () => {
  it('says a lot of a show on now is live, else the show’s time', () => {
    expect(resultWhen(item({ live: true, startsAt: 1_000 }))).toEqual({ kind: 'live' });
    expect(resultWhen(item({ live: false, startsAt: 2_000 }))).toEqual({ kind: 'show', at: 2_000 });
  });

  it('says an auction and when it ends', () => {
    expect(resultWhen(item({ kind: 'auction', sessionId: null, endsAt: 5_000 }))).toEqual({ kind: 'auction', endsAt: 5_000 });
    expect(resultWhen(item({ kind: 'auction', sessionId: null }))).toEqual({ kind: 'auction', endsAt: null });
  });
});

describe("the search page's address", () => {
  it('carries the query and the category, encoded', () => {
    expect(searchPageUrl('relój seiko', null)).toBe('/buscar?q=rel%C3%B3j+seiko');
    expect(searchPageUrl('tenis', 'c1')).toBe('/buscar?q=tenis&categoria=c1');
    expect(searchPageUrl('', null)).toBe('/buscar');
  });
});
