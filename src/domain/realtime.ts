/**
 * Every realtime event, named and typed once for the server and the browser: Socket.IO's generics
 * (`Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents>` on the server,
 * `Socket<ServerToClientEvents, ClientToServerEvents>` in the browser). SPEC §7's names stay.
 */

import type { AuctionLiveState, BidView } from './bidding.js';
import type { ChatMessage, ChatSettings } from './chat.js';
import type { LiveSessionPublic, LotView } from './live.js';
import type { SessionStatus } from './live-public.js';
import type { PaymentStatus } from './payment-status.js';
import type { PayoutStatus } from './payments.js';
import type { PrebidResultEvent } from './prebids.js';
import type {
  VIDEO_PUBLISHER_EVENT,
  VideoLeaveRequest,
  VideoPublishAck,
  VideoPublisherEvent,
  VideoPublishRequest,
  VideoSubscribeAck,
  VideoSubscribeRequest,
} from './video.js';

// ── Server → client ──────────────────────────────────────────────────────────

/** To `company:<id>` (and the auction's public room): id and version only, a panel refetches what its scope allows. */
export interface AuctionEvent {
  id: string;
  companyId: string;
  version: number;
  deleted?: boolean;
}

/** In the auction's public room `auction:<id>`: the whole state, and the lines added since the previous event. */
export const AUCTION_STATE_EVENT = 'auctionState';
export interface AuctionStateEvent {
  state: AuctionLiveState;
  /** Lines added since the previous event of this auction, oldest first (at most BID_EVENT_MAX). */
  bids: BidView[];
}
export const BID_EVENT_MAX = 20;

/** To the outbid bidder's own room. */
export const OUTBID_EVENT = 'outbid';
export interface OutbidEvent {
  auctionId: string;
  auctionName: string;
  currentPrice: number;
  nextMinimum: number;
  version: number;
}

/** To whoever may read the payment over HTTP: its seller, its company's admins, the platform admins. */
export const PAYMENT_STATUS_EVENT = 'paymentStatusUpdate';
export interface PaymentStatusEvent {
  paymentId: string;
  companyId: string;
  paymentStatus: PaymentStatus;
  payoutStatus: PayoutStatus;
  /** Auctions whose billing changed (added, released, paid), so panels refresh them too. */
  auctionIds: string[];
}

// ── In a live session's public room `session:<id>` ──────────────────────────

/** SPEC §7: after a status change (sent by the server only; a client's emit is ignored). */
export interface SessionStatusEvent {
  sessionId: string;
  status: SessionStatus;
  version: number;
}

/**
 * The session's whole public state after any change of the session or its lots (details, status,
 * current lot, lots added, removed, reordered or finished, a timer set): viewers replace what they
 * hold when `session.version` is newer, so no one refetches.
 */
export const SESSION_STATE_EVENT = 'sessionState';
export interface SessionStateEvent {
  session: LiveSessionPublic;
  lots: LotView[];
  /** epoch ms */
  serverNow: number;
}

/**
 * A lot's timer was set: its auction now ends at `endTime` and takes bids, and the lot is queued
 * (a re-run lot comes back from 'finished'). It carries all that changed, so no `sessionState`
 * follows it.
 */
export const LOT_TIMER_EVENT = 'lotTimer';
export interface LotTimerEvent {
  sessionId: string;
  lotId: string;
  auctionId: string;
  /** epoch ms */
  endTime: number;
  /** epoch ms, when the server set it: clients correct their countdown with it. */
  serverNow: number;
  /** The session's version after the change. */
  version: number;
  /** The auction's whole public state after the change (status live, the new end, a re-run's winner cleared). */
  state: AuctionLiveState;
}

/** A lot's auction closed ("vendido" when it has a winner): sent the moment the close commits. */
export const LOT_FINISHED_EVENT = 'lotFinished';
export interface LotFinishedEvent {
  sessionId: string;
  lotId: string;
  state: AuctionLiveState;
  version: number;
  /**
   * The lot was on the block in this show (LotView.offered): its close is the show's result. False
   * when its auction closed while the lot waited in the queue (its own end, a buy-now on its page):
   * the lot is then 'passed', closed outside the show.
   */
  offered: boolean;
}

