import { type QueryClient, replaceEqualDeep, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { BID_PAGE_DEFAULT } from '../../domain/bid-rules.js';
import type { AuctionLiveState, BidAnswer, BidHistory, BuyNowAnswer } from '../../domain/bidding.js';
import { AUCTION_STATE_EVENT, OUTBID_EVENT, type OutbidEvent } from '../../domain/realtime.js';
import { randomUuid } from '../lib/browser';
import { auctionKeys } from './auctions';
import { applyLiveUpdate, type HistoryData, type HistoryPage, type LiveUpdate, reconcileHistory } from './bid-cache';
import { isUncertainFailure, sendWithDeadline } from './bid-deadline';
import { api, apiRequest, isApiError } from './client';
import { useRoomCatchUp } from './room-catch-up';
import { useRoom, useSocketEvent } from './socket';

export const bidKeys = {
  all: ['bids'] as const,
  history: (auctionId: string) => [...bidKeys.all, 'history', auctionId] as const,
};

const auctionPath = (auctionId: string) => `/api/auctions/${encodeURIComponent(auctionId)}`;

function historyUrl(auctionId: string, before: number | null): string {
  const query = new URLSearchParams({ limit: String(BID_PAGE_DEFAULT) });
  if (before !== null) query.set('before', String(before));
  return `${auctionPath(auctionId)}/bids?${query}`;
}

/**
 * GET /api/auctions/{id}/bids: the public history, newest first, with the live state and what the
 * viewer may know about themself. Page 0 is kept current by the room's events; 'Ver más' pages back.
 */
export function useBidHistory(auctionId: string) {
  return useInfiniteQuery<HistoryPage, Error, HistoryData, ReturnType<typeof bidKeys.history>, number | null>({
    queryKey: bidKeys.history(auctionId),
    queryFn: async ({ pageParam, signal }): Promise<HistoryPage> => {
      const page = await api.get<BidHistory>(historyUrl(auctionId, pageParam), signal);
      return { ...page, receivedAt: Date.now() };
    },
    initialPageParam: null,
    getNextPageParam: (last) => last.nextBefore,
    // A refetch that an event overtook must not set the price back.
    structuralSharing: (old, fetched) => replaceEqualDeep(old, reconcileHistory(old as HistoryData | undefined, fetched as HistoryData)),
  });
}

/** Applies an event or answer to the cache. */
export function applyLive(queryClient: QueryClient, auctionId: string, update: LiveUpdate): void {
  queryClient.setQueryData<HistoryData>(bidKeys.history(auctionId), (data) => applyLiveUpdate(data, update));
}

/** The state a 409 (BID_TOO_LOW, AUCTION_CLOSED, BUY_NOW_UNAVAILABLE) carries, if any. */
export function stateFromError(error: unknown): AuctionLiveState | null {
  if (!isApiError(error)) return null;
  const state = error.details.state as AuctionLiveState | undefined;
  return state && typeof state === 'object' && typeof state.version === 'number' ? state : null;
}

export { isUncertainFailure, SEND_ERROR_CODES } from './bid-deadline';

/** One press of 'Confirmar puja' (or 'Comprar ahora'): its key is reused by every retry of it. */
export interface BidAttempt {
  amount: number;
  maxAmount: number | null;
  key: string;
}

/** A fresh Idempotency-Key. */
export function newIdempotencyKey(): string {
  return randomUuid();
}

/**
 * A bid or purchase is sent now or never: no pause while offline (networkMode 'always') and no
 * TanStack retry (one could resume by itself minutes later); sendWithDeadline retries within its
 * time limit only.
 */
const SEND_NOW = { networkMode: 'always', retry: false } as const;

/** A refusal carries the new state; an unknown outcome asks the server what happened. */
function applyErrorState(queryClient: QueryClient, auctionId: string, error: unknown): void {
  const state = stateFromError(error);
  if (state) applyLive(queryClient, auctionId, { state, bids: [], receivedAt: Date.now() });
  if (isUncertainFailure(error)) void queryClient.invalidateQueries({ queryKey: bidKeys.history(auctionId) });
}

const postWithKey = <T>(path: string, body: unknown, key: string) =>
  sendWithDeadline((signal) => apiRequest<T>(path, { method: 'POST', body, signal, headers: { 'Idempotency-Key': key } }));

/** POST /api/auctions/{id}/bids. The answer updates the cache at once (the room's event may come later). */
export function usePlaceBid(auctionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ amount, maxAmount, key }: BidAttempt) =>
      postWithKey<BidAnswer>(`${auctionPath(auctionId)}/bids`, maxAmount === null ? { amount } : { amount, maxAmount }, key),
    ...SEND_NOW,
    onSuccess: (answer) => applyLive(queryClient, auctionId, { state: answer.state, bids: answer.bids, me: answer.me, receivedAt: Date.now() }),
    onError: (error) => applyErrorState(queryClient, auctionId, error),
  });
}

/** POST /api/auctions/{id}/buy-now. */
export function useBuyNow(auctionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key }: { key: string }) => postWithKey<BuyNowAnswer>(`${auctionPath(auctionId)}/buy-now`, {}, key),
    ...SEND_NOW,
    onSuccess: (answer) => applyLive(queryClient, auctionId, { state: answer.state, bids: [answer.bid], me: answer.me, receivedAt: Date.now() }),
    onError: (error) => applyErrorState(queryClient, auctionId, error),
  });
}

export interface AuctionLiveHandlers {
  /** The signed-in viewer was outbid on this auction (their private room). */
  onOutbid?: (event: OutbidEvent) => void;
}

/** What the page holds of the auction (its record and its history), with the version each is at. */
function followedQueries(auctionId: string) {
  return [
    { key: auctionKeys.detail(auctionId), versionOf: (d: unknown) => (d as { version?: number } | null)?.version ?? null },
    { key: bidKeys.history(auctionId), versionOf: (d: unknown) => (d as HistoryData | undefined)?.pages[0]?.state.version ?? null },
  ];
}

/**
 * Keeps this page in the auction's public room (useRoom): applies `auctionState`, refetches on
 * `auctionUpdate`, and after each (re)join refetches what holds an older version than the join's
 * answer (so a first visit fetches each once, and a missed event cannot leave the page behind).
 * Returns whether it is live.
 */
export function useAuctionLive(auctionId: string, handlers: AuctionLiveHandlers = {}): { isConnected: boolean } {
  const queryClient = useQueryClient();
  const converge = () => {
    void queryClient.invalidateQueries({ queryKey: bidKeys.history(auctionId) });
    void queryClient.invalidateQueries({ queryKey: auctionKeys.detail(auctionId) });
  };
  const catchUp = useRoomCatchUp(queryClient, followedQueries(auctionId));
  const live = useRoom({ kind: 'auction', id: auctionId }, { onResync: (version) => catchUp(version) });
  useSocketEvent(AUCTION_STATE_EVENT, (event) => {
    if (event?.state?.id !== auctionId) return;
    applyLive(queryClient, auctionId, { state: event.state, bids: event.bids ?? [], receivedAt: Date.now() });
    // Arrived before the history did (and was dropped): the history must reach at least this version.
    catchUp(event.state.version, [bidKeys.history(auctionId)]);
  });
  useSocketEvent('auctionUpdate', (event) => {
    if (event?.id !== auctionId) return;
    if (event.deleted) queryClient.setQueryData(auctionKeys.detail(auctionId), null);
    else converge();
  });
  useSocketEvent(OUTBID_EVENT, (event) => {
    if (event?.auctionId === auctionId) handlers.onOutbid?.(event);
  });
  return live;
}
