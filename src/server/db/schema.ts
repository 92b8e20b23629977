/**
 * The whole data model (SPEC §3). Money is integer pesos; times are timestamptz.
 * Column names are snake_case, TypeScript names follow SPEC's camelCase words.
 */

import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  BLOCK_REASONS,
  DEFAULT_PAYMENT_DEADLINE_HOURS,
  DEFAULT_STRIKE_LIMIT,
  EXPIRED_LOT_DECISIONS,
  MAX_PAYMENT_DEADLINE_HOURS,
  MAX_STRIKE_LIMIT,
  MIN_PAYMENT_DEADLINE_HOURS,
  MIN_STRIKE_LIMIT,
  REMINDER_CHANNELS,
  REMINDER_KINDS,
  REMINDER_STATUSES,
  SECOND_CHANCE_STATUSES,
  type ShippingRules,
} from '../../domain/after-show.js';
import { AUCTION_STATUSES, CONDITIONS } from '../../domain/auctions.js';
import { CHAT_KINDS, type ChatSystemEvent } from '../../domain/chat.js';
import { type BiddingConfig, DEFAULT_BIDDING_CONFIG, STREAM_TYPES, type StoredBiddingConfig, TIMER_MODES } from '../../domain/live.js';
import { LOT_STATUSES, SESSION_STATUSES } from '../../domain/live-public.js';
import { PAYMENT_STATUSES } from '../../domain/payment-status.js';
import { PAYOUT_STATUSES, PROVIDER_STATUSES } from '../../domain/payments.js';
import { CLIP_STATUSES, RECORDING_SOURCES, REPLAY_STATUSES, REPLAY_VISIBILITIES, type ReplayChapter } from '../../domain/replays.js';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();
const id = () => uuid('id').primaryKey().defaultRandom();
/** The accented letters the buyers' search folds, and what each becomes (same length, for `translate`). */
export const ACCENTED = 'áàäâãéèëêíìïîóòöôõúùüûñçÁÀÄÂÃÉÈËÊÍÌÏÎÓÒÖÔÕÚÙÜÛÑÇ';
export const UNACCENTED = 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc';
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Quotes a list of literals for a CHECK constraint: `'a', 'b'`. */
const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export { AUCTION_STATUSES, CONDITIONS, LOT_STATUSES, PAYMENT_STATUSES, PAYOUT_STATUSES, PROVIDER_STATUSES, SESSION_STATUSES, STREAM_TYPES };
/** A payment in one of these holds its auctions; a canceled one has released them. */
export const HOLDING_PAYMENT_STATUSES = ['draft', 'pending', 'paid'] as const;
export const UPLOAD_KINDS = ['auction_image', 'session_cover', 'quick_auction'] as const;

// ── people ──────────────────────────────────────────────────────────────────

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Lower-cased; the key that links a Google account and a development sign-in. */
    email: text('email').notNull(),
    /** `iss` and `sub` of the OpenID Connect identity, once the user has signed in with it. */
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    emailVerified: boolean('email_verified').notNull().default(false),
    avatarUrl: text('avatar_url'),
    createdAt: createdAt(),
    lastSignInAt: ts('last_sign_in_at'),
    /** A bidder the server plays in a rehearsal ('Ensayo'): never signs in, never listed or counted. */
    isSimulated: boolean('is_simulated').notNull().default(false),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_oidc_identity_key').on(t.oidcIssuer, t.oidcSubject),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

export const userProfiles = pgTable(
  'user_profiles',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text('first_name'),
    lastName: text('last_name'),
    displayName: text('display_name'),
    email: text('email').notNull(),
    companyName: text('company_name'),
    /** Null means the company is the user (SPEC: falls back to the uid); an admin without one is a platform admin. */
    companyId: text('company_id'),
    whatsapp: text('whatsapp'),
    whatsappCountryCode: text('whatsapp_country_code'),
    whatsappLocal: text('whatsapp_local'),
    whatsappConsentGiven: boolean('whatsapp_consent_given').notNull().default(false),
    whatsappConsentAt: ts('whatsapp_consent_at'),
    roles: text('roles').array().notNull().default(sql`ARRAY['buyer']::text[]`),
    /** Mercado Pago seller connection (the payments issue fills these; the token is stored encrypted). */
    mpAccessToken: text('mp_access_token'),
    mpRefreshToken: text('mp_refresh_token'),
    mpTokenExpiresAt: ts('mp_token_expires_at'),
    mpLiveMode: boolean('mp_live_mode'),
    mpUserId: text('mp_user_id'),
    /** The seller's public page, `/tienda/{storeSlug}`: unique, given at the first show or on approval. */
    storeSlug: text('store_slug'),
    /** The seller's city, shown on the public page. */
    city: text('city'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('user_profiles_company_idx').on(t.companyId),
    uniqueIndex('user_profiles_store_slug_key').on(t.storeSlug),
    index('user_profiles_roles_idx').using('gin', t.roles),
    check('user_profiles_roles_valid', sql`${t.roles} <@ ARRAY['admin', 'seller', 'buyer']::text[]`),
  ],
);

/**
 * The one source of a company's name (and its invoicing data). Its id is the companyId that
 * profiles, auctions, sessions and payments carry: a free string, or the uid of a solo seller.
 */
export const companies = pgTable(
  'companies',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** Registro Federal de Contribuyentes: 12 characters for a persona moral, 13 for a persona física. */
    rfc: text('rfc'),
    /** Razón social, as it must appear on invoices. */
    legalName: text('legal_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Hours a buyer has to pay a bill once its link is made (a session may override it). */
    paymentDeadlineHours: integer('payment_deadline_hours').notNull().default(DEFAULT_PAYMENT_DEADLINE_HOURS),
    /** Expired bills after which a buyer is blocked from the company's auctions and shows. */
    strikeLimit: integer('strike_limit').notNull().default(DEFAULT_STRIKE_LIMIT),
    /** Whether a new show of the company's is recorded ('Grabar el show' starts as this). */
    recordShows: boolean('record_shows').notNull().default(true),
  },
  (t) => [
    check('companies_name_present', sql`length(trim(${t.name})) > 0`),
    check(
      'companies_payment_deadline_valid',
      sql`${t.paymentDeadlineHours} between ${sql.raw(String(MIN_PAYMENT_DEADLINE_HOURS))} and ${sql.raw(String(MAX_PAYMENT_DEADLINE_HOURS))}`,
    ),
    check('companies_strike_limit_valid', sql`${t.strikeLimit} between ${sql.raw(String(MIN_STRIKE_LIMIT))} and ${sql.raw(String(MAX_STRIKE_LIMIT))}`),
    check('companies_rfc_format', sql`${t.rfc} ~ '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$'`),
  ],
);

