import type { MantineColor } from '@mantine/core';
import { formatMoney } from '../../../domain/money.js';
import type { PaymentStatus } from '../../../domain/payment-status.js';
import {
  grandTotal,
  hasShipping,
  type PaymentView,
  type PayoutStatus,
  type ProviderStatus,
  paymentMessage,
  type WinnerSummary,
  type WinnersSummary,
  type WonItem,
  whatsappLink,
  ZShippingInput,
} from '../../../domain/payments.js';
import { foldText } from '../../../domain/text.js';

/**
 * The billing workspace's decisions, kept pure so they are tested without a browser: shipping
 * parsing, which actions a row offers for a role and status, and the WhatsApp message and link.
 */

// ── Shipping ────────────────────────────────────────────────────────────────

/** What the forms hold: the carrier as typed, the cost as the number input gives it ('' when empty). */
export interface ShippingFormValues {
  carrier: string;
  cost: number | string;
}

export interface Shipping {
  shippingCarrier: string | null;
  shippingCost: number;
}

/** ZShippingInput's issue messages; each is a key under `payments.shipping.errors`. */
export const SHIPPING_ERROR_KEYS = ['tooLong', 'invalid', 'shippingCostInvalid', 'shippingCostInteger', 'shippingCostNegative', 'shippingCostTooHigh'] as const;
export type ShippingErrorKey = (typeof SHIPPING_ERROR_KEYS)[number];

export type ShippingValidation = { ok: true; value: Shipping } | { ok: false; errors: { carrier?: ShippingErrorKey; cost?: ShippingErrorKey } };

function isShippingErrorKey(value: string): value is ShippingErrorKey {
  return (SHIPPING_ERROR_KEYS as readonly string[]).includes(value);
}

/** Whole pesos written with thousands separators: '1,500', '12,000'. */
const THOUSANDS = /^\s*\d{1,3}(,\d{3})+\s*$/;

/**
 * SPEC §5 with the server's own schema: the carrier is trimmed (empty → null) and the cost is a
 * number, an empty field counting as 0, in whole pesos, 0 or more.
 */
export function validateShipping(values: ShippingFormValues): ShippingValidation {
  // '1,500' reads as 1500, as an es-MX seller writes it; anything else goes to the schema as typed.
  const cost = typeof values.cost === 'string' && THOUSANDS.test(values.cost) ? values.cost.replace(/,/g, '') : values.cost;
  const result = ZShippingInput.safeParse({ shippingCarrier: values.carrier, shippingCost: cost });
  if (result.success) return { ok: true, value: { shippingCarrier: result.data.shippingCarrier, shippingCost: result.data.shippingCost } };
  const errors: { carrier?: ShippingErrorKey; cost?: ShippingErrorKey } = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] === 'shippingCarrier' ? 'carrier' : 'cost';
    if (errors[field]) continue;
    errors[field] = isShippingErrorKey(issue.message) ? issue.message : field === 'carrier' ? 'invalid' : 'shippingCostInvalid';
  }
  return { ok: false, errors };
}

export function sameShipping(a: Shipping, b: Shipping): boolean {
  return (a.shippingCarrier ?? '') === (b.shippingCarrier ?? '') && a.shippingCost === b.shippingCost;
}

export function shippingFormValues(p: Shipping): ShippingFormValues {
  return { carrier: p.shippingCarrier ?? '', cost: p.shippingCost };
}

/**
 * Shipping kept in the browser per winners-summary key, as read back from storage: anything
 * malformed or empty is dropped, so a stale or edited entry can never reach a request.
 */
export function sanitizeClientShipping(value: unknown): Record<string, Shipping> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const out: Record<string, Shipping> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { shippingCarrier, shippingCost } = entry as Partial<Record<keyof Shipping, unknown>>;
    if ((shippingCarrier !== null && shippingCarrier !== undefined && typeof shippingCarrier !== 'string') || typeof shippingCost !== 'number') continue;
    const checked = validateShipping({ carrier: shippingCarrier ?? '', cost: shippingCost });
    if (checked.ok && hasShipping(checked.value)) out[key] = checked.value;
  }
  return out;
}

