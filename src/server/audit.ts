import type { ExpiredLotDecision, ReminderKind, ReminderStatus } from '../domain/after-show.js';
import type { AuctionStatus } from '../domain/auctions.js';
import type { TimerMode } from '../domain/bid-rules.js';
import type { SessionStatus } from '../domain/live-public.js';
import type { PaymentMachineState, PaymentView, ProviderStatus } from '../domain/payments.js';
import type { ReplayStatus, ReplayVisibility } from '../domain/replays.js';
import type { Role } from '../domain/role-rules.js';
import type { ShowShipping } from '../domain/show-billing.js';
import type { Db, Tx } from './db/connect.js';
import { auditLog } from './db/schema.js';

/** The kinds of thing an audit row is about (audit_log.entity_type; entity_id is that thing's id). */
export type AuditEntityType =
  | 'auction'
  | 'category'
  | 'company'
  | 'invitation'
  | 'live_session'
  | 'payment'
  | 'second_chance_offer'
  | 'seller_application'
  | 'user';

/** What one action records: the entity it is about, and the shapes of `before` and `after` (never: not recorded). */
interface Payload<E extends AuditEntityType, B, A> {
  entity: E;
  before: B;
  after: A;
}

type Lot = { lotId: string; auctionId: string; order: number };
type Stream = { status: SessionStatus; streamType: string | null };
type Invitation = { email: string; companyId: string };
type Strikes = { userId: string; strikes: number; blocked: boolean };
type Reminder = { reminderId: string; kind: ReminderKind; status: ReminderStatus; channel: string | null };
type Shipping = { shippingCarrier: string | null; shippingCost: number };
type ProviderNews = { paymentStatus: PaymentMachineState['paymentStatus']; providerStatus: ProviderStatus | null; flagged: boolean };
/** A change to a bill records the bill as the API answers it, before and after. */
type Bill = Payload<'payment', PaymentView, PaymentView>;

/**
 * Each action the audit log records (audit_log.action) and what its row holds. The spellings are
 * `area.verb`, each part in snake_case and each area spelled one way (drizzle/0019 rewrote the
 * few older rows spelled otherwise, so a filter on an action finds old and new rows alike). A new
 * action is added here, in that form, with the shape of what it records: recordAudit refuses at
 * compile time a payload or an entity that is not its action's.
 */