/**
 * A company admin's invitation for a seller, by e-mail. The person answers it after signing in with
 * that address (accept or decline); nothing changes until they do. One open (neither answered nor
 * revoked) invitation per address and company.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    /** Lower-cased, like users.email, which it is matched against at sign-in. */
    email: text('email').notNull(),
    companyId: text('company_id').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: ts('revoked_at'),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    /** The invited person said no. An admin may still revoke it, which only takes it off the list. */
    declinedAt: ts('declined_at'),
    declinedBy: uuid('declined_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // Per company: another company's invitation to the same address neither blocks nor shows.
    uniqueIndex('invitations_open_email_company_key')
      .on(t.email, t.companyId)
      .where(sql`${t.acceptedAt} IS NULL AND ${t.revokedAt} IS NULL AND ${t.declinedAt} IS NULL`),
    index('invitations_company_idx').on(t.companyId, t.createdAt),
    check('invitations_email_lower', sql`${t.email} = lower(${t.email})`),
    check('invitations_used_once', sql`${t.acceptedAt} IS NULL OR ${t.revokedAt} IS NULL`),
    check('invitations_answered_once', sql`${t.acceptedAt} IS NULL OR ${t.declinedAt} IS NULL`),
  ],
);

/** Server-side sign-in sessions. Only the SHA-256 of the cookie's token is stored. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [
    uniqueIndex('auth_sessions_token_key').on(t.tokenHash),
    index('auth_sessions_user_idx').on(t.userId),
    index('auth_sessions_expires_idx').on(t.expiresAt),
  ],
);

/** One row per sign-in attempt in flight: consumed once by the callback, so a replayed callback fails. */
export const oidcLogins = pgTable(
  'oidc_logins',
  {
    stateHash: text('state_hash').primaryKey(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    returnTo: text('return_to').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('oidc_logins_expires_idx').on(t.expiresAt)],
);

export const categories = pgTable(
  'categories',
  {
    id: id(),
    name: text('name').notNull(),
    /** The name folded (lower case, no accents), so 'Electrónica' and 'electronica' collide. */
    nameKey: text('name_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('categories_name_key').on(t.nameKey), check('categories_name_present', sql`length(trim(${t.name})) > 0`)],
);

// ── auctions and bids ───────────────────────────────────────────────────────

export const auctions = pgTable(
  'auctions',
  {
    id: id(),
    name: text('name').notNull(),
    /** Up to 10 folded words of the name, for the Live Hub picker (SPEC §5). */
    nameTokens: text('name_tokens').array().notNull().default(sql`ARRAY[]::text[]`),
    /** Folded name, category, marca, envio, company and winner (SPEC §2's search). */
    searchText: text('search_text').notNull().default(''),
    /** search_text as words, so 'bici vint' finds 'Bicicleta vintage' through a GIN index by word prefix. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple', search_text)`),
    description: text('description').notNull(),
    /**
     * The buyers' search: name and description, accents folded (upper and lower case) and stemmed
     * as Spanish, so 'reloj' finds 'Relój Seiko' and 'relojes'. Kept by PostgreSQL itself.
     */
    publicSearchVector: tsvector('public_search_vector').generatedAlwaysAs(
      sql`to_tsvector('spanish'::regconfig, translate(lower(name || ' ' || description), ${sql.raw(`'${ACCENTED}'`)}, ${sql.raw(`'${UNACCENTED}'`)}))`,
    ),
    startingPrice: integer('starting_price').notNull(),
    buyNowPrice: integer('buy_now_price'),
    /** The leading bid; null until the first bid. */
    currentPrice: integer('current_price'),
    /**
     * The bidder leading now and their private maximum (proxy bidding), kept by the bid engine
     * (src/server/db/functions/place-bids.sql). Never shown to anyone else. currentWinnerId is set only at the close.
     */
    leaderId: uuid('leader_id').references(() => users.id, { onDelete: 'set null' }),
    leaderMax: integer('leader_max'),
    bidCount: integer('bid_count').notNull().default(0),
    images: text('images').array().notNull().default(sql`ARRAY[]::text[]`),
    categoryId: uuid('category_id').references(() => categories.id, { onDelete: 'restrict' }),
    condicion: text('condicion'),
    marca: text('marca'),
    envio: text('envio'),
    endTime: ts('end_time'),
    status: text('status', { enum: AUCTION_STATUSES }).notNull().default('pending'),
    currentWinnerId: uuid('current_winner_id').references(() => users.id, { onDelete: 'set null' }),
    currentWinnerName: text('current_winner_name'),
    /** winnerDetails: copied from the winner's profile when the auction closes. */
    winnerEmail: text('winner_email'),
    winnerWhatsapp: text('winner_whatsapp'),
    closedAt: ts('closed_at'),
    sellerId: uuid('seller_id').references(() => users.id, { onDelete: 'set null' }),
    companyId: text('company_id').notNull(),
    /** True while a paid payment holds the auction; kept by a trigger on payment_items (functions/auctions-sync-is-paid.sql). */
    isPaid: boolean('is_paid').notNull().default(false),
    /** Bumped on every change, so realtime clients can tell a stale event from a fresh one. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The admin table's order (`created_at desc, id desc`, nulls first as plain DESC sorts) in each scope of SPEC §6.
    index('auctions_company_newest_idx').on(t.companyId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('auctions_seller_newest_idx').on(t.sellerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('auctions_newest_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('auctions_name_idx').on(t.name),
    index('auctions_category_idx').on(t.categoryId),
    index('auctions_winner_idx').on(t.currentWinnerId),
    /** 'Pagadas' pages, newest first, without walking every auction. */
    index('auctions_paid_newest_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`${t.isPaid}`),
    /** The closing scheduler: open auctions by end time. */
    index('auctions_open_end_idx').on(t.endTime).where(sql`${t.status} in ('active', 'live')`),
    /** Auctions marked ended by other means (imports, older data) that the scheduler has not closed yet. */
    index('auctions_unclosed_idx').on(t.id).where(sql`${t.status} = 'ended' and ${t.closedAt} is null`),
    index('auctions_name_tokens_idx').using('gin', t.nameTokens),
    index('auctions_search_idx').using('gin', t.searchVector),
    index('auctions_public_search_idx').using('gin', t.publicSearchVector),
    check('auctions_status_valid', sql`${t.status} in (${inList(AUCTION_STATUSES)})`),
    check('auctions_condicion_valid', sql`${t.condicion} is null or ${t.condicion} in (${inList(CONDITIONS)})`),
    check('auctions_prices_valid', sql`${t.startingPrice} >= 0 and (${t.buyNowPrice} is null or ${t.buyNowPrice} > ${t.startingPrice})`),
    check('auctions_images_max', sql`cardinality(${t.images}) <= 6`),
    check('auctions_name_present', sql`length(trim(${t.name})) > 0`),
  ],
);

/**
 * The admin panel's filter counts (SPEC §4) per company and seller, kept by triggers on auctions
 * (functions/auctions-track-counts.sql), so counting 100,000 auctions reads a few rows instead of scanning them all.
 * open: no winner yet; wonUnpaid: a winner, not paid; paid: in a paid payment.
 */
export const auctionCounts = pgTable(
  'auction_counts',
  {
    companyId: text('company_id').notNull(),
    sellerId: uuid('seller_id'),
    open: integer('open').notNull().default(0),
    wonUnpaid: integer('won_unpaid').notNull().default(0),
    paid: integer('paid').notNull().default(0),
  },
  (t) => [unique('auction_counts_owner_key').on(t.companyId, t.sellerId).nullsNotDistinct(), index('auction_counts_seller_idx').on(t.sellerId)],
);

export const bids = pgTable(
  'bids',
  {
    id: id(),
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'restrict' }),
    bidderId: uuid('bidder_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    bidderName: text('bidder_name').notNull(),
    /** Position in the auction's history, from 1; the last standing (not withdrawn) line is always the leader at the current price. */
    seq: integer('seq').notNull(),
    amount: integer('amount').notNull(),
    /** The bidder's private maximum for automatic bidding; never shown to others. */
    maxAmount: integer('max_amount'),
    /** True for a bid the engine placed on the bidder's behalf from their maximum. */
    isAutomatic: boolean('is_automatic').notNull().default(false),
    /**
     * The amount the bidder sent, on the lines of their own bids (`amount` may be higher: a bid that
     * takes the lead stands at the proxy price). Null on automatic lines and on lines older than it;
     * withdrawing bids replays the rest from it (src/server/db/functions/withdraw-bids.sql).
     */
    typedAmount: integer('typed_amount'),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
    /**
     * When the line stopped standing: its bidder was blocked by the company, or it answered a bid so
     * withdrawn (withdraw-bids.sql). The row stays, out of the history, the counts, the price and the close.
     */
    withdrawnAt: ts('withdrawn_at'),
  },
  (t) => [
    unique('bids_auction_seq_key').on(t.auctionId, t.seq),
    index('bids_auction_amount_idx').on(t.auctionId, t.amount.desc()),
    index('bids_auction_created_idx').on(t.auctionId, t.createdAt.desc()),
    index('bids_bidder_idx').on(t.bidderId, t.createdAt.desc()),
    uniqueIndex('bids_idempotency_key').on(t.bidderId, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
    check('bids_amount_positive', sql`${t.amount} > 0`),
    check('bids_max_valid', sql`${t.maxAmount} is null or ${t.maxAmount} >= ${t.amount}`),
  ],
);

/**
 * Every Idempotency-Key a bid was decided with, and the outcome and lines it was answered, so a
 * retry replays that answer whatever it was, a raised maximum included (src/server/db/functions/place-bids.sql).
 */
export const bidKeys = pgTable(
  'bid_keys',
  {
    bidderId: uuid('bidder_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    outcome: text('outcome', { enum: ['leading', 'outbid', 'maxRaised'] }).notNull(),
    /** The bidder's own lines, as the answer listed them. */
    lines: jsonb('lines').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.bidderId, t.idempotencyKey] }),
    index('bid_keys_auction_idx').on(t.auctionId),
    check('bid_keys_outcome_valid', sql`${t.outcome} in ('leading', 'outbid', 'maxRaised')`),
  ],
);

// ── payments ────────────────────────────────────────────────────────────────

export const payments = pgTable(
  'payments',
  {
    id: id(),
    winnerId: uuid('winner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    winnerName: text('winner_name').notNull(),
    winnerWhatsapp: text('winner_whatsapp'),
    sellerId: uuid('seller_id').references(() => users.id, { onDelete: 'set null' }),
    companyId: text('company_id').notNull(),
    companyName: text('company_name'),
    totalAmount: integer('total_amount').notNull().default(0),
    shippingCarrier: text('shipping_carrier'),
    shippingCost: integer('shipping_cost').notNull().default(0),
    /** SPEC §9: grand total = item total + shipping cost, kept by the database. */
    grandTotal: integer('grand_total').generatedAlwaysAs(sql`total_amount + shipping_cost`),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }).notNull().default('draft'),
    paymentLink: text('payment_link'),
    provider: text('provider'),
    mpPaymentId: text('mp_payment_id'),
    mpPreferenceId: text('mp_preference_id'),
    linkExpiresAt: ts('link_expires_at'),
    paidAt: ts('paid_at'),
    canceledAt: ts('canceled_at'),
    /** What the provider last said (its webhooks), when, and as of which provider-side change. */
    providerStatus: text('provider_status', { enum: PROVIDER_STATUSES }),
    webhookAt: ts('webhook_at'),
    providerUpdatedAt: ts('provider_updated_at'),
    /** A refund, chargeback, short payment or payment of a canceled link: someone must look. */
    flagged: boolean('flagged').notNull().default(false),
    /** Collected with the seller's own connected account: no payout from the platform is due. */
    collectedBySeller: boolean('collected_by_seller').notNull().default(false),
    payoutStatus: text('payout_status', { enum: PAYOUT_STATUSES }).notNull().default('none'),
    payoutRequestedAt: ts('payout_requested_at'),
    paidOutAt: ts('paid_out_at'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The show this bill collects for ('Cobrar el show'), or null for a bill made by hand. */
    sessionId: uuid('session_id').references((): AnyPgColumn => liveSessions.id, { onDelete: 'set null' }),
    /** When the link was made (finalize), and when the buyer must have paid by (the company's or the session's hours later). */
    linkCreatedAt: ts('link_created_at'),
    deadlineAt: ts('deadline_at'),
    /** Canceled because its deadline passed unpaid (a strike for the buyer), not by the seller. */
    expiredAt: ts('expired_at'),
  },
  (t) => [
    index('payments_session_idx').on(t.sessionId),
    /** The deadline job: pending bills by deadline. */
    index('payments_pending_deadline_idx').on(t.deadlineAt).where(sql`${t.paymentStatus} = 'pending'`),
    /** Target of payment_items' (payment_id, payment_status) key, which keeps the items' status in step. */
    unique('payments_id_status_key').on(t.id, t.paymentStatus),
    index('payments_company_status_idx').on(t.companyId, t.paymentStatus, t.createdAt.desc()),
    index('payments_seller_status_idx').on(t.sellerId, t.paymentStatus),
    index('payments_winner_idx').on(t.winnerId),
    index('payments_status_created_idx').on(t.paymentStatus, t.createdAt.desc()),
    uniqueIndex('payments_mp_payment_key').on(t.mpPaymentId).where(sql`${t.mpPaymentId} is not null`),
    index('payments_mp_preference_idx').on(t.mpPreferenceId),
    check('payments_status_valid', sql`${t.paymentStatus} in (${inList(PAYMENT_STATUSES)})`),
    check('payments_payout_valid', sql`${t.payoutStatus} in (${inList(PAYOUT_STATUSES)})`),
    check('payments_provider_status_valid', sql`${t.providerStatus} is null or ${t.providerStatus} in (${inList(PROVIDER_STATUSES)})`),
    check('payments_amounts_valid', sql`${t.totalAmount} >= 0 and ${t.shippingCost} >= 0`),
  ],
);

/**
 * The auctions of a payment (SPEC wonItems). payment_status mirrors the payment's through a
 * cascading foreign key, so the partial unique index can hold each auction in at most one
 * draft, pending or paid payment.
 */
export const paymentItems = pgTable(
  'payment_items',
  {
    paymentId: uuid('payment_id').notNull(),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }).notNull(),
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'restrict' }),
    auctionName: text('auction_name').notNull(),
    amount: integer('amount').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.paymentId, t.auctionId] }),
    foreignKey({ name: 'payment_items_payment_fk', columns: [t.paymentId, t.paymentStatus], foreignColumns: [payments.id, payments.paymentStatus] })
      .onUpdate('cascade')
      .onDelete('cascade'),
    uniqueIndex('payment_items_one_holding_payment')
      .on(t.auctionId)
      .where(sql`${t.paymentStatus} in (${inList(HOLDING_PAYMENT_STATUSES)})`),
    index('payment_items_auction_idx').on(t.auctionId, t.paymentStatus),
    check('payment_items_amount_valid', sql`${t.amount} >= 0`),
  ],
);

