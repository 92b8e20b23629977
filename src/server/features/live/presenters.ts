import {
  type LiveSessionCard,
  type LiveSessionDetail,
  type LiveSessionPrivate,
  type LiveSessionPublic,
  type LotTimerOverride,
  type LotView,
  normalizeBiddingConfig,
  type StreamType,
} from '../../../domain/live.js';
import type { LotStatus, SessionStatus } from '../../../domain/live-public.js';
import type { SessionStateEvent } from '../../../domain/realtime.js';
import type { StoreLink } from '../../../domain/storefront.js';
import { isBroadcasting } from '../../../domain/video.js';
import type { EngineState } from '../../db/engine-rows.js';
import type { liveSessions } from '../../db/schema.js';
import type { BidPresenter } from '../../realtime/bid-presenter.js';

export type SessionRow = typeof liveSessions.$inferSelect;

/** One lot as queries.ts reads it: the lot, its auction's name and images, and the bid engine's state. */
export interface LotRow {
  id: string;
  sessionId: string;
  auctionId: string;
  order: number;
  status: LotStatus;
  createdAt: number;
  name: string;
  images: string[];
  thumbnailUrl: string | null;
  timerOverride: LotTimerOverride;
  /** Pre-bids waiting for the lot to open. */
  prebidCount: number;
  /** The lot was on the block in this show, and its auction on no other show's block since (lot-runs.ts onBlockHereSql). */
  offered: boolean;
  state: EngineState;
}

/** A session with everything its answers and events are built from, read after a commit. */
export interface SessionView {
  row: SessionRow;
  sellerName: string;
  lots: LotRow[];
  /** epoch ms: when 'Avance automático' opens the next lot, while it counts down (show/auto-advance.ts). */
  autoAdvanceAt?: number | null;
  /** The seller's page, when they have one (reads/store-links.ts). */
  store: StoreLink | null;
}

const ms = (d: Date | null): number | null => (d ? d.getTime() : null);

/** `autoAdvanceAt`: when 'Avance automático' opens the next lot (SessionView.autoAdvanceAt), if it is counting down. */
export function presentPublicSession(row: SessionRow, sellerName: string, autoAdvanceAt?: number | null, store: StoreLink | null = null): LiveSessionPublic {
  return {
    id: row.id,
    title: row.title,
    sellerSlug: row.sellerSlug,
    sellerName,
    status: row.status as SessionStatus,
    scheduledAt: row.scheduledAt.getTime(),
    whatsappLink: row.whatsappLink,
    streamType: row.streamType as StreamType,
    broadcasting: isBroadcasting({ lastStreamStart: ms(row.lastStreamStart), lastStreamStop: ms(row.lastStreamStop) }),
    coverImageUrl: row.coverImageUrl,
    currentLotId: row.currentLotId,
    biddingConfig: normalizeBiddingConfig(row.biddingConfig),
    rehearsal: row.rehearsal,
    autoAdvancePaused: row.autoAdvancePaused,
    recording: row.recording,
    autoAdvanceAt: autoAdvanceAt ?? null,
    version: row.version,
    store,
  };
}

export function presentPrivateSession(row: SessionRow, sellerName: string, autoAdvanceAt?: number | null, store: StoreLink | null = null): LiveSessionPrivate {
  return {
    ...presentPublicSession(row, sellerName, autoAdvanceAt, store),
    sellerId: row.sellerId,
    companyId: row.companyId,
    createdAt: row.createdAt.getTime(),
    lastStreamStart: ms(row.lastStreamStart),
    lastStreamStop: ms(row.lastStreamStop),
  };
}

/** A lot with its auction's public state (names masked, bidders pseudonymous: realtime/bid-presenter.ts). */
export function presentLot(lot: LotRow, present: BidPresenter, now: number): LotView {
  return {
    id: lot.id,
    sessionId: lot.sessionId,
    auctionId: lot.auctionId,
    order: lot.order,
    status: lot.status,
    createdAt: lot.createdAt,
    timerOverride: lot.timerOverride,
    prebidCount: lot.prebidCount,
    offered: lot.offered,
    auction: {
      id: lot.auctionId,
      name: lot.name,
      images: lot.images,
      thumbnailUrl: lot.thumbnailUrl,
      state: present.state({ ...lot.state, serverNow: now }),
    },
  };
}

/** GET /api/live-sessions/{id} and every change's answer: the private fields only for its editors. */
export function presentDetail(view: SessionView, opts: { present: BidPresenter; canEdit: boolean; viewerCount: number; now?: number }): LiveSessionDetail {
  const now = opts.now ?? Date.now();
  return {
    session: opts.canEdit
      ? presentPrivateSession(view.row, view.sellerName, view.autoAdvanceAt, view.store)
      : presentPublicSession(view.row, view.sellerName, view.autoAdvanceAt, view.store),
    lots: view.lots.map((lot) => presentLot(lot, opts.present, now)),
    canEdit: opts.canEdit,
    viewerCount: opts.viewerCount,
    serverNow: now,
  };
}

/** What the session room hears after any change: the public view only. */
export function presentStateEvent(view: SessionView, present: BidPresenter, now = Date.now()): SessionStateEvent {
  return {
    session: presentPublicSession(view.row, view.sellerName, view.autoAdvanceAt, view.store),
    lots: view.lots.map((lot) => presentLot(lot, present, now)),
    serverNow: now,
  };
}

export function presentCard(row: SessionRow & { lotCount: number }, sellerName: string): LiveSessionCard {
  return {
    id: row.id,
    title: row.title,
    sellerSlug: row.sellerSlug,
    sellerName,
    status: row.status as SessionStatus,
    scheduledAt: row.scheduledAt.getTime(),
    coverImageUrl: row.coverImageUrl,
    lotCount: row.lotCount,
  };
}
