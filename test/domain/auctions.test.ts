import { describe, expect, it } from 'vitest';
import { deleteBlock } from '../../src/domain/auction-list.js';
import { LOCK_CODES, type LockableAuction, type LockableEdit, lockedChanges } from '../../src/domain/auction-lock.js';
import { AUCTION_FIELD_ERRORS, deriveAuctionStatus, parseEndTime, scheduleLock, ZAuctionInput, ZAuctionListQuery } from '../../src/domain/auctions.js';

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

describe('lockedChanges (an auction with bids keeps what bidders relied on)', () => {
  const end = 1_800_000_000_000;
  const before: LockableAuction = {
    name: 'Reloj Casio',
    description: 'Funciona, con caja.',
    condicion: 'Como Nuevo',
    marca: 'Casio',
    envio: 'Envío gratis',
    startingPrice: 300,
    buyNowPrice: 900,
    endTime: end,
    images: ['/a.jpg', '/b.jpg'],
    status: 'active',
  };
  const same = (): LockableEdit => ({ ...before, images: [...before.images] });

  it('finds nothing in the whole auction sent back unchanged, with the status omitted or blank text as null', () => {
    expect(lockedChanges(before, same(), { hasBids: true })).toEqual({});
    expect(lockedChanges(before, { ...same(), status: undefined }, { hasBids: true })).toEqual({});
    const blank = { ...before, marca: null, envio: '' };
    expect(lockedChanges(blank, { ...same(), marca: '', envio: null }, { hasBids: true })).toEqual({});
  });

  it.each([
    ['name', { name: 'Reloj Rolex' }],
    ['description', { description: 'Funciona, sin caja.' }],
    ['condicion', { condicion: 'Nuevo' }],
    ['condicion', { condicion: null }],
    ['marca', { marca: 'Rolex' }],
    ['envio', { envio: null }],
    ['startingPrice', { startingPrice: 100 }],
    ['status', { status: 'pending' }],
  ] as const)('locks %s once there are bids', (field, change) => {
    expect(lockedChanges(before, { ...same(), ...change }, { hasBids: true })).toEqual({ [field]: 'lockedByBids' });
  });

  it('lets the end time move later or stay, never earlier or away', () => {
    expect(lockedChanges(before, { ...same(), endTime: end + 60_000 }, { hasBids: true })).toEqual({});
    expect(lockedChanges(before, { ...same(), endTime: end - 1 }, { hasBids: true })).toEqual({ endTime: 'endTimeOnlyLater' });
    expect(lockedChanges(before, { ...same(), endTime: null }, { hasBids: true })).toEqual({ endTime: 'endTimeOnlyLater' });
    // No end time stored (a live lot): the Live Hub times it, not this form.
    const open = { ...before, endTime: null };
    expect(lockedChanges(open, { ...same(), endTime: null }, { hasBids: true })).toEqual({});
    expect(lockedChanges(open, { ...same(), endTime: end }, { hasBids: true })).toEqual({ endTime: 'endTimeOnlyLater' });
  });

  it('lets buy-now be removed, not changed or added', () => {
    expect(lockedChanges(before, { ...same(), buyNowPrice: null }, { hasBids: true })).toEqual({});
    expect(lockedChanges(before, { ...same(), buyNowPrice: 301 }, { hasBids: true })).toEqual({ buyNowPrice: 'buyNowOnlyRemove' });
    expect(lockedChanges(before, { ...same(), buyNowPrice: 5000 }, { hasBids: true })).toEqual({ buyNowPrice: 'buyNowOnlyRemove' });
    const none = { ...before, buyNowPrice: null };
    expect(lockedChanges(none, { ...same(), buyNowPrice: 500 }, { hasBids: true })).toEqual({ buyNowPrice: 'buyNowOnlyRemove' });
  });

  it('lets images be added and reordered, never removed', () => {
    expect(lockedChanges(before, { ...same(), images: ['/b.jpg', '/a.jpg', '/c.jpg'] }, { hasBids: true })).toEqual({});
    expect(lockedChanges(before, { ...same(), images: ['/a.jpg', '/c.jpg'] }, { hasBids: true })).toEqual({ images: 'imagesKeepExisting' });
  });

  it('names every locked field at once, and locks nothing without bids', () => {
    const everything: LockableEdit = {
      name: 'Otro',
      description: 'Otra',
      condicion: null,
      marca: null,
      envio: null,
      startingPrice: 1,
      buyNowPrice: 2,
      endTime: end - 1,
      images: [],
      status: 'pending',
    };
    expect(lockedChanges(before, everything, { hasBids: false })).toEqual({});
    expect(Object.keys(lockedChanges(before, everything, { hasBids: true })).sort()).toEqual(
      ['buyNowPrice', 'condicion', 'description', 'endTime', 'envio', 'images', 'marca', 'name', 'startingPrice', 'status'].sort(),
    );
  });

  it('has a catalogue code for every lock, among the form codes', () => {
    for (const code of LOCK_CODES) expect(AUCTION_FIELD_ERRORS).toContain(code);
  });
});

describe('what the panel disables before Save, with the reason', () => {
  it('deleteBlock: bids first, then a payment or a live session, as the server checks', () => {
    expect(deleteBlock({ bidCount: 0, heldBy: null })).toBeNull();
    expect(deleteBlock({ bidCount: 2, heldBy: 'payment' })).toBe('bids');
    expect(deleteBlock({ bidCount: 0, heldBy: 'payment' })).toBe('payment');
    expect(deleteBlock({ bidCount: 0, heldBy: 'liveSession' })).toBe('liveSession');
  });

  it('scheduleLock: a winner or a payment, or an end with bids', () => {
    const now = 1_000_000;
    const base = { currentWinnerId: null, paymentId: null, status: 'active' as const, endTime: now + 60_000, bidCount: 0 };
    expect(scheduleLock(base, now)).toBeNull();
    expect(scheduleLock({ ...base, bidCount: 3 }, now)).toBeNull();
    expect(scheduleLock({ ...base, currentWinnerId: 'u' }, now)).toBe('won');
    expect(scheduleLock({ ...base, paymentId: 'p' }, now)).toBe('won');
    expect(scheduleLock({ ...base, bidCount: 1, endTime: now - 1 }, now)).toBe('endedWithBids');
    expect(scheduleLock({ ...base, bidCount: 1, status: 'ended' }, now)).toBe('endedWithBids');
    // Ended without bids: it may be reopened.
    expect(scheduleLock({ ...base, endTime: now - 1 }, now)).toBeNull();
  });
});