// ── live sessions ───────────────────────────────────────────────────────────

export type { BiddingConfig };
export { DEFAULT_BIDDING_CONFIG };

export const liveSessions = pgTable(
  'live_sessions',
  {
    id: id(),
    title: text('title').notNull(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    companyId: text('company_id').notNull(),
    sellerSlug: text('seller_slug').notNull().default(''),
    status: text('status', { enum: SESSION_STATUSES }).notNull().default('scheduled'),
    scheduledAt: ts('scheduled_at').notNull(),
    whatsappLink: text('whatsapp_link'),
    streamType: text('stream_type', { enum: STREAM_TYPES }).notNull().default('none'),
    coverImageUrl: text('cover_image_url'),
    currentLotId: uuid('current_lot_id').references((): AnyPgColumn => liveLots.id, { onDelete: 'set null' }),
    biddingConfig: jsonb('bidding_config').$type<StoredBiddingConfig>().notNull().default(DEFAULT_BIDDING_CONFIG),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastStreamStart: ts('last_stream_start'),
    lastStreamStop: ts('last_stream_stop'),
    /** Bumped on every change of the session or its lots, in the same transaction (a lot finishing too: functions/live-lots-finish.sql). */
    version: integer('version').notNull().default(1),
    /** Chat slow mode: seconds between lines per user (0 = off). */
    chatSlowModeSeconds: integer('chat_slow_mode_seconds').notNull().default(0),
    /** The chat's pinned line (no foreign key: a deleted line simply stops being pinned). */
    chatPinnedMessageId: uuid('chat_pinned_message_id'),
    /** 'Ensayo': a practice show with simulated bidders, unlisted, never billed; its auctions are restored when it ends. */
    rehearsal: boolean('rehearsal').notNull().default(false),
    /** 'Avance automático' paused by the seller (biddingConfig.autoAdvanceSeconds stays). */
    autoAdvancePaused: boolean('auto_advance_paused').notNull().default(false),
    /** How the show's bills charge shipping ('Cobrar el show'); null until the seller sets them. */
    shippingRules: jsonb('shipping_rules').$type<ShippingRules>(),
    /** The show's own payment deadline in hours; null follows the company's. */
    paymentDeadlineHours: integer('payment_deadline_hours'),
    /** 'Grabar el show': record the broadcast and make its replay when it ends. */
    recording: boolean('recording').notNull().default(true),
  },
  (t) => [
    check('live_sessions_slow_mode_valid', sql`${t.chatSlowModeSeconds} in (0, 5, 10, 30)`),
    check(
      'live_sessions_payment_deadline_valid',
      sql`${t.paymentDeadlineHours} is null or ${t.paymentDeadlineHours} between ${sql.raw(String(MIN_PAYMENT_DEADLINE_HOURS))} and ${sql.raw(String(MAX_PAYMENT_DEADLINE_HOURS))}`,
    ),
    index('live_sessions_company_scheduled_idx').on(t.companyId, t.scheduledAt),
    index('live_sessions_seller_scheduled_idx').on(t.sellerId, t.scheduledAt),
    index('live_sessions_scheduled_idx').on(t.scheduledAt),
    index('live_sessions_slug_idx').on(t.sellerSlug),
    check('live_sessions_status_valid', sql`${t.status} in (${inList(SESSION_STATUSES)})`),
    check('live_sessions_stream_valid', sql`${t.streamType} in (${inList(STREAM_TYPES)})`),
    check('live_sessions_title_present', sql`length(trim(${t.title})) > 0`),
    /** The public directory (/live): sessions by status, soonest first. */
    index('live_sessions_status_scheduled_idx').on(t.status, t.scheduledAt),
  ],
);

export const liveLots = pgTable(
  'live_lots',
  {
    id: id(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'restrict' }),
    order: integer('order').notNull(),
    status: text('status', { enum: LOT_STATUSES }).notNull().default('queued'),
    createdAt: createdAt(),
    /** The lot's own timer format; null follows the session's biddingConfig. */
    timerMode: text('timer_mode', { enum: TIMER_MODES }),
    counterBidWindowSeconds: integer('counter_bid_window_seconds'),
    counterBidResetSeconds: integer('counter_bid_reset_seconds'),
  },
  (t) => [
    check('live_lots_timer_mode_valid', sql`${t.timerMode} is null or ${t.timerMode} in (${inList(TIMER_MODES)})`),
    check(
      'live_lots_counter_bid_valid',
      sql`(${t.counterBidWindowSeconds} is null or ${t.counterBidWindowSeconds} between 1 and 300) and (${t.counterBidResetSeconds} is null or ${t.counterBidResetSeconds} between 1 and 300)`,
    ),
    unique('live_lots_session_order_key').on(t.sessionId, t.order),
    unique('live_lots_session_auction_key').on(t.sessionId, t.auctionId),
    index('live_lots_auction_idx').on(t.auctionId),
    check('live_lots_order_positive', sql`${t.order} >= 1`),
    check('live_lots_status_valid', sql`${t.status} in (${inList(LOT_STATUSES)})`),
  ],
);

