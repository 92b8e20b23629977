import { z } from 'zod';
import { AUCTION_FILTERS, type AuctionHold, DEFAULT_PAGE_SIZE, PAGE_SIZES } from './auction-list.js';
import { MAX_PRICE } from './money.js';
import type { StoreLink } from './storefront.js';
import { zText } from './text.js';

/**
 * Auctions as the admin panel and the public page see them (SPEC §3, §4, §5), shared by the
 * server's validation and the web form. Issue codes in `message` are catalogue keys under
 * `auctions.errors` (web) and `messages.fields` (server), so both explain a field in the same words.
 */

export const AUCTION_STATUSES = ['pending', 'active', 'live', 'ended'] as const;
export type AuctionStatus = (typeof AUCTION_STATUSES)[number];
/** What the form may set; 'live' comes from the Live Hub and 'ended' from the clock. */
export const EDITABLE_AUCTION_STATUSES = ['pending', 'active'] as const;

/** SPEC §3, in SPEC's order and words. */
export const CONDITIONS = [
  'Nuevo',
  'Como Nuevo',
  'Usado + (Excelente)',
  'Usado (Buen Estado)',
  'Usado - (Aceptable)',
  'Aceptable/Funcional',
  'Reparación/Piezas',
] as const;
export type Condicion = (typeof CONDITIONS)[number];

/** SPEC §9. */
export const MAX_AUCTION_IMAGES = 6;
export const END_TIME_PRESETS_MINUTES = [1, 2, 3, 5, 10, 20] as const;

/**
 * SPEC §3: endTime is epoch ms but may arrive as a number, an ISO string or a timestamp
 * (`{ seconds, nanoseconds }`, as the SPEC's document database wrote it). Anything else is an error;
 * null or an empty string means "no end time".
 */
export function parseEndTime(value: unknown): Date | null | undefined {
  if (value === null || value === '') return null;
  let ms: number | undefined;
  if (typeof value === 'number') ms = value;
  else if (typeof value === 'string') {
    const trimmed = value.trim();
    // Digits only: epoch ms sent as text.
    ms = /^\d{10,}$/.test(trimmed) ? Number(trimmed) : /^\d{4}-\d{2}-\d{2}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  } else if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    const seconds = v.seconds ?? v._seconds;
    const nanos = v.nanoseconds ?? v._nanoseconds ?? 0;
    if (typeof seconds === 'number' && typeof nanos === 'number') ms = seconds * 1000 + Math.floor(nanos / 1e6);
  }
  if (ms === undefined || !Number.isFinite(ms) || !Number.isInteger(Math.round(ms))) return undefined;
  const date = new Date(Math.round(ms));
  // Years 2000–2999: a wrong unit (seconds for ms) or a typo lands outside.
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 2000 || date.getUTCFullYear() > 2999) return undefined;
  return date;
}

const ZPrice = z.number({ error: 'priceInvalid' }).int({ error: 'priceInteger' }).min(0, { error: 'priceNegative' }).max(MAX_PRICE, { error: 'priceTooHigh' });

const optionalText = (max: number) =>
  zText({ error: 'invalid' })
    .trim()
    .max(max, { error: 'tooLong' })
    .nullish()
    .transform((v) => (v ? v : null));

