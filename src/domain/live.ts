import { z } from 'zod';
import { DEFAULT_INCREMENT_BANDS, type IncrementBand, TIMER_MODES, type TimerMode } from './bid-rules.js';
import type { AuctionLiveState } from './bidding.js';
import { isUuid } from './ids.js';
import { type LotStatus, SESSION_STATUSES, type SessionStatus, slugify } from './live-public.js';
import { MAX_PRICE } from './money.js';
import { ZShippingRulesInput } from './show-billing.js';
import type { StoreLink } from './storefront.js';
import { nameTokens, zText } from './text.js';
import { MEXICO_CITY_TZ } from './time-zone.js';

export { MEXICO_CITY_TZ };

/**
 * Live sessions and their lots (SPEC §3 liveSessions, §4 "Session status", "Lot status", "Timer
 * state", §5 "Create session", "Edit session", "Quick auction", "Auction picker search", §9),
 * shared by the server's validation and the Live Hub. Issue codes in `message` are catalogue keys
 * under `livehub.errors` (web) and `messages.live` (server).
 */

/** 'none' until a first broadcast; then the provider that carried it (SPEC §3 names none | agora). */
export const STREAM_TYPES = ['none', 'embedded', 'janus', 'agora'] as const;
export type StreamType = (typeof STREAM_TYPES)[number];

// ── SPEC §9's constants ──────────────────────────────────────────────────────

export { DEFAULT_INCREMENT_BANDS, type IncrementBand, TIMER_MODES, type TimerMode };

/**
 * How a session's lots are bid and timed. `antiSnipeSeconds` is the Extender window;
 * `counterBidWindowSeconds` (W) and `counterBidResetSeconds` (R) are Contrapuja's; a lot may
 * override the mode and W and R (LotView.timerOverride). `incrementBands` null means the flat
 * `minIncrement`. `autoAdvanceSeconds` null means the seller opens each lot by hand.
 */
export interface BiddingConfig {
  minIncrement: number;
  antiSnipeSeconds: number;
  timerSecondsDefault: number;
  timerMode: TimerMode;
  counterBidWindowSeconds: number;
  counterBidResetSeconds: number;
  incrementBands: IncrementBand[] | null;
  autoAdvanceSeconds: number | null;
}
export const DEFAULT_COUNTER_BID_SECONDS = 10;
export const DEFAULT_AUTO_ADVANCE_SECONDS = 5;
export const DEFAULT_BIDDING_CONFIG: BiddingConfig = {
  minIncrement: 20,
  antiSnipeSeconds: 10,
  timerSecondsDefault: 60,
  timerMode: 'extend',
  counterBidWindowSeconds: DEFAULT_COUNTER_BID_SECONDS,
  counterBidResetSeconds: DEFAULT_COUNTER_BID_SECONDS,
  incrementBands: null,
  autoAdvanceSeconds: null,
};

/** A biddingConfig as stored: rows written before timer formats hold only the first three keys. */
export type StoredBiddingConfig = Pick<BiddingConfig, 'minIncrement' | 'antiSnipeSeconds' | 'timerSecondsDefault'> & Partial<BiddingConfig>;

/**
 * A stored biddingConfig, whatever its age, as today's shape: sessions made before timer formats
 * had only the anti-snipe window, where 0 meant sudden death.
 */
export function normalizeBiddingConfig(stored: StoredBiddingConfig | Partial<BiddingConfig> | null | undefined): BiddingConfig {
  const raw = stored ?? {};
  const antiSnipeSeconds = raw.antiSnipeSeconds ?? DEFAULT_BIDDING_CONFIG.antiSnipeSeconds;
  return {
    ...DEFAULT_BIDDING_CONFIG,
    ...raw,
    antiSnipeSeconds,
    timerMode: raw.timerMode ?? (antiSnipeSeconds === 0 ? 'suddenDeath' : 'extend'),
    incrementBands: raw.incrementBands ?? null,
    autoAdvanceSeconds: raw.autoAdvanceSeconds ?? null,
  };
}