/** Why a payment cannot get its link yet (SPEC §5), or null when it can. */
export function linkBlocker(p: Shipping & { wonItems: readonly WonItem[] }): 'noItems' | 'needShipping' | null {
  if (p.wonItems.length === 0) return 'noItems';
  if (!hasShipping(p)) return 'needShipping';
  return null;
}

// ── 'Listos para facturar' ───────────────────────────────────────────────────

/** A winners-summary entry with the shipping the seller typed before any draft exists (SPEC §3). */
export interface ReadyRow extends WinnerSummary, Shipping {
  /** The summary's key: winnerId, or winnerId:companyId for a winner's second company. */
  key: string;
  grandTotal: number;
}

export const NO_SHIPPING: Shipping = { shippingCarrier: null, shippingCost: 0 };

/** The summary as rows, by winner name, each with its client-side shipping and grand total. */
export function readyRows(summary: WinnersSummary | undefined, shipping: Readonly<Record<string, Shipping>>): ReadyRow[] {
  if (!summary) return [];
  return Object.entries(summary)
    .map(([key, entry]): ReadyRow => {
      const own = shipping[key] ?? NO_SHIPPING;
      return { ...entry, key, ...own, grandTotal: grandTotal(entry.wonItems, own.shippingCost) };
    })
    .sort((a, b) => a.winnerName.localeCompare(b.winnerName, 'es-MX') || (a.companyName ?? a.companyId).localeCompare(b.companyName ?? b.companyId, 'es-MX'));
}

/** 'Agregar artículos disponibles': this winner's unbilled items that the draft's collecting account collects, not already in it. */
export function availableItemsFor(
  draft: Pick<PaymentView, 'winnerId' | 'companyId' | 'collectorId' | 'auctionIds'>,
  summary: WinnersSummary | undefined,
): WonItem[] {
  if (!summary) return [];
  const inDraft = new Set(draft.auctionIds);
  const seen = new Set<string>();
  const items: WonItem[] = [];
  for (const entry of Object.values(summary)) {
    // One company and one collecting account per payment (the server refuses a mix).
    if (entry.winnerId !== draft.winnerId || entry.companyId !== draft.companyId || entry.collectorId !== draft.collectorId) continue;
    for (const item of entry.wonItems) {
      if (inDraft.has(item.auctionId) || seen.has(item.auctionId)) continue;
      seen.add(item.auctionId);
      items.push(item);
    }
  }
  return items;
}

// ── Which actions a row shows ────────────────────────────────────────────────

export type BillingRole = 'admin' | 'seller';

export type PayoutView =
  | { kind: 'none' }
  | { kind: 'text'; status: PayoutStatus }
  /** Collected in the seller's own Mercado Pago account: no payout is due. */
  | { kind: 'direct' }
  /** `isRequested`: the seller asked, and the cell says so beside the platform's button. */
  | { kind: 'button'; action: 'requestPayout' | 'markPaidOut'; isRequested: boolean };

/**
 * SPEC §4 payout status on a paid payment. The platform admin sees whether the seller asked:
 * 'Sin solicitar', or 'Pago solicitado' with 'Marcar como pagado' (issue 14, item 4; the server
 * refuses to mark one nobody asked for), or 'Pagado al vendedor'. A seller sees 'requested',
 * 'paid_out' or the button to request it.
 */
export function payoutView(p: Pick<PaymentView, 'paymentStatus' | 'payoutStatus' | 'collectedBySeller'>, role: BillingRole): PayoutView {
  if (p.paymentStatus !== 'paid') return { kind: 'none' };
  if (p.collectedBySeller) return { kind: 'direct' };
  if (p.payoutStatus === 'paid_out') return { kind: 'text', status: 'paid_out' };
  if (role === 'admin') return p.payoutStatus === 'requested' ? { kind: 'button', action: 'markPaidOut', isRequested: true } : { kind: 'text', status: 'none' };
  if (p.payoutStatus === 'requested') return { kind: 'text', status: 'requested' };
  return { kind: 'button', action: 'requestPayout', isRequested: false };
}