/**
 * The Idempotency-Keys of 'Crear sesión' and the quick auction, per user: a repeat of a key answers
 * the record its first request created (src/server/features/live/sessions/idempotency.ts). Kept a day.
 */
export const liveIdempotencyKeys = pgTable(
  'live_idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    /** sha256 of what was asked (route, session, body): the same key with anything else is refused. */
    requestHash: text('request_hash').notNull(),
    /** What the first request made; no foreign key, so a record deleted since answers 404 and is not made again. */
    sessionId: uuid('session_id'),
    auctionId: uuid('auction_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.idempotencyKey] }),
    index('live_idempotency_keys_created_idx').on(t.createdAt),
    check('live_idempotency_keys_key_length', sql`length(${t.idempotencyKey}) between 1 and 100`),
  ],
);

// ── live chat and moderation ────────────────────────────────────────────────

/** A show's chat, kept per session: the live page and the replay after the show read the same rows. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    /** Orders lines across instances: newest last. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    /** Null for the show's own system lines. */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** The public name as it was when written ("Sofía R."). */
    authorName: text('author_name'),
    authorIsModerator: boolean('author_is_moderator').notNull().default(false),
    kind: text('kind', { enum: CHAT_KINDS }).notNull().default('user'),
    text: text('text').notNull(),
    system: jsonb('system').$type<ChatSystemEvent>(),
    /** A system line's identity (its event, its lot and the lot's round): each is written once, whichever instance writes it. */
    systemKey: text('system_key'),
    /** A muted word was in it: shown only to its author. */
    onlyAuthor: boolean('only_author').notNull().default(false),
    deletedAt: ts('deleted_at'),
    deletedBy: uuid('deleted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chat_messages_seq_key').on(t.seq),
    index('chat_messages_session_seq_idx').on(t.sessionId, t.seq),
    uniqueIndex('chat_messages_system_key').on(t.sessionId, t.systemKey),
    check('chat_messages_kind_valid', sql`${t.kind} in (${inList(CHAT_KINDS)})`),
    check('chat_messages_text_length', sql`length(${t.text}) <= 2000`),
  ],
);

