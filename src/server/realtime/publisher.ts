import type { FastifyBaseLogger } from 'fastify';
import type { ChatMessage } from '../../domain/chat.js';
import type { PaymentStatus } from '../../domain/payment-status.js';
import type { PayoutStatus } from '../../domain/payments.js';
import {
  type AuctionEvent,
  CHAT_MESSAGE_EVENT,
  CHAT_MESSAGES_EVENT,
  CHAT_REMOVED_EVENT,
  CHAT_SETTINGS_EVENT,
  CHAT_STANDING_EVENT,
  type ChatRemovedEvent,
  type ChatSettingsEvent,
  type ChatStandingEvent,
  LOT_FINISHED_EVENT,
  LOT_TIMER_EVENT,
  type LotFinishedEvent,
  type LotTimerEvent,
  NOTIFICATION_EVENT,
  PAYMENT_STATUS_EVENT,
  type PaymentStatusEvent,
  PREBID_RESULT_EVENT,
  type PrebidResultEvent,
  SESSION_STATE_EVENT,
  type SessionStateEvent,
  type SessionStatusEvent,
} from '../../domain/realtime.js';
import type { EngineLine, EngineState } from '../db/engine-rows.js';
import type { SessionCache } from '../sessions/cache.js';
import { createChatBatcher } from './chat-batcher.js';
import type { Realtime } from './index.js';
import { paymentAudience, rooms } from './rooms.js';

/** An auction as its events name it. */
export interface AuctionRef {
  id: string;
  companyId: string;
  version: number;
}

/**
 * What a committed change produced. Services return these; the route (or the scheduler) hands
 * them to `publish`, which delivers them after the commit.
 */
export type DomainEvent =
  | { type: 'auctionCreated'; auction: AuctionRef }
  | { type: 'auctionUpdated'; auction: AuctionRef }
  | { type: 'auctionDeleted'; auction: AuctionRef }
  /** A bid or a buy-now changed the auction's public state (and may have overtaken a leader). */
  | { type: 'bidPlaced'; state: EngineState; lines: EngineLine[]; outbidUserId: string | null }
  /** The auction ended: its end time passed (scheduler) or it was bought now. */
  | { type: 'auctionClosed'; state: EngineState }
  | {
      type: 'paymentChanged';
      payment: { id: string; companyId: string; sellerId: string | null; paymentStatus: PaymentStatus; payoutStatus: PayoutStatus };
      auctionIds: string[];
    }
  /** A user's roles or company changed: sessions and sockets must follow. */
  | { type: 'userAccessChanged'; userId: string }
  /** A live session or its lots changed: its public state, and its status when that changed (SPEC §7 sessionStatusUpdate). */
  | { type: 'sessionChanged'; state: SessionStateEvent; status: SessionStatusEvent | null }
  /** A live session was deleted: its viewers hear it ended. */
  | { type: 'sessionDeleted'; status: SessionStatusEvent }
  /** A lot's timer was set: the session room hears the new end, the auction's room and panels its new state. */
  | { type: 'lotTimerSet'; timer: LotTimerEvent; auction: EngineState }
  /** A lot's auction closed (after `auctionClosed`, from the Live Hub's subscriber). */
  | { type: 'lotFinished'; finished: LotFinishedEvent }
  /** A chat line was written: to the session's room, or (a muted word in it) to its author alone. */
  | { type: 'chatMessage'; message: ChatMessage; onlyAuthorId: string | null }
  /** A moderator deleted a chat line. */
  | { type: 'chatRemoved'; removed: ChatRemovedEvent }
  /** Slow mode or the pinned line changed. */
  | { type: 'chatSettingsChanged'; settings: ChatSettingsEvent }
  /** A user was muted, unmuted, blocked or unblocked: their own pages update their composer. */
  | { type: 'chatStandingChanged'; userId: string; standing: ChatStandingEvent }
  /** A lot opened with this user's 'Puja anticipada' in it: whether it leads, to their own room. */
  | { type: 'prebidResult'; userId: string; result: PrebidResultEvent }
  /** Users' bells changed: each user's unread count after the change, to their own room. */
  | { type: 'notificationsChanged'; unread: readonly { userId: string; unread: number }[] };

