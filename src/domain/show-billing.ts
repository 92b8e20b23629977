import { z } from 'zod';
import {
  FLAT_CARRIER,
  FREE_CARRIER,
  MAX_PAYMENT_DEADLINE_HOURS,
  MIN_PAYMENT_DEADLINE_HOURS,
  PICKUP_CARRIER_PREFIX,
  SHIPPING_MODES,
  type ShippingRules,
  showShippingLabel,
} from './after-show.js';
import { MAX_PRICE } from './money.js';
import { MAX_CARRIER_LENGTH, MAX_SHIPPING_COST, type PaymentView, type WonItem, whatsappLink } from './payments.js';
import { PURCHASES_PATH } from './screens.js';
import { zText } from './text.js';

/**
 * Billing the whole show at once ('Cobrar el show'): the session's shipping rules, the shipping
 * each buyer's bill gets from them, and the WhatsApp message of a buyer's show bill. Money in
 * whole pesos; the server computes every amount.
 */

export const MAX_PICKUP_ADDRESS_LENGTH = 250;

const money = (code: string) =>
  z
    .number({ error: `${code}Invalid` })
    .int({ error: `${code}Integer` })
    .min(0, { error: `${code}Negative` })
    .max(MAX_SHIPPING_COST, { error: `${code}TooHigh` });

/**
 * PUT /api/live-sessions/{id}/shipping. The amounts are whole pesos (flat mode); pickup needs its
 * address. paymentDeadlineHours: the show's own deadline (null = the company's); absent leaves it.
 */
export const ZShippingRulesInput = z
  .object({
    mode: z.enum(SHIPPING_MODES, { error: 'shippingModeInvalid' }),
    flatFee: money('flatFee').default(0),
    perExtraItem: money('perExtraItem').default(0),
    freeOver: z
      .number({ error: 'freeOverInvalid' })
      .int({ error: 'freeOverInteger' })
      .positive({ error: 'freeOverPositive' })
      .max(MAX_PRICE, { error: 'freeOverTooHigh' })
      .nullable()
      .default(null),
    pickupAddress: zText({ error: 'pickupAddressInvalid' })
      .trim()
      .max(MAX_PICKUP_ADDRESS_LENGTH, { error: 'pickupAddressTooLong' })
      .nullable()
      .default(null)
      .transform((v) => (v ? v : null)),
    paymentDeadlineHours: z
      .number({ error: 'deadlineHoursInvalid' })
      .int({ error: 'deadlineHoursInteger' })
      .min(MIN_PAYMENT_DEADLINE_HOURS, { error: 'deadlineHoursRange' })
      .max(MAX_PAYMENT_DEADLINE_HOURS, { error: 'deadlineHoursRange' })
      .nullable()
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.mode === 'pickup' && !v.pickupAddress) ctx.addIssue({ code: 'custom', path: ['pickupAddress'], message: 'pickupAddressRequired' });
  });
export type ShippingRulesInput = z.output<typeof ZShippingRulesInput>;

/** The rules as stored: what the other mode does not use is cleared. */
export function rulesOf(input: ShippingRulesInput): ShippingRules {
  return input.mode === 'pickup'
    ? { mode: 'pickup', flatFee: 0, perExtraItem: 0, freeOver: null, pickupAddress: input.pickupAddress }
    : { mode: 'flat', flatFee: input.flatFee, perExtraItem: input.perExtraItem, freeOver: input.freeOver, pickupAddress: null };
}

/** GET and PUT /api/live-sessions/{id}/shipping. */
export interface ShowShipping {
  /** null until the seller sets them. */
  rules: ShippingRules | null;
  /** The show's own deadline in hours, or null for the company's. */
  paymentDeadlineHours: number | null;
}

export { FLAT_CARRIER, FREE_CARRIER, PICKUP_CARRIER_PREFIX, showShippingLabel };

/**
 * The shipping of one bill under the show's rules. flat: flatFee for the first item plus
 * perExtraItem for each after it, free once the items reach freeOver; pickup: nothing to pay, and
 * the carrier says where. A carrier is always set, so the bill can have its link (hasShipping).
 * The carrier is cut to what a bill's carrier may hold; the message carries the whole address.
 */
