import type { InfiniteData } from '@tanstack/react-query';
import type { AuctionLiveState, BidderView, BidHistory, BidView } from '../../domain/bidding.js';

/**
 * How the bid history cache takes in what arrives between fetches: room events, bid answers and the
 * state a 409 carries. Pure, so the merge rules (version order, gaps, duplicates) are unit-tested.
 */

/** One fetched page, stamped with the device time it arrived (to correct the countdown by serverNow). */
export interface HistoryPage extends BidHistory {
  receivedAt: number;
}

/** The cached history: page 0 is the newest and holds the live state; `before` cursors page back. */
export type HistoryData = InfiniteData<HistoryPage, number | null>;

export interface LiveUpdate {
  state: AuctionLiveState;
  /** New lines, oldest first (as events and answers send them). */
  bids: BidView[];
  /** A bid answer tells the bidder about themself; events do not. */
  me?: BidderView | null;
  receivedAt: number;
}

/** Union by seq, newest first: a line may arrive in an answer and again in the room's event. */
export function mergeBids(...lists: BidView[][]): BidView[] {
  const bySeq = new Map<number, BidView>();
  for (const list of lists) for (const bid of list) if (!bySeq.has(bid.seq)) bySeq.set(bid.seq, bid);
  return [...bySeq.values()].sort((a, b) => b.seq - a.seq);
}

/** The highest seq held, 0 before the first bid. */
export function lastSeqOf(data: HistoryData | undefined): number {
  return data?.pages[0]?.items[0]?.seq ?? 0;
}

/**
 * Applies an event or answer to the cached history. The state replaces the held one only when its
 * version is higher (events may be coalesced or overtaken by an answer). `isGap` says lines went
 * missing (the first new seq is not the last held plus one): the caller refetches to converge.
 */
export function applyLiveUpdate(data: HistoryData | undefined, update: LiveUpdate): { data: HistoryData | undefined; isGap: boolean } {
  const first = data?.pages[0];
  if (!data || !first) return { data, isGap: false };
  const lastSeq = lastSeqOf(data);
  const fresh = update.bids.filter((b) => b.seq > lastSeq).sort((a, b) => a.seq - b.seq);
  const isGap = fresh.length > 0 && fresh[0]?.seq !== lastSeq + 1;
  const isNewer = update.state.version > first.state.version;
  const hasMe = update.me !== undefined;
  if (!fresh.length && !isNewer && !hasMe) return { data, isGap };
  const page: HistoryPage = {
    ...first,
    items: fresh.length ? mergeBids(fresh, first.items) : first.items,
    total: Math.max(first.total + fresh.length, fresh.at(-1)?.seq ?? 0),
    state: isNewer ? update.state : first.state,
    receivedAt: isNewer ? update.receivedAt : first.receivedAt,
    me: hasMe ? (update.me ?? null) : first.me,
  };
  return { data: { ...data, pages: [page, ...data.pages.slice(1)] }, isGap };
}

/**
 * A refetch may answer with an older state than one an event already brought (the event overtook
 * the request). Keep the newer state and the lines newer than the fetched page; else take the fetch.
 */
export function reconcileHistory(old: HistoryData | undefined, fetched: HistoryData): HistoryData {
  const oldFirst = old?.pages[0];
  const newFirst = fetched.pages[0];
  if (!oldFirst || !newFirst || oldFirst.state.version <= newFirst.state.version) return fetched;
  const fetchedTop = newFirst.items[0]?.seq ?? 0;
  const extra = oldFirst.items.filter((b) => b.seq > fetchedTop);
  const page: HistoryPage = {
    ...newFirst,
    state: oldFirst.state,
    receivedAt: oldFirst.receivedAt,
    items: mergeBids(extra, newFirst.items),
    total: newFirst.total + extra.length,
  };
  return { ...fetched, pages: [page, ...fetched.pages.slice(1)] };
}

/** Every line held, newest first, each once. */
export function flattenHistory(data: HistoryData | undefined): BidView[] {
  return data ? mergeBids(...data.pages.map((p) => p.items)) : [];
}