export type DomainEventType = DomainEvent['type'];
export type DomainEventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
type Handler<T extends DomainEventType> = (event: DomainEventOf<T>) => void | Promise<void>;

/**
 * Where auction state goes after a bid, a close or a timer change. The bid broadcaster
 * (bid-broadcaster.ts, which coalesces a hot auction's updates) is the one in use; declared here so
 * the publisher depends on what it calls.
 */
export interface AuctionBroadcast {
  bid(change: Pick<DomainEventOf<'bidPlaced'>, 'state' | 'lines' | 'outbidUserId'>): void;
  closed(state: EngineState): void;
  changed(state: EngineState): void;
}

/**
 * The one path after commit: each event goes to its Socket.IO rooms (the Redis adapter carries
 * room emits to the other instances), to the other instances' caches where needed, and to this
 * instance's in-process subscribers (the Live Hub: "auction closed" → "lot finished").
 */
export function createPublisher(opts: { realtime: Realtime; sessions: SessionCache; broadcaster: AuctionBroadcast; log: FastifyBaseLogger }) {
  const { realtime, sessions, broadcaster, log } = opts;
  const subscribers = new Map<DomainEventType, Set<(event: DomainEvent) => void | Promise<void>>>();
  // A large room's chat lines go out a window at a time (chat-batcher.ts); a small room's at once.
  const chat = createChatBatcher({
    viewerCount: (sessionId) => realtime.viewerCount(sessionId),
    send: (sessionId, lines) => {
      const [only] = lines;
      if (lines.length === 1 && only) realtime.toSession(sessionId, CHAT_MESSAGE_EVENT, only);
      else realtime.toSession(sessionId, CHAT_MESSAGES_EVENT, { sessionId, lines });
    },
  });

  async function deliver(event: DomainEvent): Promise<void> {
    switch (event.type) {
      case 'auctionCreated':
        realtime.toCompany(event.auction.companyId, 'auctionCreatedSuccessfully', auctionPayload(event.auction));
        return;
      case 'auctionUpdated':
      case 'auctionDeleted': {
        const payload = auctionPayload(event.auction, event.type === 'auctionDeleted');
        realtime.toCompany(event.auction.companyId, 'auctionUpdate', payload);
        realtime.toAuction(event.auction.id, 'auctionUpdate', payload);
        return;
      }
      case 'bidPlaced':
        // Coalesced per hot auction (bid-broadcaster.ts): a delivery detail behind the publisher.
        broadcaster.bid(event);
        return;
      case 'auctionClosed':
        broadcaster.closed(event.state);
        return;
      case 'paymentChanged':
        realtime.to(paymentAudience(event.payment), PAYMENT_STATUS_EVENT, paymentStatusPayload(event));
        return;
      case 'userAccessChanged':
        sessions.forgetUser(event.userId);
        await realtime.refreshUserAccess(event.userId);
        return;
      case 'sessionChanged':
        if (event.status) realtime.toSession(event.status.sessionId, 'sessionStatusUpdate', event.status);
        realtime.toSession(event.state.session.id, SESSION_STATE_EVENT, event.state);
        return;
      case 'sessionDeleted':
        realtime.toSession(event.status.sessionId, 'sessionStatusUpdate', event.status);
        return;
      case 'lotTimerSet':
        realtime.toSession(event.timer.sessionId, LOT_TIMER_EVENT, event.timer);
        broadcaster.changed(event.auction);
        return;
      case 'lotFinished':
        realtime.toSession(event.finished.sessionId, LOT_FINISHED_EVENT, event.finished);
        return;
      case 'chatMessage':
        if (event.onlyAuthorId) realtime.toUser(event.onlyAuthorId, CHAT_MESSAGE_EVENT, event.message);
        else chat.line(event.message);
        return;
      case 'chatRemoved':
        // The removal must not overtake the line it removes, if that line still waits for its window.
        chat.flush(event.removed.sessionId);
        realtime.toSession(event.removed.sessionId, CHAT_REMOVED_EVENT, event.removed);
        return;
      case 'chatSettingsChanged':
        chat.flush(event.settings.sessionId);
        realtime.toSession(event.settings.sessionId, CHAT_SETTINGS_EVENT, event.settings);
        return;
      case 'chatStandingChanged':
        realtime.toUser(event.userId, CHAT_STANDING_EVENT, event.standing);
        return;
      case 'prebidResult':
        realtime.toUser(event.userId, PREBID_RESULT_EVENT, event.result);
        return;
      case 'notificationsChanged':
        // One emit per distinct count, to all the rooms of the users who have it: a show's fan-out
        // of a thousand buyers is a handful of emits (and of Redis messages), not a thousand.
        for (const [unread, userIds] of byCount(event.unread)) realtime.to(userIds.map(rooms.user), NOTIFICATION_EVENT, { unread });
        return;
    }
  }

  function notify(event: DomainEvent): void {
    for (const handler of subscribers.get(event.type) ?? []) {
      // A subscriber's failure is its own: the change is committed and the others still hear of it.
      Promise.resolve()
        .then(() => handler(event))
        .catch((err: unknown) => log.error({ err, event: event.type }, 'realtime subscriber failed'));
    }
  }

  return {
    /**
     * Delivers committed events, in order. Resolves once this instance has applied them (rooms
     * re-assigned, messages handed to Socket.IO); a delivery failure is logged, never thrown at a
     * caller whose change is already committed.
     */
    async publish(events: readonly DomainEvent[]): Promise<void> {
      for (const event of events) {
        try {
          await deliver(event);
        } catch (err) {
          log.error({ err, event: event.type }, 'realtime delivery failed');
        }
        notify(event);
      }
    },
    /** Calls `handler` after each committed event of this type published by this instance; returns the unsubscribe. */
    subscribe<T extends DomainEventType>(type: T, handler: Handler<T>): () => void {
      let set = subscribers.get(type);
      if (!set) {
        set = new Set();
        subscribers.set(type, set);
      }
      const wrapped = handler as (event: DomainEvent) => void | Promise<void>;
      set.add(wrapped);
      return () => void set.delete(wrapped);
    },
  };
}
export type Publisher = ReturnType<typeof createPublisher>;

function auctionPayload(auction: AuctionRef, deleted = false): AuctionEvent {
  return { id: auction.id, companyId: auction.companyId, version: auction.version, ...(deleted ? { deleted: true } : {}) };
}

/**
 * SPEC §4 refresh triggers: after commit, those who may read the payment over HTTP hear
 * `paymentStatusUpdate` and refetch their payments, winners and auction counts. The payment id is
 * the bearer secret of its checkout, so a co-seller of the company never hears it (paymentAudience).
 */
function paymentStatusPayload(change: DomainEventOf<'paymentChanged'>): PaymentStatusEvent {
  const { payment } = change;
  return {
    paymentId: payment.id,
    companyId: payment.companyId,
    paymentStatus: payment.paymentStatus,
    payoutStatus: payment.payoutStatus,
    auctionIds: change.auctionIds,
  };
}

/** Users grouped by their unread count. */
function byCount(counts: readonly { userId: string; unread: number }[]): Map<number, string[]> {
  const groups = new Map<number, string[]>();
  for (const { userId, unread } of counts) {
    const group = groups.get(unread);
    if (group) group.push(userId);
    else groups.set(unread, [userId]);
  }
  return groups;
}