/** A lot's own timer format (PUT /api/live-sessions/{id}/lots/{lotId}); null fields follow the session. */
export interface LotTimerOverride {
  timerMode: TimerMode | null;
  counterBidWindowSeconds: number | null;
  counterBidResetSeconds: number | null;
}

/** The Hub's timer buttons, and the quick auction's presets (null: no timer). */
export const TIMER_BUTTONS_SECONDS = [15, 30, 60] as const;
export const QUICK_TIMER_PRESETS = [null, 15, 30, 60, 120] as const;
export type QuickTimerPreset = (typeof QUICK_TIMER_PRESETS)[number];
/** The custom timer: an integer, at least 5, in steps of 5. An hour is the longest lot a show runs. */
export const TIMER_MIN_SECONDS = 5;
export const TIMER_STEP_SECONDS = 5;
export const TIMER_MAX_SECONDS = 3600;
/** The anti-snipe window a session may set (0 = sudden death, nothing extends the timer). */
export const ANTI_SNIPE_MAX_SECONDS = 300;
export const MIN_INCREMENT_MAX = 1_000_000;
/** Contrapuja's W and R: 1 s to 5 minutes each. */
export const COUNTER_BID_MIN_SECONDS = 1;
export const COUNTER_BID_MAX_SECONDS = 300;
/** A band table has 1 to 20 rows. */
export const INCREMENT_BANDS_MAX = 20;
/** 'Avance automático': the next lot opens 3 to 120 s after the previous one closes. */
export const AUTO_ADVANCE_MIN_SECONDS = 3;
export const AUTO_ADVANCE_MAX_SECONDS = 120;

export const QUICK_AUCTION_STATUSES = ['live', 'active', 'pending'] as const;
export type QuickAuctionStatus = (typeof QUICK_AUCTION_STATUSES)[number];
/** SPEC §5: the form starts on live, and resets to active after a success. */
export const QUICK_AUCTION_DEFAULT_STATUS: QuickAuctionStatus = 'live';
export const QUICK_AUCTION_RESET_STATUS: QuickAuctionStatus = 'active';

export const PICKER_LIMIT = 20;
export const PICKER_MIN_CHARS = 2;
export const PICKER_MAX_TOKENS = 10;
export const PICKER_ID_MIN_CHARS = 10;
export const PICKER_DEBOUNCE_MS = 300;

export const COVER_MAX_BYTES = 2 * 1024 * 1024;
export const COVER_ASPECT = 9 / 16;
export const COVER_WIDTH = 720;
export const COVER_HEIGHT = 1280;
export const COVER_JPEG_QUALITY = 0.9;
export const COVER_ZOOM = { min: 1, max: 3, step: 0.01 } as const;

export const MOBILE_BREAKPOINT_PX = 780;
export const SESSION_LOADED_TOAST_MS = 2000;
/** The viewer count is sent at most this often. */
export const VIEWER_COUNT_INTERVAL_MS = 1000;

export const SESSION_TITLE_MAX = 120;
export const SLUG_INPUT_MAX = 80;
export const WHATSAPP_LINK_MAX = 300;

// ── Slugs (SPEC §5 "Create session") ─────────────────────────────────────────

const WEEKDAYS_ES = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'] as const;

/** The weekday of an instant in Mexico City, in Spanish ('miércoles'). */
export function weekdayInMexicoCity(epochMs: number): string {
  const name = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: MEXICO_CITY_TZ }).format(new Date(epochMs));
  const index = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].indexOf(name);
  return WEEKDAYS_ES[index < 0 ? new Date(epochMs).getUTCDay() : index] ?? 'domingo';
}

