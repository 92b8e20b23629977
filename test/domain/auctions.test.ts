import { describe, expect, it } from 'vitest';
import { deriveAuctionStatus, parseEndTime, ZAuctionInput, ZAuctionListQuery } from '../../src/domain/auctions.js';

describe('parseEndTime (SPEC §3: a timestamp, number or string)', () => {
  const at = Date.UTC(2026, 10, 22, 18, 30);
  it.each([
    ['epoch ms', at],
    ['epoch ms as digits', String(at)],
    ['an ISO string', new Date(at).toISOString()],
    ['an ISO string with an offset', '2026-11-22T12:30:00-06:00'],
    ['a timestamp', { seconds: at / 1000, nanoseconds: 0 }],
    ['a serialised timestamp', { _seconds: at / 1000, _nanoseconds: 0 }],
  ])('reads %s', (_label, value) => {
    expect(parseEndTime(value)?.getTime()).toBe(at);
  });

  it('keeps the milliseconds of a timestamp', () => {
    expect(parseEndTime({ seconds: 1_800_000_000, nanoseconds: 250_000_000 })?.getTime()).toBe(1_800_000_000_250);
  });

  it('reads null and an empty string as no end time', () => {
    expect(parseEndTime(null)).toBeNull();
    expect(parseEndTime('')).toBeNull();
  });

  it.each([
    ['words', 'mañana a las 8'],
    ['seconds instead of ms', 1_800_000_000],
    ['a date before 2000', '1999-12-31T00:00:00Z'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a boolean', true],
    ['an array', [at]],
    ['an object without seconds', { dia: 22 }],
    ['an impossible date', '2026-13-45T00:00:00Z'],
  ])('refuses %s', (_label, value) => {
    expect(parseEndTime(value)).toBeUndefined();
  });
});

describe('deriveAuctionStatus (SPEC §4)', () => {
  const now = 1_800_000_000_000;
  it('ends any auction whose end time has passed', () => {
    expect(deriveAuctionStatus('active', now - 1, now)).toBe('ended');
    expect(deriveAuctionStatus('live', now, now)).toBe('ended');
    expect(deriveAuctionStatus('pending', now - 1, now)).toBe('ended');
  });
  it('keeps the stored status otherwise', () => {
    expect(deriveAuctionStatus('active', now + 1, now)).toBe('active');
    expect(deriveAuctionStatus('pending', null, now)).toBe('pending');
    expect(deriveAuctionStatus('ended', now + 60_000, now)).toBe('ended');
  });
});

describe('ZAuctionInput', () => {
  const valid = { name: ' Reloj ', description: 'Casio', categoryId: '6f1c2b4e-8a1d-4c1e-9b1a-2f3e4d5c6b7a', startingPrice: 300 };
  it('trims text and fills the optional fields', () => {
    expect(ZAuctionInput.parse(valid)).toEqual({
      ...valid,
      name: 'Reloj',
      buyNowPrice: null,
      condicion: null,
      marca: null,
      envio: null,
      endTime: null,
      images: [],
    });
  });
  it('reports every problem at once with catalogue codes', () => {
    const result = ZAuctionInput.safeParse({ ...valid, name: '', startingPrice: 500, buyNowPrice: 400, images: ['/a.jpg', '/a.jpg'] });
    expect(result.success).toBe(false);
    const codes = Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(codes).toEqual({ name: 'nameRequired', buyNowPrice: 'buyNowNotAbove', images: 'imageDuplicate' });
  });
});

describe('ZAuctionListQuery', () => {
  it('defaults to the first page of 20 of every auction', () => {
    expect(ZAuctionListQuery.parse({})).toEqual({ filter: 'all', search: '', page: 1, pageSize: 20 });
  });
  it('takes only the page sizes the panel offers', () => {
    expect(ZAuctionListQuery.safeParse({ pageSize: '50' }).success).toBe(true);
    expect(ZAuctionListQuery.safeParse({ pageSize: '25' }).success).toBe(false);
  });
});