/**
 * One row per user who has written in a session: when they last wrote and what, so the pace and
 * the repeated-line rules hold across instances with one conditional upsert.
 */
export const chatWriters = pgTable(
  'chat_writers',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastAt: ts('last_at').notNull(),
    lastText: text('last_text').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.userId] })],
);

/**
 * The chat's pace per client address (features/chat/address-pace.ts): when the address's next line
 * is due in the session, a generic cell rate. The address is kept as a keyed hash, never as typed.
 */
export const chatAddressPace = pgTable(
  'chat_address_pace',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    addressHash: text('address_hash').notNull(),
    dueAt: ts('due_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.addressHash] })],
);

/** "Reportar": one report per line and reporter; moderators see them. */
export const chatReports = pgTable(
  'chat_reports',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.reporterId] }), index('chat_reports_session_idx').on(t.sessionId, t.createdAt)],
);

/** Moderators appointed for one session (the seller and the company's admins moderate without a row). */
export const sessionModerators = pgTable(
  'session_moderators',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appointedBy: uuid('appointed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.userId] }), index('session_moderators_user_idx').on(t.userId)],
);

/** A user muted in one session's chat, until a time or (null) until the session ends. */
export const sessionMutes = pgTable(
  'session_mutes',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    until: ts('until'),
    mutedBy: uuid('muted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.userId] })],
);

/** A user blocked from a company's shows: no chat in, and no bid on, any of its sessions and auctions (the bid engine checks it). */
export const companyBlocks = pgTable(
  'company_blocks',
  {
    companyId: text('company_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedBy: uuid('blocked_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** 'strikes' when unpaid bills reached the company's limit (lifting it clears the strikes too). */
    reason: text('reason', { enum: BLOCK_REASONS }).notNull().default('moderation'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] }), check('company_blocks_reason_valid', sql`${t.reason} in (${inList(BLOCK_REASONS)})`)],
);

/**
 * 'Puja anticipada': a buyer's maximum on a show's lot before it opens, one per buyer and auction.
 * When the lot opens its pre-bids enter the bid engine by `created_at` (the earlier wins a tie) and
 * `entered_at` is set, in the opening's transaction; a raise keeps `created_at` (its place in line).
 */
export const prebids = pgTable(
  'prebids',
  {
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    bidderId: uuid('bidder_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    maxAmount: integer('max_amount').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** When the lot opened and this maximum entered the engine; null while it waits. */
    enteredAt: ts('entered_at'),
    /** What the engine made of it at the opening: 'leading', 'outbid' or a refusal code. */
    outcome: text('outcome'),
  },
  (t) => [
    primaryKey({ columns: [t.auctionId, t.bidderId] }),
    index('prebids_auction_created_idx').on(t.auctionId, t.createdAt),
    index('prebids_bidder_idx').on(t.bidderId),
    check('prebids_max_positive', sql`${t.maxAmount} > 0`),
  ],
);

/**
 * A rehearsal's auctions as they were before it touched them (the auction row's fields and its bid
 * count), so ending the rehearsal puts them back and removes what it added.
 */
export const rehearsalSnapshots = pgTable(
  'rehearsal_snapshots',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.auctionId] }), index('rehearsal_snapshots_auction_idx').on(t.auctionId)],
);

