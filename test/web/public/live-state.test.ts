import { describe, expect, it } from 'vitest';
import type { PublicAuction } from '../../../src/domain/auctions';
import type { AuctionLiveState } from '../../../src/domain/bidding';
import { checkBid } from '../../../src/web/public/bidding/bid-input';
import { liveTransitions, stateFromAuction } from '../../../src/web/public/bidding/live-state';

const END = 1_000_000;
const base: AuctionLiveState = {
  id: 'a1',
  version: 10,
  status: 'active',
  currentPrice: 600,
  bidCount: 3,
  startingPrice: 500,
  buyNowPrice: 2000,
  nextMinimum: 620,
  minIncrement: 20,
  incrementBands: null,
  timerMode: 'extend',
  antiSnipeSeconds: 10,
  counterBidResetSeconds: 10,
  endTime: END,
  leaderTag: 'me',
  winnerName: null,
  winnerTag: null,
  serverNow: 900_000,
};
const next = (over: Partial<AuctionLiveState>) => ({ ...base, version: base.version + 1, ...over });

describe('liveTransitions', () => {
  it('tells the leader they were outbid, once the state moves on', () => {
    expect(liveTransitions(base, next({ leaderTag: 'other', currentPrice: 620 }), 'me')).toMatchObject({ outbid: true, extended: false, ended: false });
    // Someone else being outbid is not my news; nor is a state I already had.
    expect(liveTransitions({ ...base, leaderTag: 'x' }, next({ leaderTag: 'y' }), 'me').outbid).toBe(false);
    expect(liveTransitions(base, { ...base, leaderTag: 'other' }, 'me').outbid).toBe(false);
    expect(liveTransitions(base, next({ leaderTag: 'other' }), null).outbid).toBe(false);
  });

  it('notices an anti-snipe extension of the end time', () => {
    expect(liveTransitions(base, next({ endTime: END + 7000 }), 'me').extended).toBe(true);
    expect(liveTransitions(base, next({ endTime: base.endTime }), 'me').extended).toBe(false);
  });

  it('announces the close, and the win to the winner only', () => {
    const closed = next({ status: 'ended', winnerTag: 'me', winnerName: 'Ju***' });
    expect(liveTransitions(base, closed, 'me')).toMatchObject({ ended: true, won: true, outbid: false });
    expect(liveTransitions(base, closed, 'other')).toMatchObject({ ended: true, won: false });
    expect(liveTransitions(null, closed, 'me').ended).toBe(false);
  });
});

describe('stateFromAuction', () => {
  it('stands in for the live state until the history arrives', () => {
    const auction = {
      id: 'a1',
      version: 4,
      status: 'active',
      currentPrice: null,
      bidCount: 0,
      startingPrice: 500,
      buyNowPrice: null,
      endTime: 5,
      currentWinnerName: null,
      serverNow: 3,
    } as PublicAuction;
    expect(stateFromAuction(auction)).toMatchObject({ currentPrice: null, nextMinimum: 500, minIncrement: 20, leaderTag: null });
    expect(stateFromAuction({ ...auction, currentPrice: 700, bidCount: 2 })).toMatchObject({ currentPrice: 700, nextMinimum: 720 });
  });
});

describe('checkBid', () => {
  it('accepts whole pesos at or above the minimum, with an optional maximum not below the bid', () => {
    expect(checkBid(620, '', false, 620)).toBeNull();
    expect(checkBid(620, 1000, true, 620)).toBeNull();
  });

  it('names what is wrong with catalogue keys', () => {
    expect(checkBid('', '', false, 620)).toEqual({ amount: 'bidRequired' });
    expect(checkBid(600, '', false, 620)).toEqual({ amount: 'belowMinimum' });
    expect(checkBid(620.5, '', false, 620)).toEqual({ amount: 'bidInteger' });
    expect(checkBid(1_000_000_000, '', false, 620)).toEqual({ amount: 'bidTooHigh' });
    expect(checkBid(700, 650, true, 620)).toEqual({ maxAmount: 'maxBelowAmount' });
    expect(checkBid(700, '', true, 620)).toEqual({ maxAmount: 'bidRequired' });
    // The maximum is ignored while automatic bidding is off.
    expect(checkBid(700, 650, false, 620)).toBeNull();
  });
});
