import { z } from 'zod';
import { MAX_PRICE } from './money.js';
import type { PaymentStatus } from './payment-status.js';
import { PURCHASES_PATH } from './screens.js';
import { zText } from './text.js';

/**
 * Billing winners (SPEC §2, §3, §4, §7): the payment state machine, the shapes of
 * /api/payments, /api/winners-summary and /api/mp, and the inputs both the server and the forms
 * validate. Money is integer pesos; grand total = items + shipping.
 */

export const PAYOUT_STATUSES = ['none', 'requested', 'paid_out'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * What the provider last said about a payment (its webhook state in the admin modal). Mercado
 * Pago's statuses, which the sandbox also uses: approved pays; pending and in_process wait;
 * rejected is recorded and the link stays usable; cancelled and expired are recorded; refunded and
 * charged_back are recorded and flagged on a paid payment.
 */
export const PROVIDER_STATUSES = ['pending', 'in_process', 'approved', 'rejected', 'cancelled', 'expired', 'refunded', 'charged_back'] as const;
export type ProviderStatus = (typeof PROVIDER_STATUSES)[number];

/** Most a payment may carry, and the most a shipping cost may be. */
export const MAX_PAYMENT_ITEMS = 100;
export const MAX_SHIPPING_COST = 1_000_000;
export const MAX_CARRIER_LENGTH = 80;

// ── The state machine ────────────────────────────────────────────────────────

/** Everything that can happen to a payment. */
export type PaymentEvent =
  | { type: 'finalize' }
  | { type: 'cancel' }
  | { type: 'provider'; status: ProviderStatus }
  | { type: 'requestPayout' }
  | { type: 'markPaidOut' };

export interface PaymentMachineState {
  paymentStatus: PaymentStatus;
  payoutStatus: PayoutStatus;
  /** A refund or chargeback arrived after it was paid. */
  flagged: boolean;
  providerStatus: ProviderStatus | null;
}

export type PaymentTransition = { ok: true; state: PaymentMachineState; changed: boolean } | { ok: false; reason: PaymentRefusal };

/** Why an event does not apply: the server answers 409 with the matching message. */
export type PaymentRefusal = 'notDraft' | 'notCancelable' | 'notPaid' | 'payoutAlreadyRequested' | 'payoutNotRequested' | 'alreadyPaidOut';

/**
 * SPEC §4: draft → pending (finalize) → paid (the provider's approval, never a client).
 * Draft and pending can be cancelled, which releases the items; paid cannot. A provider message
 * never moves a payment back: a paid payment stays paid (a refund or chargeback flags it), and a
 * draft or canceled payment only records what the provider said. Payouts: none → requested →
 * paid_out on a paid payment; an admin may mark it paid out without a request.
 */
export function applyPaymentEvent(state: PaymentMachineState, event: PaymentEvent): PaymentTransition {
  const same = (next: PaymentMachineState): PaymentTransition => ({
    ok: true,
    state: next,
    changed:
      next.paymentStatus !== state.paymentStatus ||
      next.payoutStatus !== state.payoutStatus ||
      next.flagged !== state.flagged ||
      next.providerStatus !== state.providerStatus,
  });
  switch (event.type) {
    case 'finalize':
      if (state.paymentStatus !== 'draft') return { ok: false, reason: 'notDraft' };
      return same({ ...state, paymentStatus: 'pending' });
    case 'cancel':
      if (state.paymentStatus !== 'draft' && state.paymentStatus !== 'pending') return { ok: false, reason: 'notCancelable' };
      return same({ ...state, paymentStatus: 'canceled' });
    case 'provider': {
      const { status } = event;
      if (state.paymentStatus === 'paid') {
        const flagged = state.flagged || status === 'refunded' || status === 'charged_back';
        // A late 'pending' or 'rejected' after the approval says nothing new about a paid payment.
        const providerStatus = status === 'refunded' || status === 'charged_back' || status === 'approved' ? status : state.providerStatus;
        return same({ ...state, flagged, providerStatus });
      }
      if (state.paymentStatus === 'pending' && status === 'approved') return same({ ...state, paymentStatus: 'paid', providerStatus: status });
      // Money taken for a canceled payment (its items may be billed again): someone must look.
      const paidWhileCanceled = state.paymentStatus === 'canceled' && status === 'approved';
      return same({ ...state, providerStatus: status, flagged: state.flagged || paidWhileCanceled });
    }
    case 'requestPayout':
      if (state.paymentStatus !== 'paid') return { ok: false, reason: 'notPaid' };
      if (state.payoutStatus === 'paid_out') return { ok: false, reason: 'alreadyPaidOut' };
      if (state.payoutStatus === 'requested') return { ok: false, reason: 'payoutAlreadyRequested' };
      return same({ ...state, payoutStatus: 'requested' });
    case 'markPaidOut':
      if (state.paymentStatus !== 'paid') return { ok: false, reason: 'notPaid' };
      if (state.payoutStatus === 'paid_out') return { ok: false, reason: 'alreadyPaidOut' };
      // The platform pays out only what a seller asked for ('Marcar como pagado' shows only then).
      if (state.payoutStatus === 'none') return { ok: false, reason: 'payoutNotRequested' };
      return same({ ...state, payoutStatus: 'paid_out' });
  }
}

/** Grand total in integer pesos: the items plus shipping. */
export function grandTotal(items: readonly { amount: number }[], shippingCost: number): number {
  return items.reduce((sum, item) => sum + item.amount, 0) + shippingCost;
}

/** SPEC §5: a link needs a carrier or a shipping cost above 0. */
export function hasShipping(p: { shippingCarrier: string | null; shippingCost: number }): boolean {
  return (p.shippingCarrier ?? '').trim() !== '' || p.shippingCost > 0;
}

// ── Inputs (the server validates them; the forms use the same schemas) ─────

const uuid = z.uuid({ error: 'invalid' });
const auctionIds = z
  .array(uuid, { error: 'auctionIdsRequired' })
  .min(1, { error: 'auctionIdsRequired' })
  .max(MAX_PAYMENT_ITEMS, { error: 'tooManyItems' })
  .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]);