/** A company's muted words: a line holding one is shown only to its author. */
export const companyMutedWords = pgTable('company_muted_words', {
  companyId: text('company_id').primaryKey(),
  words: text('words').array().notNull().default(sql`ARRAY[]::text[]`),
  updatedAt: updatedAt(),
});

// ── files, webhooks, audit ──────────────────────────────────────────────────

export const uploads = pgTable(
  'uploads',
  {
    id: id(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    companyId: text('company_id'),
    kind: text('kind', { enum: UPLOAD_KINDS }).notNull(),
    storageKey: text('storage_key').notNull(),
    url: text('url').notNull(),
    thumbnailKey: text('thumbnail_key'),
    thumbnailUrl: text('thumbnail_url'),
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('uploads_storage_key').on(t.storageKey),
    /** Auction rows store image URLs; the admin table finds each cover's thumbnail by URL. */
    index('uploads_url_idx').on(t.url),
    index('uploads_owner_idx').on(t.ownerId, t.createdAt.desc()),
    check('uploads_kind_valid', sql`${t.kind} in (${inList(UPLOAD_KINDS)})`),
  ],
);

/**
 * The sandbox provider's own side (providers/payments/sandbox.ts): the payments its checkout page
 * took, which its webhooks announce and which it answers when asked, as Mercado Pago would.
 */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    id: text('id').primaryKey(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    status: text('status', { enum: PROVIDER_STATUSES }).notNull(),
    amount: integer('amount').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sandbox_payments_payment_idx').on(t.paymentId), check('sandbox_payments_status_valid', sql`${t.status} in (${inList(PROVIDER_STATUSES)})`)],
);

/** Every verified webhook received, deduplicated by the provider's event id. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: id(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    topic: text('topic'),
    resourceId: text('resource_id'),
    signatureValid: boolean('signature_valid').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
    processedAt: ts('processed_at'),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('webhook_events_provider_event_key').on(t.provider, t.eventId),
    index('webhook_events_resource_idx').on(t.provider, t.resourceId),
    index('webhook_events_received_idx').on(t.receivedAt.desc()),
  ],
);

/** Who changed what: roles, companies, payments, sessions. Rows are only ever added. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    /** The X-Request-ID of the request that made the change (http/request-id.ts); null for background jobs and rows from before it was kept. */
    requestId: text('request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_entity_idx').on(t.entityType, t.entityId, t.createdAt.desc()),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt.desc()),
    index('audit_log_created_idx').on(t.createdAt.desc()),
    // An operator looks up a complaint's request by its id (README, "From a complaint to the log line").
    index('audit_log_request_idx').on(t.requestId),
  ],
);

// ── after the show ──────────────────────────────────────────────────────────

/**
 * Each time a lot was on the block: opened by the timer, Siguiente lote or auto-advance
 * (live/timer.ts openLot). A run ends at the next run's opening or at its auction's end; a lot put
 * back in line (Volver a subastar) has several runs. The summary's viewers chart draws them as bands.
 */
export const liveLotRuns = pgTable(
  'live_lot_runs',
  {
    id: id(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    lotId: uuid('lot_id')
      .notNull()
      .references(() => liveLots.id, { onDelete: 'cascade' }),
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    openedAt: ts('opened_at').notNull().defaultNow(),
    /** Set when the lot's auction ends or another lot opens; null while it runs. */
    closedAt: ts('closed_at'),
  },
  (t) => [index('live_lot_runs_session_idx').on(t.sessionId, t.openedAt)],
);

/** The viewer count of a live show, sampled every few seconds (one row per session and sample time, on every instance). */
export const liveViewerSamples = pgTable(
  'live_viewer_samples',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    /** The sample's time, rounded down to the sampling period so two instances write one row. */
    at: ts('at').notNull(),
    viewers: integer('viewers').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.at] }), check('live_viewer_samples_viewers_valid', sql`${t.viewers} >= 0`)],
);

/**
 * A bill's reminders: the first message with the link, the ladder (24 h after the link, 12 h before
 * the deadline) and a second-chance offer's message. One per bill and kind. On the embedded default
 * the seller sends each from a wa.me button ('Recordatorios pendientes'); with the WhatsApp Cloud
 * API configured they go out as templates to buyers who consented, retried with backoff, and their
 * delivery comes back by webhook.
 */
