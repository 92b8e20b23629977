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
 * version is higher (events may be coalesced or overtaken by an answer). When lines went missing
 * in between (a hot auction's events carry only the newest lines), the history restarts from the
 * lines that arrived and 'Ver más' pages back from them: no refetch, so a thousand viewers of a
 * bidding war do not all ask the server for the history at every event.
 */
export function applyLiveUpdate(data: HistoryData | undefined, update: LiveUpdate): HistoryData | undefined {
  const first = data?.pages[0];
  if (!data || !first) return data;
  const lastSeq = lastSeqOf(data);
  const fresh = update.bids.filter((b) => b.seq > lastSeq).sort((a, b) => a.seq - b.seq);
  const oldest = fresh[0];
  const isGap = oldest !== undefined && oldest.seq !== lastSeq + 1;
  const isNewer = update.state.version > first.state.version;
  const hasMe = update.me !== undefined;
  if (!fresh.length && !isNewer && !hasMe) return data;
  const total = Math.max(first.total + fresh.length, fresh.at(-1)?.seq ?? 0);
  const page: HistoryPage = {
    ...first,
    items: isGap ? mergeBids(fresh) : fresh.length ? mergeBids(fresh, first.items) : first.items,
    total,
    nextBefore: isGap ? (oldest.seq > 1 ? oldest.seq : null) : first.nextBefore,
    state: isNewer ? update.state : first.state,
    receivedAt: isNewer ? update.receivedAt : first.receivedAt,
    me: hasMe ? (update.me ?? null) : first.me,
  };
  if (isGap) return { pages: [page], pageParams: [data.pageParams[0] ?? null] };
  return { ...data, pages: [page, ...data.pages.slice(1)] };
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
