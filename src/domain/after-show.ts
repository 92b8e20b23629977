/**
 * After the show: the names shared by the show's summary, billing the whole show, payment
 * deadlines, reminders (wa.me and the WhatsApp Cloud API), unpaid bills and a buyer's purchases.
 * The database's CHECK constraints use these lists (server/db/schema.ts).
 */

/** A company's payment deadline by default: 72 h, as OXXO and SPEI need days. */
export const DEFAULT_PAYMENT_DEADLINE_HOURS = 72;
/** The shortest and longest deadline a company or a session may set, in hours (30 days). */
export const MIN_PAYMENT_DEADLINE_HOURS = 1;
export const MAX_PAYMENT_DEADLINE_HOURS = 720;

/** Expired bills that block a buyer from a company's auctions and shows, by default. */
export const DEFAULT_STRIKE_LIMIT = 2;
export const MIN_STRIKE_LIMIT = 1;
export const MAX_STRIKE_LIMIT = 10;

/** How a session ships what it sold (PUT /api/live-sessions/{id}/shipping). */
export const SHIPPING_MODES = ['flat', 'pickup'] as const;
export type ShippingMode = (typeof SHIPPING_MODES)[number];

/** A session's shipping rules, as stored and answered. Money in whole pesos. */
export interface ShippingRules {
  mode: ShippingMode;
  /** 'flat': the fee of an order's first item. */
  flatFee: number;
  /** 'flat': added for each item after the first. */
  perExtraItem: number;
  /** 'flat': an order whose items reach this amount ships free; null = never free. */
  freeOver: number | null;
  /** 'pickup' ("Entrega en punto"): where the buyer collects. */
  pickupAddress: string | null;
}

/** The carrier a show bill's shipping line carries: pickup names the place; flat shipping says it is shipping, free or not. */
export const PICKUP_CARRIER_PREFIX = 'Entrega en punto: ';
export const FLAT_CARRIER = 'Envío';
export const FREE_CARRIER = 'Envío gratis';

/**
 * A show bill's carrier already names its shipping line ('Envío', 'Envío gratis', 'Entrega en
 * punto: …'): pages show it as it is, not as 'Envío (Envío)'. Null for a carrier a seller typed.
 */
export function showShippingLabel(carrier: string | null): string | null {
  if (!carrier) return null;
  return carrier === FLAT_CARRIER || carrier === FREE_CARRIER || carrier.startsWith(PICKUP_CARRIER_PREFIX) ? carrier : null;
}

/**
 * The reminders a pending bill gets, by kind: the first message with the link ('bill', the show's
 * "tu cuenta del show"), one 24 h after the link and one 12 h before the deadline, and a
 * second-chance offer's message.
 */
export const REMINDER_KINDS = ['bill', 'afterLink', 'beforeDeadline', 'secondChance'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** How a reminder goes out: by hand through a wa.me link (the embedded default) or the WhatsApp Cloud API. */
export const REMINDER_CHANNELS = ['waMe', 'cloud'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

/**
 * A reminder's state. due: waiting to go out; sending: the Cloud API call is under way or will be
 * retried (attempts, nextAttemptAt); sent/delivered/read: WhatsApp's statuses (by webhook); failed:
 * gave up after the retries; skipped: not needed any more (paid, canceled, no consent).
 */
export const REMINDER_STATUSES = ['due', 'sending', 'sent', 'delivered', 'read', 'failed', 'skipped'] as const;
export type ReminderStatus = (typeof REMINDER_STATUSES)[number];

/** A second-chance offer to a lot's runner-up. */
export const SECOND_CHANCE_STATUSES = ['offered', 'paid', 'declined', 'expired', 'canceled'] as const;
export type SecondChanceStatus = (typeof SECOND_CHANCE_STATUSES)[number];

/** What the seller chose for a lot of an expired bill. */
export const EXPIRED_LOT_DECISIONS = ['secondChance', 'futureShow', 'released'] as const;
export type ExpiredLotDecision = (typeof EXPIRED_LOT_DECISIONS)[number];

/** Why a company blocked a buyer: a moderator's hand, or the unpaid-bill strikes reaching the limit. */
export const BLOCK_REASONS = ['moderation', 'strikes'] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];
