import { describe, expect, it } from 'vitest';
import type { AuctionLiveState } from '../../../src/domain/bidding';
import {
  acceptBinding,
  bindingKey,
  hasAcceptedBinding,
  leaderOf,
  leaderWording,
  noticeDuration,
  primaryAction,
} from '../../../src/web/public/live/phone/one-tap';

const base: AuctionLiveState = {
  id: 'a1',
  version: 4,
  status: 'live',
  currentPrice: 900,
  bidCount: 2,
  startingPrice: 500,
  buyNowPrice: null,
  nextMinimum: 920,
  minIncrement: 20,
  incrementBands: null,
  timerMode: 'extend',
  antiSnipeSeconds: 10,
  counterBidResetSeconds: 10,
  endTime: 2_000_000,
  leaderTag: 'other',
  winnerName: null,
  winnerTag: null,
  serverNow: 1_000_000,
};
const act = (over: Partial<AuctionLiveState>, opts: { isOver?: boolean; isOwnAuction?: boolean; myTag?: string | null; isBlocked?: boolean } = {}) =>
  primaryAction({
    state: { ...base, ...over },
    isOver: opts.isOver ?? false,
    isOwnAuction: opts.isOwnAuction ?? false,
    myTag: opts.myTag ?? 'me',
    isBlocked: opts.isBlocked ?? false,
  });

/** A Storage stand-in in memory, optionally refusing every call as a blocked storage does. */
function memoryStorage(opts: { broken?: boolean } = {}) {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => {
      if (opts.broken) throw new Error('SecurityError');
      return items.get(key) ?? null;
    },
    setItem: (key: string, value: string) => {
      if (opts.broken) throw new Error('QuotaExceededError');
      items.set(key, value);
    },
  };
}

describe('the one-tap button', () => {
  it('offers exactly the next minimum from the server, and nothing else, while the lot runs', () => {
    expect(act({})).toEqual({ kind: 'bid', amount: 920 });
    expect(act({ currentPrice: null, bidCount: 0, leaderTag: null, nextMinimum: 500 })).toEqual({ kind: 'bid', amount: 500 });
    // Signed out there is no tag: still the amount (the tap leads to sign-in).
    expect(act({}, { myTag: null })).toEqual({ kind: 'bid', amount: 920 });
  });

  it('does not bid against the leader themself: it says they lead', () => {
    expect(act({ leaderTag: 'me' })).toEqual({ kind: 'leading' });
  });

  it('stops offering a bid once the clock passed, the lot closed, before it opens, and on the own company’s lot', () => {
    expect(act({}, { isOver: true })).toEqual({ kind: 'closing' });
    expect(act({ status: 'ended', winnerTag: 'me' })).toEqual({ kind: 'ended', isWinner: true });
    expect(act({ status: 'ended', winnerTag: 'other' })).toEqual({ kind: 'ended', isWinner: false });
    expect(act({ status: 'ended', winnerTag: null }, { myTag: null })).toEqual({ kind: 'ended', isWinner: false });
    expect(act({ status: 'pending' })).toEqual({ kind: 'pending' });
    expect(act({}, { isOwnAuction: true })).toEqual({ kind: 'own' });
  });

  it('offers nothing to a buyer the seller blocked, leading or not, while the lot runs; the close still says who won', () => {
    expect(act({}, { isBlocked: true })).toEqual({ kind: 'blocked' });
    expect(act({ leaderTag: 'me' }, { isBlocked: true })).toEqual({ kind: 'blocked' });
    expect(act({ status: 'ended', winnerTag: 'other' }, { isBlocked: true })).toEqual({ kind: 'ended', isWinner: false });
  });
});

describe('the leader on the lot card', () => {
  const items = [
    { bidderTag: 'other', bidderName: 'Br***' },
    { bidderTag: 'me', bidderName: 'An***' },
  ];
  it('names the leader masked, from their line in the history, or says it is the viewer', () => {
    expect(leaderOf(base, items, 'me')).toEqual({ kind: 'other', name: 'Br***' });
    expect(leaderOf({ ...base, leaderTag: 'me' }, items, 'me')).toEqual({ kind: 'me' });
    expect(leaderOf(base, items, null)).toEqual({ kind: 'other', name: 'Br***' });
  });
  it('says nothing before a first bid or while the leader’s line has not arrived', () => {
    expect(leaderOf({ ...base, leaderTag: null, bidCount: 0 }, items, 'me')).toBeNull();
    expect(leaderOf({ ...base, leaderTag: 'third' }, items, 'me')).toBeNull();
  });
});

describe('what the lot card says of the leader', () => {
  it('says the viewer leads while the lot runs, and that they won once it sold, never that they are winning', () => {
    expect(leaderWording({ kind: 'me' }, { status: 'live', bidCount: 2 })).toBe('you');
    expect(leaderWording({ kind: 'me' }, { status: 'ended', bidCount: 2 })).toBe('youWon');
  });

  it('names another leader while the lot runs, and leaves their win to the outcome', () => {
    expect(leaderWording({ kind: 'other', name: 'Ju***' }, { status: 'live', bidCount: 1 })).toBe('other');
    expect(leaderWording({ kind: 'other', name: 'Ju***' }, { status: 'ended', bidCount: 1 })).toBeNull();
  });

  it('says nobody bid, before and after the close', () => {
    expect(leaderWording(null, { status: 'live', bidCount: 0 })).toBe('noBids');
    expect(leaderWording(null, { status: 'ended', bidCount: 0 })).toBe('noBidsEnded');
    expect(leaderWording(null, { status: 'live', bidCount: 3 })).toBeNull();
  });
});

describe('the binding acknowledgement', () => {
  it('is remembered per show and per buyer', () => {
    const storage = memoryStorage();
    expect(hasAcceptedBinding(storage, 's1', 'u1')).toBe(false);
    acceptBinding(storage, 's1', 'u1');
    expect(hasAcceptedBinding(storage, 's1', 'u1')).toBe(true);
    expect(hasAcceptedBinding(storage, 's2', 'u1')).toBe(false);
    expect(hasAcceptedBinding(storage, 's1', 'u2')).toBe(false);
    expect([...storage.items.keys()]).toEqual([bindingKey('s1', 'u1')]);
  });
  it('asks again where the storage cannot be read or written, and never throws', () => {
    const broken = memoryStorage({ broken: true });
    expect(() => acceptBinding(broken, 's1', 'u1')).not.toThrow();
    expect(hasAcceptedBinding(broken, 's1', 'u1')).toBe(false);
    expect(hasAcceptedBinding(null, 's1', 'u1')).toBe(false);
  });
});

describe('notice durations', () => {
  it('keeps the close on screen longer than the running notices, and every one leaves', () => {
    expect(noticeDuration('won')).toBeGreaterThan(noticeDuration('outbid'));
    for (const kind of ['outbid', 'winning', 'maxRaised', 'extended', 'won', 'lost', 'closed']) expect(noticeDuration(kind)).toBeGreaterThan(0);
  });
});