/** The auction form (SPEC §5). The same schema checks the browser's form and the server's body. */
export const ZAuctionInput = z
  .object({
    name: zText({ error: 'nameRequired' }).trim().min(1, { error: 'nameRequired' }).max(150, { error: 'tooLong' }),
    description: zText({ error: 'descriptionRequired' }).trim().min(1, { error: 'descriptionRequired' }).max(5000, { error: 'tooLong' }),
    categoryId: z.uuid({ error: 'categoryRequired' }),
    startingPrice: z.number({ error: 'startingPriceRequired' }).pipe(ZPrice),
    buyNowPrice: ZPrice.nullish().transform((v) => v ?? null),
    condicion: z
      .enum(CONDITIONS, { error: 'condicionInvalid' })
      .nullish()
      .transform((v) => v ?? null),
    marca: optionalText(100),
    envio: optionalText(200),
    endTime: z
      .unknown()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return null;
        const parsed = parseEndTime(value);
        if (parsed === undefined) {
          ctx.addIssue({ code: 'custom', message: 'endTimeInvalid' });
          return z.NEVER;
        }
        return parsed;
      }),
    images: z
      .array(zText({ error: 'imageInvalid' }).min(1, { error: 'imageInvalid' }).max(500, { error: 'imageInvalid' }), { error: 'imageInvalid' })
      .max(MAX_AUCTION_IMAGES, { error: 'tooManyImages' })
      .default([]),
    /** Omitted on an edit: the stored status stays (a live or ended auction is not the form's to change). A new auction defaults to pending. */
    status: z.enum(EDITABLE_AUCTION_STATUSES, { error: 'statusInvalid' }).optional(),
  })
  .superRefine(
    (value, ctx) => {
      if (typeof value.buyNowPrice === 'number' && typeof value.startingPrice === 'number' && value.buyNowPrice <= value.startingPrice) {
        ctx.addIssue({ code: 'custom', path: ['buyNowPrice'], message: 'buyNowNotAbove' });
      }
      if (Array.isArray(value.images) && new Set(value.images).size !== value.images.length) {
        ctx.addIssue({ code: 'custom', path: ['images'], message: 'imageDuplicate' });
      }
    },
    // Cross-field checks run even when another field failed, so every error shows at once.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );
export type AuctionInput = z.input<typeof ZAuctionInput>;
export type AuctionValues = z.output<typeof ZAuctionInput>;

/** Every catalogue key ZAuctionInput may produce. */
export const AUCTION_FIELD_ERRORS = [
  'nameRequired',
  'descriptionRequired',
  'categoryRequired',
  'startingPriceRequired',
  'priceInvalid',
  'priceInteger',
  'priceNegative',
  'priceTooHigh',
  'buyNowNotAbove',
  'condicionInvalid',
  'endTimeInvalid',
  'imageInvalid',
  'imageDuplicate',
  'tooManyImages',
  'statusInvalid',
  'endTimePast',
  'endTimeRequired',
  'categoryUnknown',
  'tooLong',
  'invalid',
  // Once there are bids (auction-lock.ts LOCK_CODES).
  'lockedByBids',
  'endTimeOnlyLater',
  'buyNowOnlyRemove',
  'imagesKeepExisting',
  'textInvalid',
] as const;

export const ZAuctionListQuery = z.object({
  filter: z.enum(AUCTION_FILTERS).default('all'),
  search: zText().trim().max(100).default(''),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .default(DEFAULT_PAGE_SIZE),
});
export type AuctionListQuery = z.output<typeof ZAuctionListQuery>;

/**
 * SPEC §4: an auction whose end time has passed is ended, whatever was stored. The server
 * derives it on every read; the browser only displays it.
 */
export function deriveAuctionStatus(status: AuctionStatus, endTime: number | null, now: number): AuctionStatus {
  if (status === 'ended') return 'ended';
  if (endTime !== null && endTime <= now) return 'ended';
  return status;
}

/** One row of the admin table (SPEC §2: image, name, company, category, condition, status, end date, price). */
export interface AuctionListItem {
  id: string;
  name: string;
  thumbnailUrl: string | null;
  companyId: string;
  companyName: string | null;
  categoryId: string | null;
  categoryName: string | null;
  condicion: Condicion | null;
  status: AuctionStatus;
  /** epoch ms */
  endTime: number | null;
  startingPrice: number;
  buyNowPrice: number | null;
  currentPrice: number | null;
  bidCount: number;
  currentWinnerName: string | null;
  sellerId: string | null;
  version: number;
  /** A payment or a live session holds it (as the list was read): it cannot be deleted. */
  heldBy: AuctionHold | null;
}

/**
 * Why an auction's status and end time may not change at all (the server's rule in updateAuction):
 * it has a winner or a payment, or it ended with bids. Null when they may.
 */
export type ScheduleLock = 'won' | 'endedWithBids';
export function scheduleLock(
  auction: { currentWinnerId: string | null; paymentId: string | null; status: AuctionStatus; endTime: number | null; bidCount: number },
  now: number,
): ScheduleLock | null {
  if (auction.currentWinnerId || auction.paymentId) return 'won';
  const ended = auction.status === 'ended' || (auction.endTime !== null && auction.endTime <= now);
  return ended && auction.bidCount > 0 ? 'endedWithBids' : null;
}

export interface AuctionCounts {
  all: number;
  paid: number;
  pending: number;
}

/** GET /api/auctions */
export interface AuctionListResponse {
  items: AuctionListItem[];
  total: number;
  page: number;
  pageSize: number;
  counts: AuctionCounts;
  /** epoch ms, so clients correct their countdowns (ARCHITECTURE: the server clock is the only clock). */
  serverNow: number;
}

export interface AuctionImage {
  url: string;
  thumbnailUrl: string | null;
}

/** GET /api/auctions/{id}: what anyone may see. */
export interface PublicAuction {
  id: string;
  name: string;
  description: string;
  startingPrice: number;
  buyNowPrice: number | null;
  currentPrice: number | null;
  bidCount: number;
  images: string[];
  imageDetails: AuctionImage[];
  categoryId: string | null;
  categoryName: string | null;
  condicion: Condicion | null;
  marca: string | null;
  envio: string | null;
  endTime: number | null;
  status: AuctionStatus;
  companyId: string;
  companyName: string | null;
  currentWinnerName: string | null;
  createdAt: number;
  version: number;
  serverNow: number;
  /** The seller's page (`/tienda/{slug}`) and the seller's name; null for a seller who has none yet. */
  store: StoreLink | null;
}

/** The same, plus what only the auction's own panel sees (SPEC §3 winnerDetails, sellerId). */
export interface AuctionDetail extends PublicAuction {
  sellerId: string | null;
  currentWinnerId: string | null;
  winnerDetails: { email: string | null; whatsapp: string | null } | null;
  paymentId: string | null;
  /** False when bids or a payment hold it (the server refuses the delete). */
  canDelete: boolean;
}