/** SPEC §5: the slug from the seller's input, else from the title, else the weekday of the scheduled date. */
export function sessionSlug(input: { sellerSlug?: string | null; title: string; scheduledAt: number }): string {
  return slugify(input.sellerSlug ?? '') || slugify(input.title) || slugify(weekdayInMexicoCity(input.scheduledAt));
}

// ── WhatsApp group links (SPEC §5, ARCHITECTURE "Interpretations") ───────────

export const WHATSAPP_LINK_PREFIXES = ['https://wa.me/', 'https://chat.whatsapp.com/', 'https://api.whatsapp.com/'] as const;

/** A link that starts with one of the three prefixes and parses as a URL on that very host. */
export function isValidWhatsappLink(value: string): boolean {
  const link = value.trim();
  if (!WHATSAPP_LINK_PREFIXES.some((prefix) => link.startsWith(prefix))) return false;
  try {
    const url = new URL(link);
    return url.protocol === 'https:' && ['wa.me', 'chat.whatsapp.com', 'api.whatsapp.com'].includes(url.hostname);
  } catch {
    return false;
  }
}

/** Empty (or only spaces) is null; anything else is kept as typed, trimmed, once valid. */
export function normalizeWhatsappLink(value: string | null | undefined): string | null {
  const link = (value ?? '').trim();
  return link ? link : null;
}

// ── Lots (SPEC §4 "Lot status") ──────────────────────────────────────────────

/**
 * Why a lot may not leave its session, or null when it may: a lot that sold carries the show's
 * result (its sale, its winner's bill), and a running one (on the block, or with bids standing) has
 * bidders relying on it. An unsold lot that is not running may be removed, and so may a lot that
 * was never on the block in this show (`offered` false, LotView.offered): whatever its auction did
 * on its own end (sold, or still running online with bids) is no result of the show, and leaving
 * the queue changes nothing for its bidders. The server decides with it; the Live Hub reads it to say why.
 */
export type LotRemovalBlock = 'sold' | 'running';
export function lotRemovalBlock(
  state: Pick<AuctionLiveState, 'status' | 'bidCount' | 'winnerName' | 'winnerTag' | 'endTime'>,
  now: number,
  offered = true,
): LotRemovalBlock | null {
  if (!offered) return null;
  const hasBuyer = state.bidCount > 0 || state.winnerName !== null || state.winnerTag !== null;
  if (hasBuyer) return state.status === 'ended' ? 'sold' : 'running';
  // On the block: its show timer runs. An online auction ('active') without bids keeps running online when it leaves the show.
  if (state.status === 'live' && state.endTime !== null && state.endTime > now) return 'running';
  return null;
}

/** SPEC §3: order is 1-based and appended as count plus 1. */
export function nextLotOrder(lotCount: number): number {
  return lotCount + 1;
}

// ── Picker (SPEC §5 "Auction picker search") ─────────────────────────────────

export type PickerQuery = { kind: 'default' } | { kind: 'search'; tokens: string[]; auctionId: string | null };

/**
 * Under 2 characters after trimming: the default list. Otherwise up to 10 lower-cased words matched
 * against the name tokens (any match), and an input of 10 or more characters also tried as an
 * auction id (only a well-formed id is looked up).
 */
export function parsePickerQuery(raw: string | null | undefined): PickerQuery {
  const q = (raw ?? '').trim();
  if (q.length < PICKER_MIN_CHARS) return { kind: 'default' };
  const tokens = nameTokens(q, PICKER_MAX_TOKENS);
  const auctionId = q.length >= PICKER_ID_MIN_CHARS && isUuid(q) ? q.toLowerCase() : null;
  return { kind: 'search', tokens, auctionId };
}

// ── Request bodies ───────────────────────────────────────────────────────────

const ZSeconds = (min: number, max: number) =>
  z
    .number({ error: 'timerInvalid' })
    .int({ error: 'timerInvalid' })
    .min(min, { error: 'timerTooShort' })
    .max(max, { error: 'timerTooLong' })
    .refine((v) => v % TIMER_STEP_SECONDS === 0, { error: 'timerStep' });