/** Sockets in the session's room across instances, at most once a second, only when it changed. */
export const VIEWER_COUNT_EVENT = 'viewerCount';
export interface ViewerCountEvent {
  sessionId: string;
  count: number;
}

/** SPEC §7: the seller asks the viewers to turn the sound on (relayed only from the session's editors). */
export interface PromptUnmuteEvent {
  sessionId: string;
}

/** A new chat line, to `session:<id>` (a line with a muted word only to its author's own room). */
export const CHAT_MESSAGE_EVENT = 'chatMessage';
/** A large room's lines of one short window, in `seq` order (realtime/chat-batcher.ts); a small room gets `chatMessage` per line. */
export const CHAT_MESSAGES_EVENT = 'chatMessages';
export interface ChatMessagesEvent {
  sessionId: string;
  lines: ChatMessage[];
}
/** A moderator deleted a line: everyone drops it. */
export const CHAT_REMOVED_EVENT = 'chatRemoved';
export interface ChatRemovedEvent {
  sessionId: string;
  messageId: string;
}
/** Slow mode or the pinned line changed. */
export const CHAT_SETTINGS_EVENT = 'chatSettings';
export interface ChatSettingsEvent extends ChatSettings {
  sessionId: string;
}
/** To one user's own room: they were muted, unmuted, blocked or unblocked (the page updates its composer). */
export const CHAT_STANDING_EVENT = 'chatStanding';
export interface ChatStandingEvent {
  sessionId: string | null;
  companyId: string;
  /** epoch ms; null = until the end; absent = not muted */
  mutedUntil?: number | null;
  isBlocked: boolean;
}

/** To each pre-bidder's own room when the lot opens: their 'Puja anticipada' leads or was overtaken (domain/prebids.ts). */
export const PREBID_RESULT_EVENT = 'prebidResult';
export type { PrebidResultEvent };

/**
 * To one user's own room `user:<id>`: their bell changed (an alert arrived, or they read some on
 * another page). `unread` is their count of unread notifications after the change: a page sets its
 * badge and refetches the list when it is open.
 */
export const NOTIFICATION_EVENT = 'notification';
export interface NotificationEvent {
  unread: number;
}

export interface ServerToClientEvents {
  [CHAT_MESSAGE_EVENT]: (event: ChatMessage) => void;
  [CHAT_MESSAGES_EVENT]: (event: ChatMessagesEvent) => void;
  [CHAT_REMOVED_EVENT]: (event: ChatRemovedEvent) => void;
  [CHAT_SETTINGS_EVENT]: (event: ChatSettingsEvent) => void;
  [CHAT_STANDING_EVENT]: (event: ChatStandingEvent) => void;
  auctionUpdate: (event: AuctionEvent) => void;
  auctionCreatedSuccessfully: (event: AuctionEvent) => void;
  [AUCTION_STATE_EVENT]: (event: AuctionStateEvent) => void;
  [OUTBID_EVENT]: (event: OutbidEvent) => void;
  [PAYMENT_STATUS_EVENT]: (event: PaymentStatusEvent) => void;
  sessionStatusUpdate: (event: SessionStatusEvent) => void;
  [SESSION_STATE_EVENT]: (event: SessionStateEvent) => void;
  [LOT_TIMER_EVENT]: (event: LotTimerEvent) => void;
  [LOT_FINISHED_EVENT]: (event: LotFinishedEvent) => void;
  [VIEWER_COUNT_EVENT]: (event: ViewerCountEvent) => void;
  promptUnmute: (event: PromptUnmuteEvent) => void;
  /** Embedded SFU: the session's video went on or off (domain/video.ts). */
  [VIDEO_PUBLISHER_EVENT]: (event: VideoPublisherEvent) => void;
  [PREBID_RESULT_EVENT]: (event: PrebidResultEvent) => void;
  [NOTIFICATION_EVENT]: (event: NotificationEvent) => void;
}
export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];

// ── Client → server (public rooms, with an acknowledgement) ─────────────────

/**
 * A join's answer. `version` is the room's record (auction or session) as read after the join, so a
 * page refetches only when it holds an older version: whatever changed later reaches it as an event.
 * null when there is no such record or it could not be read (then the page refetches to be safe).
 * `rate_limited`: the socket joined rooms faster than a page does (a loop of joins).
 */