export interface AuditPayloads extends ProviderPayloads {
  'auction.create': Payload<'auction', never, { name: string; companyId: string; quick?: true; sessionId?: string }>;
  'auction.update': Payload<
    'auction',
    { name: string; startingPrice: number; status: AuctionStatus; endTime: Date | null },
    { name: string; startingPrice: number; status: AuctionStatus; endTime: Date | null }
  >;
  'auction.delete': Payload<'auction', { name: string; companyId: string }, never>;
  'auction.buy_now': Payload<'auction', never, { price: number | null | undefined }>;
  /** Written by the closing scheduler: no actor, no request. */
  'auction.closed': Payload<'auction', never, { winnerId: string | null; price: number | null; bidCount: number }>;
  'auction.bids_withdraw': Payload<
    'auction',
    { price: number | null; leaderId: string | null },
    { bidderId: string; withdrawnLines: number; price: number | null; leaderId: string | null }
  >;
  'category.create': Payload<'category', never, { name: string }>;
  'category.rename': Payload<'category', { name: string }, { name: string }>;
  'category.delete': Payload<'category', { name: string }, never>;
  'chat.delete': Payload<'live_session', { messageId: string; authorId: string | null; text: string; pinned: boolean }, never>;
  'chat.pin': Payload<'live_session', { messageId: string | null }, { messageId: string | null }>;
  'chat.announce': Payload<'live_session', never, { messageId: string; text: string }>;
  'chat.slow_mode': Payload<'live_session', { slowModeSeconds: number }, { slowModeSeconds: number }>;
  'chat.mute': Payload<'live_session', never, { userId: string; minutes: number | null; until: Date | null }>;
  'chat.unmute': Payload<'live_session', { userId: string; until: Date | null }, never>;
  /** The payment settings appear only when they changed. */
  'company.update': Payload<'company', CompanyFacts, CompanyFacts>;
  'company.block': Payload<'company', never, { userId: string; email: string }>;
  'company.unblock': Payload<'company', { userId: string; blockedBy: string | null; blockedAt: string }, never>;
  'company.muted_words': Payload<'company', { words: string[] }, { words: string[] }>;
  'invitation.create': Payload<'invitation', never, Invitation>;
  'invitation.revoke': Payload<'invitation', Invitation, never>;
  /** About the person who accepted: their roles and company change as user.roles and user.company do. */
  'invitation.accept': Payload<'user', { roles: Role[]; companyId: string | null }, { roles: string[]; companyId: string; invitationId: string }>;
  'invitation.decline': Payload<'invitation', Invitation, never>;
  'live_session.create': Payload<'live_session', never, { title: string; companyId: string; scheduledAt: Date }>;
  /** Only the fields that changed, as the session row names them. */
  'live_session.update': Payload<'live_session', Record<string, unknown>, Record<string, unknown>>;
  /** A show's replay hidden from buyers or shown again ('Ocultar repetición'). */
  'replay.visibility': Payload<'live_session', { visibility: ReplayVisibility }, { visibility: ReplayVisibility }>;
  /** A show's replay deleted by its seller: its video and poster are gone from storage. */
  'replay.delete': Payload<'live_session', { status: ReplayStatus; visibility: ReplayVisibility; durationMs: number | null }, never>;
  /** A failed replay made again ('Reintentar'). */
  'replay.retry': Payload<'live_session', { error: string | null }, never>;
  'live_session.delete': Payload<'live_session', { title: string; companyId: string; status: SessionStatus; auctionIds: string[] }, never>;
  'live_session.stream_start': Payload<'live_session', Stream, Stream>;
  /** By the seller's 'Detener', or by the publisher watch (no actor) when the broadcast went silent. */
  'live_session.stream_stop': Payload<'live_session', { status: SessionStatus }, { status: SessionStatus; reason?: 'publisherGone' }>;
  'live_session.add_lot': Payload<'live_session', never, Lot & { current?: boolean; timerSeconds?: number | null }>;
  'live_session.remove_lot': Payload<'live_session', Lot, never>;
  'live_session.reorder_lots': Payload<'live_session', { lotIds: string[] }, { lotIds: string[] }>;
  'live_session.set_current': Payload<
    'live_session',
    { currentLotId: string | null; status: SessionStatus },
    { currentLotId: string | null; status: SessionStatus }
  >;
  'live_session.timer': Payload<
    'live_session',
    { auctionId: string; status: AuctionStatus; endTime: Date | null },
    { lotId: string; seconds: number; endTime: Date; reopened: boolean }
  >;
  /** Siguiente lote by the seller, or auto-advance (`auto`, no actor). */
  'live_session.next': Payload<
    'live_session',
    { currentLotId: string | null; status: SessionStatus; auctionStatus: AuctionStatus },
    { currentLotId: string; status: 'live'; auctionId: string; seconds: number; endTime: Date; auto: boolean }
  >;
  'live_session.requeue': Payload<
    'live_session',
    { lotId: string; order: number; status: string; auctionStatus: AuctionStatus; closedAt: Date | null },
    { lotId: string; order: number; status: 'queued'; auctionStatus: 'pending' }
  >;
  'live_session.shipping': Payload<'live_session', ShowShipping, ShowShipping>;
  'live_session.lot_format': Payload<'live_session', LotFormat, LotFormat>;
  'live_session.moderator_add': Payload<'live_session', never, { userId: string }>;
  'live_session.moderator_remove': Payload<'live_session', { userId: string }, never>;
  /** 'Avísame': a buyer bookmarked the show, or took the bookmark back. */
  'live_session.remind': Payload<'live_session', never, { userId: string }>;
  'live_session.unremind': Payload<'live_session', { userId: string }, never>;
  'payment.draft': Payload<'payment', never, PaymentView>;
  'payment.add_auctions': Bill;
  'payment.shipping': Payload<'payment', Shipping, Shipping>;
  'payment.finalize': Bill;
  'payment.cancel': Bill;
  'payment.request_payout': Bill;
  'payment.mark_paid_out': Bill;
  /** Written by the payment expiry job: no actor, no request. */
  'payment.expire': Bill;
  'payment.reminder_sent': Payload<'payment', Reminder, Reminder & { status: 'sent'; channel: 'waMe' }>;
  /** The seller's own payment account, connected at the provider: about the seller. */
  'payment.connect': Payload<'user', never, { provider: string; providerUserId: string; liveMode: boolean }>;
  /** The seller's decision on a lot of an expired bill; `after` adds what the decision made (an offer, a show). */
  'unpaid.decide': Payload<
    'payment',
    { auctionId: string; decision: ExpiredLotDecision | null },
    { auctionId: string; decision: ExpiredLotDecision; [made: string]: unknown }
  >;
  'unpaid.second_chance.decline': Payload<'second_chance_offer', { status: 'offered' }, { status: 'declined' }>;
  /** Written by the payment expiry job when a buyer reaches the company's limit. */
  'unpaid.strikes.block': Payload<'company', never, { userId: string; strikes: number; limit: number }>;
  'unpaid.strikes.lift': Payload<'company', Strikes, Strikes>;
  'profile.whatsapp_consent': Payload<'user', never, { whatsapp: string | null }>;
  /** A browser's Web Push subscription (the user is the entity; only the push service's origin is kept, the endpoint is a credential). */
  'push.subscribe': Payload<'user', never, { subscriptionId: string; origin: string; dropped: number }>;
  'push.unsubscribe': Payload<'user', { subscriptionId: string; origin: string }, never>;
  'roles.grant_first_admin': Payload<'user', never, { roles: Role[] }>;
  /** The system grants it (ADMIN_EMAILS), from the sign-in that triggered it. */
  'roles.grant_admin_emails': Payload<'user', { roles: string[] }, { roles: string[] }>;
  /** *Quiero vender*: a buyer's request to sell, and a platform admin's decision on it. */
  'seller_application.create': Payload<'seller_application', never, { userId: string; businessName: string; city: string }>;
  /** Approval also makes the company and gives the applicant its roles: recorded here, not as user.roles. */
  'seller_application.approve': Payload<
    'seller_application',
    { status: 'pending'; roles: string[]; companyId: string | null },
    { status: 'approved'; userId: string; roles: string[]; companyId: string; storeSlug: string | null }
  >;
  'seller_application.decline': Payload<'seller_application', { status: 'pending' }, { status: 'declined'; userId: string; reason: string }>;
  'user.roles': Payload<'user', { roles: string[] }, { roles: string[] }>;
  'user.company': Payload<'user', { companyId: string | null }, { companyId: string | null }>;
  /** About the seller: a buyer began or stopped following them. */
  'seller.follow': Payload<'user', never, { followerId: string }>;
  'seller.unfollow': Payload<'user', { followerId: string }, never>;
}