/** POST /api/payments/draft */
export const ZDraftInput = z.object({ winnerId: uuid, auctionIds });
/** POST /api/payments/{id}/add-auctions */
export const ZAddAuctionsInput = z.object({ auctionIds });
/**
 * POST /api/payments/{id}/update-shipping. SPEC §5: the cost is parsed as a number, falling back
 * to 0 (an empty field is 0); it is whole pesos, 0 or more.
 */
export const ZShippingInput = z.object({
  shippingCarrier: zText({ error: 'invalid' })
    .trim()
    .max(MAX_CARRIER_LENGTH, { error: 'tooLong' })
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  shippingCost: z
    .union([z.number(), zText().trim(), z.null()], { error: 'shippingCostInvalid' })
    .optional()
    .transform((v, ctx) => {
      const n = v === undefined || v === null || v === '' ? 0 : Number(v);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: 'shippingCostInvalid' });
        return z.NEVER;
      }
      return n;
    })
    .pipe(
      z
        .number()
        .int({ error: 'shippingCostInteger' })
        .min(0, { error: 'shippingCostNegative' })
        .max(Math.min(MAX_SHIPPING_COST, MAX_PRICE), { error: 'shippingCostTooHigh' }),
    ),
});
export type ShippingInput = z.output<typeof ZShippingInput>;

// ── What the API answers ─────────────────────────────────────────────────────

/** One won auction as billed (SPEC wonItems). */
export interface WonItem {
  auctionId: string;
  auctionName: string;
  amount: number;
}

