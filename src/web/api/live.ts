import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { AuctionLiveState } from '../../domain/bidding.js';
import type { LiveDirectory, LiveSessionDetail, LotView } from '../../domain/live.js';
import {
  AUCTION_STATE_EVENT,
  LOT_FINISHED_EVENT,
  LOT_TIMER_EVENT,
  type LotFinishedEvent,
  type LotTimerEvent,
  SESSION_STATE_EVENT,
  type SessionStateEvent,
  type SessionStatusEvent,
  VIEWER_COUNT_EVENT,
} from '../../domain/realtime.js';
import { api, isApiError } from './client';
import { useRoomCatchUp } from './room-catch-up';
import { useRoom, useSocketEvent } from './socket';

/**
 * A live session as both screens follow it: the Live Hub (the seller) and the public live page
 * (the buyers). One query per session, kept current by the session room's events, so nobody
 * refetches on a change; a (re)join refetches once if the session moved past what the page holds.
 */
export const liveKeys = {
  all: ['live'] as const,
  detail: (id: string) => [...liveKeys.all, 'detail', id] as const,
  directory: () => [...liveKeys.all, 'directory'] as const,
};

export const liveSessionPath = (id: string) => `/api/live-sessions/${encodeURIComponent(id)}`;

/** The detail as the cache holds it: `receivedAt` (local clock) pairs with `serverNow` to correct countdowns. */
export type LiveSessionData = LiveSessionDetail & { receivedAt: number };