export type RoomAck = { ok: true; version?: number | null } | { ok: false; error: 'invalid_id' | 'too_many_rooms' | 'rate_limited' };

/** The public rooms anyone may watch, to receive only; private rooms are assigned by the server. */
export const PUBLIC_ROOMS = {
  auction: { join: 'joinAuction', leave: 'leaveAuction', key: 'auctionId' },
  session: { join: 'joinSession', leave: 'leaveSession', key: 'sessionId' },
} as const;
export type PublicRoomKind = keyof typeof PUBLIC_ROOMS;

export interface ClientToServerEvents {
  joinAuction: (payload: { auctionId: string }, ack: (answer: RoomAck) => void) => void;
  leaveAuction: (payload: { auctionId: string }, ack: (answer: RoomAck) => void) => void;
  /** `host`: the Live Hub's own tab, left out of the viewer count. */
  joinSession: (payload: { sessionId: string; host?: boolean }, ack: (answer: RoomAck) => void) => void;
  leaveSession: (payload: { sessionId: string }, ack: (answer: RoomAck) => void) => void;
  /** SPEC §7. Ignored: a status changes over HTTP, and the server broadcasts it. */
  sessionStatusUpdate: (payload: { sessionId: string; status: string }) => void;
  /** SPEC §7: relayed to the room only from the session's editors. */
  promptUnmute: (payload: { sessionId: string }, ack?: (answer: { ok: boolean }) => void) => void;
  /** Embedded SFU signalling (domain/video.ts): only the session's editors may publish; anyone may subscribe. */
  videoPublish: (payload: VideoPublishRequest, ack: (answer: VideoPublishAck) => void) => void;
  videoSubscribe: (payload: VideoSubscribeRequest, ack: (answer: VideoSubscribeAck) => void) => void;
  /** Ends this socket's publishing or watching in the session. */
  videoLeave: (payload: VideoLeaveRequest, ack?: (answer: { ok: boolean }) => void) => void;
}

// ── Between server instances (over Redis) ────────────────────────────────────

/** Drop these entries from your session cache. */
export const SESSION_CACHE_EVENT = 'sessions:forget';
export type SessionCacheMessage = { userId: string } | { sessionId: string };

/** This user's roles or company changed: re-read them and re-assign the user's sockets here. */
export const USER_ACCESS_EVENT = 'users:access';
export interface UserAccessMessage {
  userId: string;
}

/** This instance's sockets per session room, so every instance can tell each room its total (`viewerCount`). */
export const VIEWER_COUNTS_EVENT = 'viewers:counts';
export interface ViewerCountsMessage {
  instanceId: string;
  /** sessionId → sockets in `session:<id>` on the sending instance. */
  counts: Record<string, number>;
}

/** Events a user may be sent many times a second, which travel between instances gathered (server/realtime/user-notices.ts). */
export const USER_NOTICE_EVENTS = [OUTBID_EVENT] as const;
export type UserNoticeEventName = (typeof USER_NOTICE_EVENTS)[number];
/** One instance's notices to users of the last few milliseconds, for each instance to deliver to the sockets it holds. */
export const USER_NOTICES_EVENT = 'users:notices';
export interface UserNoticesMessage {
  notices: { userId: string; event: UserNoticeEventName; payload: unknown }[];
}

/** Peer messages come from the network: each handler receives `unknown` and checks the shape. */
export interface InterServerEvents {
  [SESSION_CACHE_EVENT]: (message: unknown) => void;
  [USER_ACCESS_EVENT]: (message: unknown) => void;
  [VIEWER_COUNTS_EVENT]: (message: unknown) => void;
  [USER_NOTICES_EVENT]: (message: unknown) => void;
}
export type PeerEventName = keyof InterServerEvents;
export type PeerMessage<E extends PeerEventName> = E extends typeof SESSION_CACHE_EVENT
  ? SessionCacheMessage
  : E extends typeof VIEWER_COUNTS_EVENT
    ? ViewerCountsMessage
    : E extends typeof USER_NOTICES_EVENT
      ? UserNoticesMessage
      : UserAccessMessage;
