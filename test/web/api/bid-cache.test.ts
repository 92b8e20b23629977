import { describe, expect, it } from 'vitest';
import type { AuctionLiveState, BidView } from '../../../src/domain/bidding';
import { applyLiveUpdate, flattenHistory, type HistoryData, type HistoryPage, mergeBids, reconcileHistory } from '../../../src/web/api/bid-cache';

const AUCTION = '7d1c5d6e-3a0f-4b8e-9a51-0c2f4f5e6a7b';

function state(version: number, over: Partial<AuctionLiveState> = {}): AuctionLiveState {
  return {
    id: AUCTION,
    version,
    status: 'active',
    currentPrice: 500 + version * 20,
    bidCount: version,
    startingPrice: 500,
    buyNowPrice: null,
    nextMinimum: 520 + version * 20,
    minIncrement: 20,
    incrementBands: null,
    timerMode: 'extend',
    antiSnipeSeconds: 10,
    counterBidResetSeconds: 10,
    endTime: 2_000_000_000_000,
    leaderTag: 'a',
    winnerName: null,
    winnerTag: null,
    serverNow: 1_900_000_000_000 + version,
    ...over,
  };
}

const bid = (seq: number, over: Partial<BidView> = {}): BidView => ({
  seq,
  bidderName: 'Ju***',
  bidderTag: seq % 2 ? 'a' : 'b',
  amount: 480 + seq * 20,
  isAutomatic: false,
  createdAt: 1_900_000_000_000 + seq,
  ...over,
});

/** Newest first, as the API pages them. */
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => bid(to - i));

function page(items: BidView[], over: Partial<HistoryPage> = {}): HistoryPage {
  return { items, total: items[0]?.seq ?? 0, nextBefore: null, state: state(items[0]?.seq ?? 0), me: null, receivedAt: 1, ...over };
}

function history(...pages: HistoryPage[]): HistoryData {
  return { pages, pageParams: pages.map((_, i) => (i === 0 ? null : (pages[i - 1]?.nextBefore ?? null))) };
}

const seqs = (data: HistoryData | undefined) => flattenHistory(data).map((b) => b.seq);

describe('mergeBids', () => {
  it('keeps each line once, newest first', () => {
    expect(mergeBids([bid(3), bid(1)], [bid(2), bid(3)]).map((b) => b.seq)).toEqual([3, 2, 1]);
  });
});

describe('applyLiveUpdate', () => {
  it('adds the next lines on top and takes the newer state', () => {
    const data = history(page(range(1, 3)));
    const next = applyLiveUpdate(data, { state: state(5), bids: [bid(4), bid(5)], receivedAt: 99 });
    expect(seqs(next)).toEqual([5, 4, 3, 2, 1]);
    expect(next?.pages[0]?.state.version).toBe(5);
    expect(next?.pages[0]?.receivedAt).toBe(99);
    expect(next?.pages[0]?.total).toBe(5);
  });

  it('ignores an older or equal state but still keeps lines it did not have', () => {
    const data = history(page(range(1, 5)));
    expect(applyLiveUpdate(data, { state: state(4), bids: [bid(4)], receivedAt: 99 })).toBe(data);

    // The answer to my bid came first (version 6, my line 6); the room's event then brings 6 and the other bidder's 7 at version 7.
    const mine = applyLiveUpdate(data, { state: state(6), bids: [bid(6)], me: { tag: 'a', myMaxAmount: 900 }, receivedAt: 100 });
    const event = applyLiveUpdate(mine, { state: state(7), bids: [bid(6), bid(7)], receivedAt: 101 });
    expect(seqs(event)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(event?.pages[0]?.me).toEqual({ tag: 'a', myMaxAmount: 900 });
    expect(event?.pages[0]?.state.version).toBe(7);
  });

  it('restarts from the lines that arrived when some went missing, and pages back from them', () => {
    const data = history(page(range(31, 60), { nextBefore: 31, me: { tag: 'b', myMaxAmount: null } }), page(range(1, 30)));
    const next = applyLiveUpdate(data, { state: state(90), bids: [bid(88), bid(89), bid(90)], receivedAt: 5 });
    // Only what arrived is held; 'Ver más' asks for the lines before 88, so 61–87 are not lost.
    expect(seqs(next)).toEqual([90, 89, 88]);
    expect(next?.pages).toHaveLength(1);
    expect(next?.pageParams).toEqual([null]);
    expect(next?.pages[0]?.nextBefore).toBe(88);
    expect(next?.pages[0]?.total).toBe(90);
    expect(next?.pages[0]?.state.version).toBe(90);
    expect(next?.pages[0]?.me).toEqual({ tag: 'b', myMaxAmount: null });
    // The next event follows on from there.
    expect(seqs(applyLiveUpdate(next, { state: state(91), bids: [bid(91)], receivedAt: 6 }))).toEqual([91, 90, 89, 88]);
  });

  it('has nothing to page back to when the lines that arrived start at the first bid', () => {
    const empty = history(page([], { total: 0, state: state(0, { currentPrice: null, leaderTag: null }) }));
    const next = applyLiveUpdate(history(page(range(1, 1))), { state: state(3), bids: [bid(3)], receivedAt: 5 });
    expect(next?.pages[0]?.nextBefore).toBe(3);
    expect(applyLiveUpdate(empty, { state: state(2), bids: [bid(1), bid(2)], receivedAt: 5 })?.pages[0]?.nextBefore).toBeNull();
  });

  it('takes the first bid of an auction as seq 1 after an empty history', () => {
    const empty = history(page([], { total: 0, state: state(0, { currentPrice: null, leaderTag: null }) }));
    expect(seqs(applyLiveUpdate(empty, { state: state(1), bids: [bid(1)], receivedAt: 5 }))).toEqual([1]);
  });

  it('applies a state with no lines (an extension or the close)', () => {
    const data = history(page(range(1, 2)));
    const closed = state(3, { status: 'ended', winnerTag: 'b', winnerName: 'Be***' });
    const next = applyLiveUpdate(data, { state: closed, bids: [], receivedAt: 5 });
    expect(next?.pages[0]?.state.status).toBe('ended');
    expect(seqs(next)).toEqual([2, 1]);
  });

  it('leaves older pages alone and does nothing before the first fetch', () => {
    const data = history(page(range(31, 60), { nextBefore: 31 }), page(range(1, 30)));
    const next = applyLiveUpdate(data, { state: state(61), bids: [bid(61)], receivedAt: 5 });
    expect(next?.pages[1]).toBe(data.pages[1]);
    expect(seqs(next)).toHaveLength(61);
    expect(applyLiveUpdate(undefined, { state: state(1), bids: [bid(1)], receivedAt: 5 })).toBeUndefined();
  });
});

describe('reconcileHistory', () => {
  it('takes a refetch that is as new as or newer than what is held', () => {
    const old = history(page(range(1, 3)));
    const fetched = history(page(range(1, 4)));
    expect(reconcileHistory(old, fetched)).toBe(fetched);
    expect(reconcileHistory(undefined, fetched)).toBe(fetched);
  });

  it('keeps the newer state and lines when an event overtook the refetch', () => {
    const held = applyLiveUpdate(history(page(range(1, 4))), { state: state(6), bids: [bid(5), bid(6)], receivedAt: 50 }) as HistoryData;
    const fetched = history(page(range(1, 5), { receivedAt: 60 }));
    const merged = reconcileHistory(held, fetched);
    expect(merged.pages[0]?.state.version).toBe(6);
    expect(merged.pages[0]?.receivedAt).toBe(50);
    expect(seqs(merged)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(merged.pages[0]?.total).toBe(6);
  });
});