export const paymentReminders = pgTable(
  'payment_reminders',
  {
    id: id(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: REMINDER_KINDS }).notNull(),
    dueAt: ts('due_at').notNull(),
    channel: text('channel', { enum: REMINDER_CHANNELS }).notNull().default('waMe'),
    status: text('status', { enum: REMINDER_STATUSES }).notNull().default('due'),
    /** The Cloud API's message id (wamid), which its status webhooks name. */
    providerMessageId: text('provider_message_id'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    lastError: text('last_error'),
    sentAt: ts('sent_at'),
    /** When WhatsApp said the current status (orders webhooks that arrive late or twice). */
    statusAt: ts('status_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('payment_reminders_payment_kind_key').on(t.paymentId, t.kind),
    uniqueIndex('payment_reminders_message_key').on(t.providerMessageId).where(sql`${t.providerMessageId} is not null`),
    index('payment_reminders_due_idx').on(t.status, t.dueAt),
    check('payment_reminders_kind_valid', sql`${t.kind} in (${inList(REMINDER_KINDS)})`),
    check('payment_reminders_channel_valid', sql`${t.channel} in (${inList(REMINDER_CHANNELS)})`),
    check('payment_reminders_status_valid', sql`${t.status} in (${inList(REMINDER_STATUSES)})`),
  ],
);

/** One strike per expired bill, for the buyer with the bill's company; lifting a strikes block lifts them. */
export const buyerStrikes = pgTable(
  'buyer_strikes',
  {
    id: id(),
    companyId: text('company_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    liftedAt: ts('lifted_at'),
    liftedBy: uuid('lifted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [unique('buyer_strikes_payment_key').on(t.paymentId), index('buyer_strikes_company_user_idx').on(t.companyId, t.userId)],
);

/** A lot of an expired bill, and what the seller chose for it (null until they choose). */
export const expiredLots = pgTable(
  'expired_lots',
  {
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    decision: text('decision', { enum: EXPIRED_LOT_DECISIONS }),
    decidedAt: ts('decided_at'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.paymentId, t.auctionId] }),
    check('expired_lots_decision_valid', sql`${t.decision} is null or ${t.decision} in (${inList(EXPIRED_LOT_DECISIONS)})`),
  ],
);

/**
 * Segunda oportunidad: an expired lot offered to its runner-up at their own highest bid. Never
 * automatic; the runner-up gets a bill with a link and a deadline and may decline it.
 */
export const secondChanceOffers = pgTable(
  'second_chance_offers',
  {
    id: id(),
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    /** The expired bill the lot came from. */
    expiredPaymentId: uuid('expired_payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    /** The runner-up's bill for it. */
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    status: text('status', { enum: SECOND_CHANCE_STATUSES }).notNull().default('offered'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    answeredAt: ts('answered_at'),
  },
  (t) => [
    index('second_chance_offers_buyer_idx').on(t.buyerId),
    /** One open offer per lot at a time. */
    uniqueIndex('second_chance_offers_one_open').on(t.auctionId).where(sql`${t.status} = 'offered'`),
    check('second_chance_offers_status_valid', sql`${t.status} in (${inList(SECOND_CHANCE_STATUSES)})`),
    check('second_chance_offers_amount_valid', sql`${t.amount} >= 0`),
  ],
);

// ── the front door: following, alerts, push, applications ──────────────────

/** A buyer follows a seller: told when the seller's shows go live. Sellers see only the count. */
export const sellerFollows = pgTable(
  'seller_follows',
  {
    followerId: uuid('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.sellerId] }),
    // A seller's followers in id order: the go-live fan-out walks them a batch at a time from where it stopped.
    index('seller_follows_seller_follower_idx').on(t.sellerId, t.followerId),
    check('seller_follows_not_self', sql`${t.followerId} <> ${t.sellerId}`),
  ],
);

/** 'Avísame': a buyer bookmarked a scheduled show, told 15 minutes before it and when it goes live. */
export const sessionReminders = pgTable(
  'session_reminders',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.sessionId] }),
    // A show's bookmarkers in id order, as the fan-out walks them (see seller_follows).
    index('session_reminders_session_user_idx').on(t.sessionId, t.userId),
  ],
);

/** A browser's Web Push subscription (the PushSubscription's JSON). Removed when its push service answers 404 or 410. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    /** The last push it accepted, to the day: a success within a day of the last one does not rewrite the row. */
    lastSuccessAt: ts('last_success_at'),
    /** Sends in a row that failed (not 404/410); reset by a success. */
    failureCount: integer('failure_count').notNull().default(0),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
);

export const NOTIFICATION_KINDS = ['show_live', 'show_soon', 'application_approved', 'application_declined'] as const;

/**
 * The in-app bell: one row per alert to one user. A show's alert of one kind is written once per
 * user (the unique key), whichever instance or pass gets there first.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    url: text('url').notNull(),
    sessionId: uuid('session_id').references(() => liveSessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    readAt: ts('read_at'),
  },
  (t) => [
    uniqueIndex('notifications_once_per_show').on(t.userId, t.kind, t.sessionId),
    index('notifications_user_newest_idx').on(t.userId, t.createdAt.desc()),
    check('notifications_kind_valid', sql`${t.kind} in (${inList(NOTIFICATION_KINDS)})`),
  ],
);

export const SHOW_ALERT_KINDS = ['live', 'soon'] as const;

/**
 * A show's alert to its followers and bookmarkers, made once per show and kind (the primary key):
 * the go-live job fans it out into notifications and push deliveries in batches, and notes when it is done.
 */
export const showAlerts = pgTable(
  'show_alerts',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SHOW_ALERT_KINDS }).notNull(),
    createdAt: createdAt(),
    /** Fan-out finished: every follower's and bookmarker's notification is written. */
    fannedOutAt: ts('fanned_out_at'),
    /** The fan-out walks its audience in user id order: the last user it has served (null before the first batch). */
    servedThrough: uuid('served_through'),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.kind] }),
    check('show_alerts_kind_valid', sql`${t.kind} in (${inList(SHOW_ALERT_KINDS)})`),
    // The job's every pass reads the alerts still to fan out, oldest first: never the years of those done.
    index('show_alerts_waiting_idx').on(t.createdAt).where(sql`${t.fannedOutAt} is null`),
  ],
);

export const PUSH_DELIVERY_STATUSES = ['pending', 'sent', 'failed', 'gone'] as const;