export interface LinkActions {
  openLink: boolean;
  copyLink: boolean;
  /** Send the existing link over WhatsApp (needs the winner's number). */
  whatsapp: boolean;
  cancel: boolean;
}

/** A payment's link and cancel actions (the payments modal and 'Pagos en progreso'): links while it waits, cancel while draft or pending. */
export function linkActions(p: Pick<PaymentView, 'paymentStatus' | 'paymentLink' | 'winnerWhatsapp'>): LinkActions {
  const hasLink = p.paymentStatus === 'pending' && Boolean(p.paymentLink);
  return {
    openLink: hasLink,
    copyLink: hasLink,
    whatsapp: hasLink && Boolean(p.winnerWhatsapp),
    cancel: isCancelable(p.paymentStatus),
  };
}

export function isCancelable(status: PaymentStatus): boolean {
  return status === 'draft' || status === 'pending';
}

/** A draft's shipping and items change until finalize reserves it ('Generando enlace…'); finalize and cancel still work. */
export function isDraftEditable(p: Pick<PaymentView, 'paymentStatus' | 'isReserved'>): boolean {
  return p.paymentStatus === 'draft' && !p.isReserved;
}

// ── WhatsApp ─────────────────────────────────────────────────────────────────

export interface LinkMessageInput {
  winnerName: string;
  winnerWhatsapp: string | null;
  wonItems: WonItem[];
  shippingCost: number;
  grandTotal: number;
}

/** The wa.me link that sends the winner its payment link (SPEC §2 'Enviar enlace de pago'); null without a number. */
export function paymentWhatsappHref(p: LinkMessageInput, link: string): string | null {
  if (!p.winnerWhatsapp || p.winnerWhatsapp.replace(/\D/g, '') === '') return null;
  return whatsappLink(p.winnerWhatsapp, paymentMessage({ ...p, link }, formatMoney));
}

/** A chat with the winner, no message. */
export function whatsappChatHref(whatsapp: string | null): string | null {
  const digits = whatsapp?.replace(/\D/g, '') ?? '';
  return digits ? `https://wa.me/${digits}` : null;
}

/** The one WhatsApp formatter (the users screen shows numbers the same way). */
export { formatWhatsapp } from '../../../domain/phone.js';

// ── Display helpers ──────────────────────────────────────────────────────────

/** The first 8 characters of a UUID: enough to tell payments apart on screen. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

export const PAYMENT_STATUS_COLORS: Record<PaymentStatus, MantineColor> = {
  draft: 'gray',
  pending: 'yellow',
  paid: 'green',
  canceled: 'red',
};

export function providerStatusColor(status: ProviderStatus): MantineColor {
  switch (status) {
    case 'approved':
      return 'green';
    case 'pending':
    case 'in_process':
      return 'yellow';
    case 'refunded':
    case 'charged_back':
    case 'rejected':
      return 'red';
    case 'cancelled':
    case 'expired':
      return 'gray';
  }
}

/** True when every word of the search appears in one of the row's texts (accents and case ignored). */
export function matchesSearch(texts: readonly (string | null | undefined)[], search: string): boolean {
  const words = foldText(search).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  const haystack = foldText(texts.filter(Boolean).join(' '));
  return words.every((word) => haystack.includes(word));
}

/** What a payment row is searched by. */
export function paymentSearchTexts(p: Pick<PaymentView, 'id' | 'winnerName' | 'winnerWhatsapp' | 'companyName' | 'shippingCarrier' | 'wonItems'>): string[] {
  return [p.id, p.winnerName, p.winnerWhatsapp ?? '', p.companyName ?? '', p.shippingCarrier ?? '', ...p.wonItems.map((item) => item.auctionName)];
}

// ── The payment-provider section (mp-rules.ts: in the panel's first load, without the billing code) ──

export { type ConnectFailure, connectFailure, connectUrl, type MpBadge, mpBadge } from './mp-rules';