/** GET /api/live-sessions/{id}; a 404 is an answer ('Sesión no encontrada' → null), not an error. */
export async function fetchLiveSession(id: string, signal?: AbortSignal): Promise<LiveSessionData | null> {
  try {
    const detail = await api.get<LiveSessionDetail>(liveSessionPath(id), signal);
    return { ...detail, receivedAt: Date.now() };
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

/** Replaces one lot's auction state when the new one is not older. */
function withAuctionState(lots: LotView[], state: AuctionLiveState, lotStatus?: LotView['status']): LotView[] {
  return lots.map((lot) => {
    if (lot.auctionId !== state.id) return lot;
    const fresher = state.version >= lot.auction.state.version;
    return {
      ...lot,
      status: lotStatus ?? lot.status,
      auction: fresher ? { ...lot.auction, state } : lot.auction,
    };
  });
}

/**
 * Pure cache updates for each session-room event (exported for tests). An event older than what
 * the cache holds (by the session's version, or the auction's) changes nothing.
 */
export const liveCache = {
  state(data: LiveSessionData | null | undefined, event: SessionStateEvent): LiveSessionData | null | undefined {
    if (!data || event.session.version < data.session.version) return data;
    // The private fields (editors) stay: the room carries the public view only.
    return { ...data, session: { ...data.session, ...event.session }, lots: event.lots, serverNow: event.serverNow, receivedAt: Date.now() };
  },
  status(data: LiveSessionData | null | undefined, event: SessionStatusEvent): LiveSessionData | null | undefined {
    if (!data || event.version < data.session.version) return data;
    return { ...data, session: { ...data.session, status: event.status, version: event.version } };
  },
  timer(data: LiveSessionData | null | undefined, event: LotTimerEvent): LiveSessionData | null | undefined {
    if (!data) return data;
    return {
      ...data,
      serverNow: event.serverNow,
      receivedAt: Date.now(),
      lots: data.lots.map((lot) =>
        lot.id === event.lotId && event.state.version >= lot.auction.state.version
          ? { ...lot, status: 'queued', auction: { ...lot.auction, state: event.state } }
          : lot,
      ),
    };
  },
  finished(data: LiveSessionData | null | undefined, event: LotFinishedEvent): LiveSessionData | null | undefined {
    if (!data) return data;
    // A lot whose auction closed while it waited in the queue closed outside the show (passed).
    const lots = withAuctionState(data.lots, event.state, event.offered ? 'finished' : 'passed');
    return { ...data, lots: lots.map((lot) => (lot.id === event.lotId ? { ...lot, offered: event.offered } : lot)) };
  },
  auction(data: LiveSessionData | null | undefined, state: AuctionLiveState): LiveSessionData | null | undefined {
    if (!data?.lots.some((l) => l.auctionId === state.id)) return data;
    return { ...data, lots: withAuctionState(data.lots, state) };
  },
};

function update(queryClient: QueryClient, id: string, fn: (data: LiveSessionData | null | undefined) => LiveSessionData | null | undefined): void {
  queryClient.setQueryData<LiveSessionData | null>(liveKeys.detail(id), (data) => fn(data) ?? data);
}

/**
 * The session's detail, followed live: joins `session:<id>` (signed out too) and applies
 * `sessionState`, `sessionStatusUpdate`, `lotTimer`, `lotFinished` and `viewerCount`. Bids on the
 * current lot come through its auction room (the bid panel's own `useAuctionLive`); an
 * `auctionState` that reaches this page is applied to its lot too.
 */
/**
 * The session's detail as this page already holds it (no request, no room of its own): for a window
 * over a screen that follows the session with useLiveSession, which keeps it current.
 */
export function useHeldLiveSession(id: string | null): LiveSessionData | null {
  const query = useQuery({
    queryKey: liveKeys.detail(id ?? ''),
    queryFn: ({ signal }) => fetchLiveSession(id ?? '', signal),
    enabled: false,
  });
  return id ? (query.data ?? null) : null;
}

export function useLiveSession(id: string | null, opts: { host?: boolean } = {}) {
  const queryClient = useQueryClient();
  const sessionId = id ?? '';
  const query = useQuery({
    queryKey: liveKeys.detail(sessionId),
    queryFn: ({ signal }) => fetchLiveSession(sessionId, signal),
    enabled: Boolean(id),
  });
  const [viewerCount, setViewerCount] = useState<number | null>(null);

  // After a (re)join, refetch only when the session moved past what the page holds.
  const catchUp = useRoomCatchUp(queryClient, [
    { key: liveKeys.detail(sessionId), versionOf: (d) => (d as LiveSessionData | null | undefined)?.session.version ?? null },
  ]);
  const resync = useCallback((version: number | null) => catchUp(version), [catchUp]);
  const { isConnected } = useRoom({ kind: 'session', id: sessionId }, { onResync: resync, host: opts.host ?? false });

  const mine = (eventSessionId: string) => Boolean(id) && eventSessionId === id;
  useSocketEvent(SESSION_STATE_EVENT, (event) => {
    if (mine(event.session.id)) update(queryClient, sessionId, (d) => liveCache.state(d, event));
  });
  useSocketEvent('sessionStatusUpdate', (event) => {
    if (mine(event.sessionId)) update(queryClient, sessionId, (d) => liveCache.status(d, event));
  });
  useSocketEvent(LOT_TIMER_EVENT, (event) => {
    if (mine(event.sessionId)) update(queryClient, sessionId, (d) => liveCache.timer(d, event));
  });
  useSocketEvent(LOT_FINISHED_EVENT, (event) => {
    if (mine(event.sessionId)) update(queryClient, sessionId, (d) => liveCache.finished(d, event));
  });
  useSocketEvent(AUCTION_STATE_EVENT, (event) => {
    if (id) update(queryClient, sessionId, (d) => liveCache.auction(d, event.state));
  });
  useSocketEvent(VIEWER_COUNT_EVENT, (event) => {
    if (mine(event.sessionId)) setViewerCount(event.count);
  });

  return { ...query, isConnected, viewerCount: viewerCount ?? query.data?.viewerCount ?? null };
}

/** GET /api/live-sessions/public: `/live` alone, what is live now and what comes next. */
export function useLiveDirectory() {
  return useQuery({
    queryKey: liveKeys.directory(),
    queryFn: ({ signal }) => api.get<LiveDirectory>('/api/live-sessions/public', signal),
    refetchInterval: 30_000,
  });
}
