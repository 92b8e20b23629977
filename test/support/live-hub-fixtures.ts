import type { AuctionLiveState } from '../../src/domain/bidding';
import { DEFAULT_BIDDING_CONFIG, type LiveSessionDetail, type LiveSessionPrivate, type LotView } from '../../src/domain/live';

/** Plain builders for the Live Hub's pure tests (not a test file: no `.test`). */
export const SESSION_ID = '4f1d2c3b-5a6e-4f70-8a91-b2c3d4e5f607';

export function state(over: Partial<AuctionLiveState> = {}): AuctionLiveState {
  return {
    id: over.id ?? '00000000-0000-4000-8000-000000000000',
    version: 1,
    status: 'active',
    currentPrice: null,
    bidCount: 0,
    startingPrice: 500,
    buyNowPrice: null,
    nextMinimum: 500,
    minIncrement: 20,
    incrementBands: null,
    timerMode: 'extend',
    antiSnipeSeconds: 10,
    counterBidResetSeconds: 10,
    endTime: null,
    leaderTag: null,
    winnerName: null,
    winnerTag: null,
    serverNow: 1_000_000,
    ...over,
  };
}

export function lot(
  n: number,
  over: { status?: LotView['status']; state?: Partial<AuctionLiveState>; images?: string[]; name?: string; offered?: boolean } = {},
): LotView {
  const auctionId = `a0000000-0000-4000-8000-00000000000${n}`;
  return {
    id: `10000000-0000-4000-8000-00000000000${n}`,
    sessionId: SESSION_ID,
    auctionId,
    order: n,
    status: over.status ?? 'queued',
    createdAt: 1,
    timerOverride: { timerMode: null, counterBidWindowSeconds: null, counterBidResetSeconds: null },
    prebidCount: 0,
    // On the block in the show unless a test says it closed outside it.
    offered: over.offered ?? true,
    auction: {
      id: auctionId,
      name: over.name ?? `Lote ${n}`,
      images: over.images ?? [],
      thumbnailUrl: over.images?.[0] ?? null,
      state: state({ id: auctionId, ...over.state }),
    },
  };
}

export function session(over: Partial<LiveSessionPrivate> = {}): LiveSessionPrivate {
  return {
    id: SESSION_ID,
    title: 'Relojes del viernes',
    sellerSlug: 'relojes',
    sellerName: 'Antigüedades Sofía',
    status: 'scheduled',
    scheduledAt: Date.UTC(2030, 0, 4, 18),
    whatsappLink: null,
    streamType: 'none',
    broadcasting: false,
    coverImageUrl: null,
    currentLotId: null,
    biddingConfig: DEFAULT_BIDDING_CONFIG,
    rehearsal: false,
    autoAdvancePaused: false,
    recording: true,
    autoAdvanceAt: null,
    version: 1,
    sellerId: 'u1',
    companyId: 'c1',
    createdAt: 1,
    lastStreamStart: null,
    lastStreamStop: null,
    store: null,
    ...over,
  };
}

export function detail(over: { session?: Partial<LiveSessionPrivate>; lots?: LotView[]; serverNow?: number; canEdit?: boolean } = {}): LiveSessionDetail {
  return { session: session(over.session), lots: over.lots ?? [], canEdit: over.canEdit ?? true, viewerCount: 0, serverNow: over.serverNow ?? 1_000_000 };
}