/** GET /api/payments: one payment (SPEC §3 payment, plus the provider's word and dates as ISO text). */
export interface PaymentView {
  id: string;
  winnerId: string;
  winnerName: string;
  winnerWhatsapp: string | null;
  sellerId: string | null;
  companyId: string;
  companyName: string | null;
  auctionIds: string[];
  wonItems: WonItem[];
  totalAmount: number;
  shippingCarrier: string | null;
  shippingCost: number;
  grandTotal: number;
  paymentStatus: PaymentStatus;
  /** A draft whose checkout is being made (finalize under way or interrupted): shipping and items are fixed; 'Finalizar' finishes it. */
  isReserved: boolean;
  paymentLink: string | null;
  /** ISO time. */
  paidAt: string | null;
  payoutStatus: PayoutStatus;
  mpPaymentId: string | null;
  mpPreferenceId: string | null;
  provider: 'sandbox' | 'mercadopago' | null;
  /** The provider's last status for this payment, from its webhooks (the admin modal's "webhook" column). */
  providerStatus: ProviderStatus | null;
  /** ISO time of the last webhook applied, or null. */
  webhookAt: string | null;
  /** A refund or chargeback after payment. */
  flagged: boolean;
  /**
   * Whose connected Mercado Pago account collects this bill (the seller's own,
   * else the company admin's), or null for the platform's; as of now, so it tells which unbilled
   * items a draft can take.
   */
  collectorId: string | null;
  /** Collected in a connected account (the seller's own or its company admin's), not the platform's: no payout from the platform is due. */
  collectedBySeller: boolean;
  /** ISO time the link stops working, or null. */
  linkExpiresAt: string | null;
  /** The show this bill collects for ('Cobrar el show'), or null for a bill made by hand. */
  sessionId: string | null;
  /** ISO time the link was made (finalize), or null. */
  linkCreatedAt: string | null;
  /** ISO time the buyer must have paid by (the company's or the session's hours after the link), or null. */
  deadlineAt: string | null;
  /** ISO time the bill expired unpaid at its deadline (it is then canceled, and a strike for the buyer), or null. */
  expiredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * GET /api/winners-summary: ended auctions with a winner that are in no draft, pending or paid
 * payment, grouped by winner. SPEC keys the map by winner id; a payment belongs to one company and
 * one collecting account (the seller's own connected account, else the company
 * admin's, else the platform's), so one entry is one bill: all of a winner's items of sellers a
 * company collects for, and one entry per seller only where sellers collect in their own accounts.
 * The key is `winnerId` for the first group and `winnerId:companyId:collector` for others.
 */
export interface WinnerSummary {
  winnerId: string;
  /** The auctions' seller: null when the company's account collects several sellers' items, or for auctions listed without one. */
  sellerId: string | null;
  winnerName: string;
  winnerWhatsapp: string | null;
  companyId: string;
  companyName: string | null;
  /** Whose connected Mercado Pago account collects this bill, or null for the platform's (as PaymentView's). */
  collectorId: string | null;
  wonItems: WonItem[];
  totalAmount: number;
}
export type WinnersSummary = Record<string, WinnerSummary>;

/** POST /api/payments/draft → 201 */
export interface DraftAnswer {
  paymentId: string;
  payment: PaymentView;
}
/** POST /api/payments/{id}/finalize → 200 (the same link again on a repeat) */
export interface FinalizeAnswer {
  paymentLinkUrl: string;
  payment: PaymentView;
}
/** Every other change answers the payment as it now stands. */
export interface PaymentAnswer {
  payment: PaymentView;
}

// ── The seller's Mercado Pago connection (SPEC §2 payment-provider section) ──

/** GET /api/mp/status */
export interface MpConnectionStatus {
  connected: boolean;
  /** false → 'Conectado (test)'. Null when not connected. */
  liveMode: boolean | null;
  /** The provider's user id, shown in the badge's tooltip. */
  userId: string | null;
  /** Which provider the platform runs: in sandbox mode the connection is simulated, offline. */
  provider: 'sandbox' | 'mercadopago';
}
/** GET /api/mp/connect */
export interface MpConnectAnswer {
  url: string;
}

/** The public checkout page of the sandbox (GET /api/pay/{id}): what the buyer is asked to pay. */
export type CheckoutView = Pick<
  PaymentView,
  | 'companyName'
  | 'winnerName'
  | 'wonItems'
  | 'totalAmount'
  | 'shippingCarrier'
  | 'shippingCost'
  | 'grandTotal'
  | 'paymentStatus'
  | 'providerStatus'
  | 'linkExpiresAt'
  | 'provider'
> & {
  paymentId: string;
  /** A sandbox payment: no real money moves, and the page says so. */
  isTest: boolean;
};
/** POST /api/pay/{id} {outcome}: the sandbox's three buttons. */
export const SANDBOX_OUTCOMES = ['approve', 'reject', 'pending'] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];
export const ZSandboxPayInput = z.object({ outcome: z.enum(SANDBOX_OUTCOMES, { error: 'invalid' }) });

/**
 * The wa.me message a seller sends a winner: items, total and link (SPEC §2 'Enviar enlace de pago').
 * With the site's `origin`, a last line points the buyer at 'Mis compras'.
 */
export function paymentMessage(
  p: { winnerName: string; wonItems: WonItem[]; shippingCost: number; grandTotal: number; link: string },
  format: (n: number) => string,
  origin?: string,
): string {
  const first = p.winnerName.trim().split(/\s+/)[0] ?? '';
  const lines = p.wonItems.map((item) => `• ${item.auctionName}: ${format(item.amount)}`);
  return [
    `¡Hola${first ? ` ${first}` : ''}! Ganaste en Martillo:`,
    ...lines,
    ...(p.shippingCost > 0 ? [`Envío: ${format(p.shippingCost)}`] : []),
    `Total a pagar: ${format(p.grandTotal)}`,
    `Paga aquí: ${p.link}`,
    ...(origin ? [`Tus compras: ${origin}${PURCHASES_PATH}`] : []),
  ].join('\n');
}

/** wa.me link for a WhatsApp number in E.164 (+52…) with a prefilled message. */
export function whatsappLink(whatsapp: string, message: string): string {
  return `https://wa.me/${whatsapp.replace(/\D/g, '')}?text=${encodeURIComponent(message)}`;
}