const ZIncrement = z
  .number({ error: 'incrementInvalid' })
  .int({ error: 'incrementInvalid' })
  .min(1, { error: 'incrementInvalid' })
  .max(MIN_INCREMENT_MAX, { error: 'incrementInvalid' });
const ZCounterBidSeconds = z
  .number({ error: 'counterBidInvalid' })
  .int({ error: 'counterBidInvalid' })
  .min(COUNTER_BID_MIN_SECONDS, { error: 'counterBidInvalid' })
  .max(COUNTER_BID_MAX_SECONDS, { error: 'counterBidInvalid' });
const ZTimerMode = z.enum(TIMER_MODES, { error: 'timerModeInvalid' });

/** Ascending by `from`, the first `from` 0, each increment a positive whole peso amount. */
export const ZIncrementBands = z
  .array(
    z
      .object({
        from: z.number({ error: 'bandsInvalid' }).int({ error: 'bandsInvalid' }).min(0, { error: 'bandsInvalid' }).max(MAX_PRICE, { error: 'bandsInvalid' }),
        increment: ZIncrement,
      })
      .strict(),
    { error: 'bandsInvalid' },
  )
  .min(1, { error: 'bandsInvalid' })
  .max(INCREMENT_BANDS_MAX, { error: 'bandsTooMany' })
  .refine((bands) => bands[0]?.from === 0, { error: 'bandsFirstFromZero' })
  .refine((bands) => bands.every((band, i) => i === 0 || band.from > (bands[i - 1]?.from ?? -1)), { error: 'bandsNotAscending' });

/**
 * A session's biddingConfig as sent. The fields added with timer formats may be left out: the
 * server keeps what the session had (or the default on create), so older clients keep working.
 */
export const ZBiddingConfig = z.object({
  minIncrement: ZIncrement,
  antiSnipeSeconds: z
    .number({ error: 'antiSnipeInvalid' })
    .int({ error: 'antiSnipeInvalid' })
    .min(0, { error: 'antiSnipeInvalid' })
    .max(ANTI_SNIPE_MAX_SECONDS, { error: 'antiSnipeInvalid' }),
  timerSecondsDefault: ZSeconds(TIMER_MIN_SECONDS, TIMER_MAX_SECONDS),
  timerMode: ZTimerMode.optional(),
  counterBidWindowSeconds: ZCounterBidSeconds.optional(),
  counterBidResetSeconds: ZCounterBidSeconds.optional(),
  incrementBands: ZIncrementBands.nullable().optional(),
  autoAdvanceSeconds: z
    .number({ error: 'autoAdvanceInvalid' })
    .int({ error: 'autoAdvanceInvalid' })
    .min(AUTO_ADVANCE_MIN_SECONDS, { error: 'autoAdvanceInvalid' })
    .max(AUTO_ADVANCE_MAX_SECONDS, { error: 'autoAdvanceInvalid' })
    .nullable()
    .optional(),
});
export type BiddingConfigInput = z.output<typeof ZBiddingConfig>;

/** The stored config with what was sent laid over it. */
export function mergeBiddingConfig(stored: Partial<BiddingConfig> | null | undefined, sent: BiddingConfigInput): BiddingConfig {
  const merged = { ...normalizeBiddingConfig(stored) };
  for (const [key, value] of Object.entries(sent)) if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  return merged;
}