/** One push of one notification to one subscription: the queue the push sender takes from (SKIP LOCKED). */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: PUSH_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    /** After this the alert is stale (TTL): never sent late. */
    expiresAt: ts('expires_at').notNull(),
    sentAt: ts('sent_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('push_deliveries_once').on(t.notificationId, t.subscriptionId),
    index('push_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('push_deliveries_status_valid', sql`${t.status} in (${inList(PUSH_DELIVERY_STATUSES)})`),
  ],
);

/** Secrets the server makes on first start and keeps with the data (the VAPID key pair), one row per name. */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
});

export const SELLER_APPLICATION_STATUSES = ['pending', 'approved', 'declined'] as const;

/** 'Quiero vender': an account's request to sell, approved or declined by a platform admin. */
export const sellerApplications = pgTable(
  'seller_applications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    businessName: text('business_name').notNull(),
    city: text('city').notNull(),
    whatsapp: text('whatsapp').notNull(),
    description: text('description').notNull(),
    rfc: text('rfc'),
    status: text('status', { enum: SELLER_APPLICATION_STATUSES }).notNull().default('pending'),
    declineReason: text('decline_reason'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: ts('decided_at'),
    /** The company approval made. */
    companyId: text('company_id'),
    createdAt: createdAt(),
  },
  (t) => [
    /** One open request per account. */
    uniqueIndex('seller_applications_one_pending').on(t.userId).where(sql`${t.status} = 'pending'`),
    index('seller_applications_status_newest_idx').on(t.status, t.createdAt.desc()),
    index('seller_applications_user_idx').on(t.userId, t.createdAt.desc()),
    check('seller_applications_status_valid', sql`${t.status} in (${inList(SELLER_APPLICATION_STATUSES)})`),
    check('seller_applications_decline_has_reason', sql`${t.status} <> 'declined' or length(trim(coalesce(${t.declineReason}, ''))) > 0`),
  ],
);

// ── replays ─────────────────────────────────────────────────────────────────

/**
 * A show's recording and its replay, one row per show that was recorded: 'recording' while it runs,
 * 'processing' once it ended (the replays job joins its segments into one MP4, leased across
 * restarts and instances), then 'ready' or 'failed' with the reason. The chapters are written with
 * the video, from the show's lot runs on the recording's clock.
 */
export const replays = pgTable(
  'replays',
  {
    sessionId: uuid('session_id')
      .primaryKey()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: REPLAY_STATUSES }).notNull().default('recording'),
    /** The seller may hide a replay (and show it again) at any time. */
    visibility: text('visibility', { enum: REPLAY_VISIBILITIES }).notNull().default('public'),
    /** How much of the making is done, 0–100 ('Preparando la repetición… 40 %'). */
    progress: integer('progress').notNull().default(0),
    /** The MP4 and its poster frame in storage, once made. */
    videoKey: text('video_key'),
    posterKey: text('poster_key'),
    durationMs: integer('duration_ms'),
    height: integer('height'),
    chapters: jsonb('chapters').$type<ReplayChapter[]>(),
    /**
     * The recording's segments as they were joined, in order (each its first frame's moment, epoch
     * ms, and its length): what places a moment of the show, a chat line, on the replay's clock.
     */
    timeline: jsonb('timeline').$type<{ startedAt: number; durationMs: number }[]>(),
    attempts: integer('attempts').notNull().default(0),
    /** Why the last attempt failed, shown beside 'Reintentar'. */
    error: text('error'),
    /** The instance making it holds it until then; a crashed one's lease runs out and another takes it. */
    leasedUntil: ts('leased_until'),
    readyAt: ts('ready_at'),
    /** When the retention job deletes it (REPLAY_RETENTION_DAYS after it is ready). */
    expiresAt: ts('expires_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('replays_status_valid', sql`${t.status} in (${inList(REPLAY_STATUSES)})`),
    check('replays_visibility_valid', sql`${t.visibility} in (${inList(REPLAY_VISIBILITIES)})`),
    check('replays_progress_valid', sql`${t.progress} between 0 and 100`),
    index('replays_processing_idx').on(t.leasedUntil).where(sql`${t.status} = 'processing'`),
    index('replays_expires_idx').on(t.expiresAt),
  ],
);

/**
 * One stretch of a show's recording: from a start (or a resume after a pause or a lost camera) to
 * its stop. The replay joins a show's segments in order. The raw files are on the disk of the
 * machine that recorded them (`host`), under DATA_DIR/recordings (or Janus's rec_dir).
 */
export const recordingSegments = pgTable(
  'recording_segments',
  {
    id: id(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    source: text('source', { enum: RECORDING_SOURCES }).notNull(),
    /** The raw files, relative to the recordings folder. */
    files: jsonb('files').$type<string[]>().notNull().default([]),
    host: text('host').notNull(),
    startedAt: ts('started_at').notNull(),
    /** Null while it records (or when its recorder died: the files then end where it stopped writing). */
    endedAt: ts('ended_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('recording_segments_source_valid', sql`${t.source} in (${inList(RECORDING_SOURCES)})`),
    index('recording_segments_session_idx').on(t.sessionId, t.startedAt),
  ],
);

/** A sold lot's clip, from its start to its hammer (at most 2 minutes), cut from the replay's MP4: the buyer's video receipt. */
export const replayClips = pgTable(
  'replay_clips',
  {
    auctionId: uuid('auction_id')
      .primaryKey()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: CLIP_STATUSES }).notNull().default('pending'),
    videoKey: text('video_key'),
    /** Where the clip is on the replay's clock. */
    startMs: integer('start_ms').notNull(),
    endMs: integer('end_ms').notNull(),
    durationMs: integer('duration_ms'),
    error: text('error'),
    /** 30 days after its bill is paid, or 90 after the show while it is not (the retention job keeps it current). */
    expiresAt: ts('expires_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('replay_clips_status_valid', sql`${t.status} in (${inList(CLIP_STATUSES)})`),
    check('replay_clips_span_valid', sql`${t.endMs} > ${t.startMs}`),
    index('replay_clips_session_idx').on(t.sessionId),
    index('replay_clips_expires_idx').on(t.expiresAt),
  ],
);
