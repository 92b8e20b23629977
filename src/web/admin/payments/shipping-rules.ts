import { hasShipping, type WonItem, ZShippingInput } from '../../../domain/payments.js';
import { fieldErrors } from '../../lib/field-errors';

/**
 * Shipping as the billing forms handle it, kept pure so it is tested without a browser: parsing
 * what the seller typed with the server's own schema, comparing, and reading it back from storage.
 */

/** What the forms hold: the carrier as typed, the cost as the number input gives it ('' when empty). */
export interface ShippingFormValues {
  carrier: string;
  cost: number | string;
}

export interface Shipping {
  shippingCarrier: string | null;
  shippingCost: number;
}

export const NO_SHIPPING: Shipping = { shippingCarrier: null, shippingCost: 0 };

/** ZShippingInput's issue messages; each is a key under `payments.shipping.errors`. */
export const SHIPPING_ERROR_KEYS = ['tooLong', 'invalid', 'shippingCostInvalid', 'shippingCostInteger', 'shippingCostNegative', 'shippingCostTooHigh'] as const;
export type ShippingErrorKey = (typeof SHIPPING_ERROR_KEYS)[number];

/** Each field's message key, when it was refused. */
export type ShippingErrors = { carrier?: ShippingErrorKey; cost?: ShippingErrorKey };

export type ShippingValidation = { ok: true; value: Shipping } | { ok: false; errors: ShippingErrors };

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
  const errors = fieldErrors(
    result.error.issues,
    (path): 'carrier' | 'cost' => (path[0] === 'shippingCarrier' ? 'carrier' : 'cost'),
    (message, field): ShippingErrorKey => (isShippingErrorKey(message) ? message : field === 'carrier' ? 'invalid' : 'shippingCostInvalid'),
  );
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
