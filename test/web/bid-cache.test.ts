import { describe, expect, it } from 'vitest';
import type { AuctionLiveState, BidView } from '../../src/domain/bidding';
import { applyLiveUpdate, flattenHistory, type HistoryData, type HistoryPage, mergeBids, reconcileHistory } from '../../src/web/api/bid-cache';

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
    antiSnipeSeconds: 10,
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
    const { data: next, isGap } = applyLiveUpdate(data, { state: state(5), bids: [bid(4), bid(5)], receivedAt: 99 });
    expect(isGap).toBe(false);
    expect(seqs(next)).toEqual([5, 4, 3, 2, 1]);
    expect(next?.pages[0]?.state.version).toBe(5);
    expect(next?.pages[0]?.receivedAt).toBe(99);
    expect(next?.pages[0]?.total).toBe(5);
  });

  it('ignores an older or equal state but still keeps lines it did not have', () => {
    const data = history(page(range(1, 5)));
    const stale = applyLiveUpdate(data, { state: state(4), bids: [bid(4)], receivedAt: 99 });
    expect(stale.data).toBe(data);
    expect(stale.isGap).toBe(false);

    // The answer to my bid came first (version 6, my line 6); the room's event then brings 6 and the other bidder's 7 at version 7.
    const mine = applyLiveUpdate(data, { state: state(6), bids: [bid(6)], me: { tag: 'a', myMaxAmount: 900 }, receivedAt: 100 }).data;
    const event = applyLiveUpdate(mine, { state: state(7), bids: [bid(6), bid(7)], receivedAt: 101 }).data;
    expect(seqs(event)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(event?.pages[0]?.me).toEqual({ tag: 'a', myMaxAmount: 900 });
    expect(event?.pages[0]?.state.version).toBe(7);
  });

  it('reports a gap when the first new line is not the next seq (coalesced or missed events)', () => {
    const data = history(page(range(1, 3)));
    const { data: next, isGap } = applyLiveUpdate(data, { state: state(9), bids: [bid(8), bid(9)], receivedAt: 5 });
    expect(isGap).toBe(true);
    // The state is still the newest known; the refetch fills the hole.
    expect(next?.pages[0]?.state.version).toBe(9);
  });

  it('takes the first bid of an auction as seq 1 after an empty history', () => {
    const empty = history(page([], { total: 0, state: state(0, { currentPrice: null, leaderTag: null }) }));
    const { data, isGap } = applyLiveUpdate(empty, { state: state(1), bids: [bid(1)], receivedAt: 5 });
    expect(isGap).toBe(false);
    expect(seqs(data)).toEqual([1]);
  });

  it('applies a state with no lines (an extension or the close)', () => {
    const data = history(page(range(1, 2)));
    const closed = state(3, { status: 'ended', winnerTag: 'b', winnerName: 'Be***' });
    const { data: next, isGap } = applyLiveUpdate(data, { state: closed, bids: [], receivedAt: 5 });
    expect(isGap).toBe(false);
    expect(next?.pages[0]?.state.status).toBe('ended');
    expect(seqs(next)).toEqual([2, 1]);
  });

  it('leaves older pages alone and does nothing before the first fetch', () => {
    const data = history(page(range(31, 60), { nextBefore: 31 }), page(range(1, 30)));
    const { data: next } = applyLiveUpdate(data, { state: state(61), bids: [bid(61)], receivedAt: 5 });
    expect(next?.pages[1]).toBe(data.pages[1]);
    expect(seqs(next)).toHaveLength(61);
    expect(applyLiveUpdate(undefined, { state: state(1), bids: [bid(1)], receivedAt: 5 })).toEqual({ data: undefined, isGap: false });
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
    const held = applyLiveUpdate(history(page(range(1, 4))), { state: state(6), bids: [bid(5), bid(6)], receivedAt: 50 }).data as HistoryData;
    const fetched = history(page(range(1, 5), { receivedAt: 60 }));
    const merged = reconcileHistory(held, fetched);
    expect(merged.pages[0]?.state.version).toBe(6);
    expect(merged.pages[0]?.receivedAt).toBe(50);
    expect(seqs(merged)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(merged.pages[0]?.total).toBe(6);
  });
});
