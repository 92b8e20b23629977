import { describe, expect, it } from 'vitest';
import type { LockableAuction } from '../../../src/domain/auction-lock.js';
import { type AuctionFormValues, followServerEndTime, validateAuction } from '../../../src/web/components/auction-form/form-values';

/** The form runs the server's lock rule for an auction with bids, so a refused change shows before Save. */
describe('the auction form on an auction with bids', () => {
  const now = Date.UTC(2026, 10, 23, 18, 0);
  const end = now + 3_600_000;
  const stored: LockableAuction = {
    name: 'Reloj Seiko',
    description: 'Automático, funciona.',
    condicion: 'Como Nuevo',
    marca: 'Seiko',
    envio: null,
    startingPrice: 1500,
    buyNowPrice: 4000,
    endTime: end,
    images: ['/uploads/a.jpg'],
    status: 'active',
  };
  const values: AuctionFormValues = {
    name: 'Reloj Seiko',
    description: 'Automático, funciona.',
    categoryId: '6f1c2b4e-8a1d-4c1e-9b1a-2f3e4d5c6b7a',
    startingPrice: 1500,
    buyNowPrice: 4000,
    condicion: 'Como Nuevo',
    marca: 'Seiko',
    envio: '',
    endTime: end,
    status: 'active',
  };
  const context = { initial: { endTime: end, status: 'active' as const }, now, locked: stored };

  it('saves the auction as loaded, a later end, buy-now removed and an added photo', () => {
    expect(validateAuction(values, ['/uploads/a.jpg'], context).ok).toBe(true);
    const later = { ...values, endTime: end + 60_000, buyNowPrice: '' as const };
    expect(validateAuction(later, ['/uploads/b.jpg', '/uploads/a.jpg'], context).ok).toBe(true);
  });

  it('names an earlier end, a changed buy-now and a removed photo before Save', () => {
    const result = validateAuction({ ...values, endTime: end - 60_000, buyNowPrice: 1600 }, [], context);
    expect(result).toEqual({ ok: false, errors: { endTime: 'endTimeOnlyLater', buyNowPrice: 'buyNowOnlyRemove', images: 'imagesKeepExisting' } });
  });

  it('checks nothing of the kind without bids', () => {
    expect(validateAuction({ ...values, endTime: end - 60_000, buyNowPrice: 1600 }, [], { ...context, locked: null }).ok).toBe(true);
  });

  it('follows an end time that anti-sniping moved while the form was open, unless the seller changed it', () => {
    const extended = end + 10_000;
    // Untouched: the form now holds the server's end, which Save may send (later than stored).
    const followed = followServerEndTime(values, end, extended);
    expect(followed.endTime).toBe(extended);
    expect(validateAuction(followed, ['/uploads/a.jpg'], context).ok).toBe(true);
    // The old end, sent back after the extension, would be an earlier end: what following avoids.
    expect(validateAuction(values, ['/uploads/a.jpg'], { ...context, locked: { ...stored, endTime: extended } })).toEqual({
      ok: false,
      errors: { endTime: 'endTimeOnlyLater' },
    });
    // Changed by the seller: kept as typed.
    const typed = { ...values, endTime: end + 3_600_000 };
    expect(followServerEndTime(typed, end, extended)).toBe(typed);
    // Nothing moved: nothing to follow.
    expect(followServerEndTime(values, end, end)).toBe(values);
  });
});