export function shippingFor(rules: ShippingRules, items: readonly { amount: number }[]): { shippingCarrier: string; shippingCost: number } {
  if (rules.mode === 'pickup') {
    return { shippingCarrier: clip(`${PICKUP_CARRIER_PREFIX}${rules.pickupAddress ?? ''}`.trim(), MAX_CARRIER_LENGTH), shippingCost: 0 };
  }
  const n = items.length;
  const total = items.reduce((sum, i) => sum + i.amount, 0);
  if (n === 0 || (rules.freeOver !== null && total >= rules.freeOver)) return { shippingCarrier: FREE_CARRIER, shippingCost: 0 };
  const cost = Math.min(MAX_SHIPPING_COST, rules.flatFee + rules.perExtraItem * (n - 1));
  return { shippingCarrier: cost > 0 ? FLAT_CARRIER : FREE_CARRIER, shippingCost: cost };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** One buyer's wins of the show that no bill holds yet, with the shipping the rules give them. */
export interface ShowBillPreview {
  winnerId: string;
  winnerName: string;
  winnerWhatsapp: string | null;
  wonItems: WonItem[];
  totalAmount: number;
  /** null when the show has no shipping rules yet. */
  shippingCarrier: string | null;
  shippingCost: number;
  grandTotal: number;
}

/** GET /api/live-sessions/{id}/bill: the rules, who is still to bill, and the show's bills. */
export interface ShowBillOverview extends ShowShipping {
  preview: ShowBillPreview[];
  payments: PaymentView[];
}

/** POST /api/live-sessions/{id}/bill → every bill of the show (the new drafts and those made before). */
export interface ShowBillAnswer {
  payments: PaymentView[];
  /** How many drafts this call made (0 on a repeat). */
  created: number;
}

/** One bill's outcome in 'Generar enlaces'. */
export interface ShowLinkResult {
  paymentId: string;
  ok: boolean;
  link: string | null;
  /** The Spanish refusal when not ok. */
  error: string | null;
}

/** POST /api/live-sessions/{id}/bill/links. */
export interface ShowLinksAnswer {
  results: ShowLinkResult[];
  payments: PaymentView[];
}

/** A deadline as a buyer in Mexico reads it: '28 de noviembre de 2026, 18:30'. */
export function formatDeadline(iso: string): string {
  return new Intl.DateTimeFormat('es-MX', {
    timeZone: 'America/Mexico_City',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(new Date(iso));
}

/**
 * 'Enviar por WhatsApp': the Spanish message of a buyer's show bill: the lots, the shipping (or
 * where to pick up), the total, the payment link, the deadline (Mexico City time) and the
 * buyer's purchases page. pickupAddress, when given, names the whole address.
 */
export function showBillMessage(
  p: Pick<PaymentView, 'winnerName' | 'wonItems' | 'shippingCarrier' | 'shippingCost' | 'grandTotal' | 'paymentLink' | 'deadlineAt'> & {
    companyName?: string | null;
    sessionTitle?: string | null;
    pickupAddress?: string | null;
  },
  opts: { origin: string; format: (n: number) => string },
): string {
  const first = p.winnerName.trim().split(/\s+/)[0] ?? '';
  const show = p.sessionTitle ? ` en «${p.sessionTitle}»` : '';
  const from = p.companyName ? ` de ${p.companyName}` : '';
  const pickup = p.pickupAddress ?? (p.shippingCarrier?.startsWith(PICKUP_CARRIER_PREFIX) ? p.shippingCarrier.slice(PICKUP_CARRIER_PREFIX.length) : null);
  const shipping = pickup
    ? `${PICKUP_CARRIER_PREFIX}${pickup}`
    : p.shippingCost > 0
      ? `Envío${p.shippingCarrier && p.shippingCarrier !== FLAT_CARRIER ? ` (${p.shippingCarrier})` : ''}: ${opts.format(p.shippingCost)}`
      : 'Envío: gratis';
  return [
    `¡Hola${first ? ` ${first}` : ''}! Esta es tu cuenta del show${show}${from}:`,
    ...p.wonItems.map((item) => `• ${item.auctionName}: ${opts.format(item.amount)}`),
    shipping,
    `Total a pagar: ${opts.format(p.grandTotal)}`,
    ...(p.paymentLink ? [`Paga aquí: ${p.paymentLink}`] : []),
    ...(p.deadlineAt ? [`Fecha límite de pago: ${formatDeadline(p.deadlineAt)} (hora del centro de México)`] : []),
    `Tus compras: ${opts.origin.replace(/\/$/, '')}${PURCHASES_PATH}`,
  ].join('\n');
}

/** The wa.me link of a buyer's show bill, or null when the buyer has no WhatsApp or the bill no link yet. */
export function showBillWhatsapp(
  p: Parameters<typeof showBillMessage>[0] & { winnerWhatsapp: string | null },
  opts: { origin: string; format: (n: number) => string },
): string | null {
  if (!p.winnerWhatsapp || !p.paymentLink) return null;
  return whatsappLink(p.winnerWhatsapp, showBillMessage(p, opts));
}