/** PUT /api/live-sessions/{id}/lots/{lotId}: the lot's own timer format; null returns a field to the session's. */
export const ZLotUpdate = z
  .object({
    timerMode: ZTimerMode.nullable(),
    counterBidWindowSeconds: ZCounterBidSeconds.nullable(),
    counterBidResetSeconds: ZCounterBidSeconds.nullable(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { error: 'nothingToChange' });
export type LotUpdateInput = z.input<typeof ZLotUpdate>;

const ZTitle = zText({ error: 'titleRequired' }).trim().min(1, { error: 'titleRequired' }).max(SESSION_TITLE_MAX, { error: 'tooLong' });
/** epoch ms, years 2000–2999. */
const ZScheduledAt = z
  .number({ error: 'scheduledAtRequired' })
  .int({ error: 'scheduledAtInvalid' })
  .min(Date.UTC(2000, 0, 1), { error: 'scheduledAtInvalid' })
  .max(Date.UTC(2999, 11, 31), { error: 'scheduledAtInvalid' });
const ZSlugInput = zText({ error: 'slugInvalid' }).max(SLUG_INPUT_MAX, { error: 'tooLong' });
const ZWhatsappLink = zText({ error: 'whatsappInvalid' })
  .max(WHATSAPP_LINK_MAX, { error: 'whatsappInvalid' })
  .nullish()
  .refine((v) => !normalizeWhatsappLink(v) || isValidWhatsappLink(v ?? ''), { error: 'whatsappInvalid' })
  .transform(normalizeWhatsappLink);

/** POST /api/live-sessions ('Crear sesión'). The server derives the slug with `sessionSlug`. */
export const ZSessionCreate = z.object({
  title: ZTitle,
  scheduledAt: ZScheduledAt,
  sellerSlug: ZSlugInput.nullish(),
  whatsappLink: ZWhatsappLink,
  biddingConfig: ZBiddingConfig.optional(),
  /** 'Ensayo': a practice show with simulated bidders; nothing in it is real (features/live/rehearsal). */
  rehearsal: z.boolean({ error: 'rehearsalInvalid' }).optional(),
  /** 'Grabar el show': record it for its replay; the company's default when not sent. */
  recording: z.boolean({ error: 'recordingInvalid' }).optional(),
  /** 'Envío del show', set at creation (optional): how its bills charge shipping, and its own payment deadline. */
  shippingRules: ZShippingRulesInput.optional(),
});
export type SessionCreateInput = z.input<typeof ZSessionCreate>;

/**
 * PUT /api/live-sessions/{id}: any subset ('Editar Sesión' sends its fields, the status dropdown
 * sends `status` alone, the cover sends `coverImageUrl`, null removes it). A sent `sellerSlug` is
 * derived again with the same fallbacks.
 */
export const ZSessionUpdate = z
  .object({
    title: ZTitle,
    scheduledAt: ZScheduledAt,
    sellerSlug: ZSlugInput.nullable(),
    whatsappLink: ZWhatsappLink,
    biddingConfig: ZBiddingConfig,
    coverImageUrl: zText({ error: 'coverInvalid' }).min(1, { error: 'coverInvalid' }).max(500, { error: 'coverInvalid' }).nullable(),
    status: z.enum(SESSION_STATUSES, { error: 'statusInvalid' }),
    /** Pauses (true) or resumes 'Avance automático' without turning it off. */
    autoAdvancePaused: z.boolean({ error: 'invalid' }),
    /** 'Grabar el show': on or off for the rest of the show (a stretch being recorded stops at once). */
    recording: z.boolean({ error: 'recordingInvalid' }),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { error: 'nothingToChange' });
export type SessionUpdateInput = z.input<typeof ZSessionUpdate>;

export const ZAddLot = z.object({ auctionId: z.uuid({ error: 'auctionIdInvalid' }) });
export const ZReorderLots = z.object({
  lotIds: z
    .array(z.uuid({ error: 'lotIdInvalid' }), { error: 'lotIdsInvalid' })
    .min(1, { error: 'lotIdsInvalid' })
    .max(1000, { error: 'lotIdsInvalid' }),
});
/**
 * Set on a route that would take an ended session out of 'ended' ('Establecer actual', 'Iniciar',
 * a quick auction that starts now): the seller confirmed opening the show again. Without it the
 * server answers 409 SESSION_ENDED and changes nothing.
 */
const ZReopen = z.boolean({ error: 'invalid' }).optional();
export const ZSetCurrentLot = z.object({ lotId: z.uuid({ error: 'lotIdInvalid' }), reopen: ZReopen });
/** POST /api/live-sessions/{id}/next ('Siguiente lote'): no body, `{}`, or `{ reopen: true }`. */
export const ZNextLot = z.object({ reopen: ZReopen }).nullish();
/** POST /api/live-sessions/{id}/stream/start ('Iniciar'): no body at all (Fastify reads it as null), `{}`, or `{ reopen: true }`. */
export const ZStreamStart = z.object({ reopen: ZReopen }).nullish();
/**
 * 'Detener'. `startedAt` (the lastStreamStart the page's own 'Iniciar' got): a page that goes stops
 * only the broadcast it started, never one another tab or device started since.
 */
export const ZStreamStop = z
  .object({ startedAt: z.number({ error: 'invalid' }).int({ error: 'invalid' }).positive({ error: 'invalid' }).optional() })
  .nullish();
export const ZTimerInput = z.object({ seconds: ZSeconds(TIMER_MIN_SECONDS, TIMER_MAX_SECONDS) });

/** POST /api/live-sessions/{id}/quick-auction ('Agregar subasta rápida'). */
export const ZQuickAuction = z.object({
  name: zText({ error: 'nameRequired' }).trim().min(1, { error: 'nameRequired' }).max(150, { error: 'tooLong' }),
  startingPrice: z
    .number({ error: 'startingPriceRequired' })
    .int({ error: 'priceInteger' })
    .min(0, { error: 'priceNegative' })
    .max(100_000_000, { error: 'priceTooHigh' }),
  images: z
    .array(zText({ error: 'imageInvalid' }).min(1, { error: 'imageInvalid' }).max(500, { error: 'imageInvalid' }), { error: 'imageInvalid' })
    .max(6, { error: 'tooManyImages' })
    .default([]),
  timerSeconds: z.union([z.literal(15), z.literal(30), z.literal(60), z.literal(120), z.null()], { error: 'timerPresetInvalid' }).default(null),
  status: z.enum(QUICK_AUCTION_STATUSES, { error: 'statusInvalid' }).default(QUICK_AUCTION_DEFAULT_STATUS),
  addToSession: z.boolean({ error: 'addToSessionInvalid' }).default(true),
  reopen: ZReopen,
});
export type QuickAuctionInput = z.input<typeof ZQuickAuction>;

export const ZPickerQuery = z.object({ q: zText({ error: 'queryInvalid' }).max(200, { error: 'tooLong' }).optional() });

// ── Answers ──────────────────────────────────────────────────────────────────

/** What anyone may read of a session. */
export interface LiveSessionPublic {
  id: string;
  title: string;
  sellerSlug: string;
  /** The seller's company name, as buyers know the shop ('Antigüedades Sofía'). */
  sellerName: string;
  status: SessionStatus;
  /** epoch ms */
  scheduledAt: number;
  whatsappLink: string | null;
  streamType: StreamType;
  /** The seller's broadcast is on: started and not stopped since (domain/video.ts `isBroadcasting`). */
  broadcasting: boolean;
  coverImageUrl: string | null;
  currentLotId: string | null;
  biddingConfig: BiddingConfig;
  /** 'Ensayo': a practice show; pages show "Ensayo: nada es real" and nothing is billed. */
  rehearsal: boolean;
  /** The seller paused 'Avance automático' (biddingConfig.autoAdvanceSeconds stays set). */
  autoAdvancePaused: boolean;
  /** 'Grabar el show': the show is recorded for its replay (buyers are told so on its page). */
  recording: boolean;
  /** epoch ms: when 'Avance automático' opens the next lot, while it is counting down; else null. */
  autoAdvanceAt: number | null;
  /** Bumped on every change of the session or its lots, so a stale event can be told from a fresh one. */
  version: number;
  /** The seller's page (`/tienda/{slug}`) and the seller's name; null for a seller who has none yet. */
  store: StoreLink | null;
}

/** What the session's editors (and the panel list) also read. */
export interface LiveSessionPrivate extends LiveSessionPublic {
  sellerId: string;
  companyId: string;
  /** epoch ms */
  createdAt: number;
  lastStreamStart: number | null;
  lastStreamStop: number | null;
}

/** One lot with its auction's public state. */
export interface LotView {
  id: string;
  sessionId: string;
  auctionId: string;
  order: number;
  status: LotStatus;
  /** epoch ms */
  createdAt: number;
  /** The lot's own timer format; null fields follow the session's biddingConfig. */
  timerOverride: LotTimerOverride;
  /** 'Puja anticipada' maximums waiting for the lot to open (their amounts stay hidden). */
  prebidCount: number;
  /**
   * The lot was on the block in this show (and its auction on no later show's block): only then is
   * its close a result of the show. A lot whose auction closed at its own end, or was bought on its
   * own page, while it waited in the queue was not offered: it closed outside the show.
   */
  offered: boolean;
  auction: {
    id: string;
    name: string;
    images: string[];
    thumbnailUrl: string | null;
    /** The auction's live state (price, bids, end time, status, winner masked). */
    state: AuctionLiveState;
  };
}

/** GET /api/live-sessions/{id}: public; `session` carries the private fields when `canEdit`. */
export interface LiveSessionDetail {
  session: LiveSessionPublic | LiveSessionPrivate;
  lots: LotView[];
  /** The viewer may change this session (its seller, its company's admins, platform admins). */
  canEdit: boolean;
  viewerCount: number;
  /** epoch ms */
  serverNow: number;
}

/** GET /api/live-sessions: the sessions in the panel user's scope, by scheduledAt ascending. */
export interface LiveSessionListItem extends LiveSessionPrivate {
  lotCount: number;
  canEdit: boolean;
}
export interface LiveSessionList {
  sessions: LiveSessionListItem[];
}

/** GET /api/live-sessions/public (/live alone): what is live now and what comes next. */
export interface LiveSessionCard {
  id: string;
  title: string;
  sellerSlug: string;
  sellerName: string;
  status: SessionStatus;
  scheduledAt: number;
  coverImageUrl: string | null;
  lotCount: number;
}
export interface LiveDirectory {
  live: LiveSessionCard[];
  upcoming: LiveSessionCard[];
  serverNow: number;
}

/** GET /api/live-sessions/{id}/picker?q= */
export interface PickerItem {
  id: string;
  name: string;
  thumbnailUrl: string | null;
  status: 'pending' | 'active' | 'live';
  startingPrice: number;
  currentPrice: number | null;
  /** epoch ms */
  endTime: number | null;
  /** Bids standing on it: an auction running online with bids gets a warning before it is added. */
  bidCount: number;
}
/**
 * What adding a picker's auction means for it. 'waits': it has no clock of its own (pending, or a
 * live lot not timed yet) and runs on the show's clock once on the block. 'runs': it already runs
 * online on its own end time, which holds while its lot waits in the queue: if that end comes
 * first it closes outside the show. 'runsWithBids': the same with bidders on it, so the picker asks
 * before adding it (and, on the block, the show's timer may only make its end later).
 */
export type PickerKind = 'waits' | 'runs' | 'runsWithBids';

export function pickerKind(item: Pick<PickerItem, 'status' | 'endTime' | 'bidCount'>, now: number): PickerKind {
  const runs = item.status !== 'pending' && item.endTime !== null && item.endTime > now;
  if (!runs) return 'waits';
  return item.bidCount > 0 ? 'runsWithBids' : 'runs';
}

export interface PickerAnswer {
  items: PickerItem[];
}