type CompanyFacts = { name: string; rfc: string | null; legalName: string | null; paymentDeadlineHours?: number; strikeLimit?: number; recordShows?: boolean };
type LotFormat = { lotId: string; timerMode: TimerMode | null; counterBidWindowSeconds: number | null; counterBidResetSeconds: number | null };

/** A provider's news about a payment, one action per status it reports (`payment.provider.approved`). No actor; the webhook's request. */
type ProviderPayloads = {
  [S in ProviderStatus as `payment.provider.${S}`]: Payload<'payment', ProviderNews, ProviderNews & { providerPaymentId: string; amount: number | null }>;
};

export type AuditAction = keyof AuditPayloads;

/** Every action, for a check of their spelling; the compiler keeps it equal to AuditPayloads' keys. */
export const AUDIT_ACTIONS = Object.keys({
  'auction.create': 1,
  'auction.update': 1,
  'auction.delete': 1,
  'auction.buy_now': 1,
  'auction.closed': 1,
  'auction.bids_withdraw': 1,
  'category.create': 1,
  'category.rename': 1,
  'category.delete': 1,
  'chat.delete': 1,
  'chat.pin': 1,
  'chat.announce': 1,
  'chat.slow_mode': 1,
  'chat.mute': 1,
  'chat.unmute': 1,
  'company.update': 1,
  'company.block': 1,
  'company.unblock': 1,
  'company.muted_words': 1,
  'invitation.create': 1,
  'invitation.revoke': 1,
  'invitation.accept': 1,
  'invitation.decline': 1,
  'live_session.create': 1,
  'live_session.update': 1,
  'replay.visibility': 1,
  'replay.delete': 1,
  'replay.retry': 1,
  'live_session.delete': 1,
  'live_session.stream_start': 1,
  'live_session.stream_stop': 1,
  'live_session.add_lot': 1,
  'live_session.remove_lot': 1,
  'live_session.reorder_lots': 1,
  'live_session.set_current': 1,
  'live_session.timer': 1,
  'live_session.next': 1,
  'live_session.requeue': 1,
  'live_session.shipping': 1,
  'live_session.lot_format': 1,
  'live_session.moderator_add': 1,
  'live_session.moderator_remove': 1,
  'live_session.remind': 1,
  'live_session.unremind': 1,
  'payment.draft': 1,
  'payment.add_auctions': 1,
  'payment.shipping': 1,
  'payment.finalize': 1,
  'payment.cancel': 1,
  'payment.request_payout': 1,
  'payment.mark_paid_out': 1,
  'payment.expire': 1,
  'payment.reminder_sent': 1,
  'payment.connect': 1,
  'unpaid.decide': 1,
  'unpaid.second_chance.decline': 1,
  'unpaid.strikes.block': 1,
  'unpaid.strikes.lift': 1,
  'profile.whatsapp_consent': 1,
  'push.subscribe': 1,
  'push.unsubscribe': 1,
  'roles.grant_first_admin': 1,
  'roles.grant_admin_emails': 1,
  'seller_application.create': 1,
  'seller_application.approve': 1,
  'seller_application.decline': 1,
  'user.roles': 1,
  'user.company': 1,
  'seller.follow': 1,
  'seller.unfollow': 1,
} satisfies Record<Exclude<AuditAction, keyof ProviderPayloads>, 1>) as Exclude<AuditAction, keyof ProviderPayloads>[];

/**
 * Who acted and from where: a request's context (http/request-context.ts), whose requestId is the
 * response's X-Request-ID; or null for a background job (the closing scheduler, payment expiry,
 * auto-advance), whose rows keep a null request_id: a job has no request, and its log lines say
 * which run it was. A webhook has no actor but has a request, so it passes `{ actor: null, requestId }`.
 */
export type AuditOrigin = { actor: { id: string } | null; ip?: string | null | undefined; requestId?: string | null | undefined } | null;

/**
 * One row: its origin, its action, and the entity and payload that action records. `before` is
 * left out where the action records none (a creation), `after` likewise (a deletion).
 */
export type AuditEntry<K extends AuditAction = AuditAction> = {
  by: AuditOrigin;
  action: K;
  entityType: AuditPayloads[K]['entity'];
  entityId: string;
  before?: AuditPayloads[K]['before'];
  after?: AuditPayloads[K]['after'];
};

/** Adds one row to the audit log, inside the caller's transaction. */
export async function recordAudit<K extends AuditAction>(db: Db | Tx, entry: AuditEntry<K>): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.by?.actor?.id ?? null,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: entry.by?.ip ?? null,
    requestId: entry.by?.requestId ?? null,
  });
}
