import type { ShippingRules } from '../../../domain/after-show.js';
import { rulesOf, type ShippingRulesInput, type ShowBillPreview, type ShowShipping, ZShippingRulesInput } from '../../../domain/show-billing.js';
import { fieldErrors, topLevelField } from '../../lib/field-errors';

/** The shipping form of 'Cobrar el show' as typed: numbers as the inputs hold them ('' = empty). */
export interface BillFormValues {
  mode: ShippingRules['mode'];
  flatFee: number | string;
  perExtraItem: number | string;
  /** '' = never free. */
  freeOver: number | string;
  pickupAddress: string;
  /** '' = the company's deadline. */
  paymentDeadlineHours: number | string;
}

export const BILL_FORM_FIELDS = ['mode', 'flatFee', 'perExtraItem', 'freeOver', 'pickupAddress', 'paymentDeadlineHours'] as const;
export type BillFormField = (typeof BILL_FORM_FIELDS)[number];
export const isBillFormField = (name: string): name is BillFormField => (BILL_FORM_FIELDS as readonly string[]).includes(name);

/** The form as the saved rules fill it (a new show starts with a flat fee of 0). */
export function formValuesOf(shipping: ShowShipping | undefined): BillFormValues {
  const rules = shipping?.rules;
  return {
    mode: rules?.mode ?? 'flat',
    flatFee: rules?.flatFee ?? 0,
    perExtraItem: rules?.perExtraItem ?? 0,
    freeOver: rules?.freeOver ?? '',
    pickupAddress: rules?.pickupAddress ?? '',
    paymentDeadlineHours: shipping?.paymentDeadlineHours ?? '',
  };
}

/** A typed number, or NaN for text that is not one (the schema then says so); '' is null. */
function numberOrNull(v: number | string): number | null {
  if (typeof v === 'number') return v;
  const text = v.trim();
  return text === '' ? null : Number(text);
}

/** The body of PUT …/shipping, checked by the server's own schema: the input, or each field's error code. */
export function parseBillForm(values: BillFormValues): { ok: true; input: ShippingRulesInput } | { ok: false; errors: Partial<Record<BillFormField, string>> } {
  const body = {
    mode: values.mode,
    flatFee: numberOrNull(values.flatFee) ?? 0,
    perExtraItem: numberOrNull(values.perExtraItem) ?? 0,
    freeOver: numberOrNull(values.freeOver),
    pickupAddress: values.pickupAddress.trim() || null,
    paymentDeadlineHours: numberOrNull(values.paymentDeadlineHours),
  };
  const parsed = ZShippingRulesInput.safeParse(body);
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, errors: fieldErrors(parsed.error.issues, topLevelField(isBillFormField), (message) => message) };
}

/**
 * The form holds rules other than the saved ones (typed and not saved yet). 'Cobrar el show' bills
 * with the saved rules only, so the panel says so. Before any rule is saved there is nothing to
 * differ from: the panel asks for the shipping instead.
 */
export function hasUnsavedShipping(values: BillFormValues, saved: ShowShipping): boolean {
  if (!saved.rules) return false;
  const parsed = parseBillForm(values);
  if (!parsed.ok) return true;
  const typed = rulesOf(parsed.input);
  const fields = ['mode', 'flatFee', 'perExtraItem', 'freeOver', 'pickupAddress'] as const;
  const rules = saved.rules;
  return fields.some((f) => typed[f] !== rules[f]) || (parsed.input.paymentDeadlineHours ?? null) !== saved.paymentDeadlineHours;
}

/**
 * 'Por cobrar': what the show's buyers still to bill owe, shipping included. `shipping` is null
 * while the show has no saved shipping rule ('Por definir'): the total is then the lots alone.
 */
export function amountToCollect(rows: readonly ShowBillPreview[]): { lots: number; shipping: number | null; total: number } {
  const lots = rows.reduce((sum, r) => sum + r.totalAmount, 0);
  if (rows.some((r) => r.shippingCarrier === null)) return { lots, shipping: null, total: lots };
  const shipping = rows.reduce((sum, r) => sum + r.shippingCost, 0);
  return { lots, shipping, total: lots + shipping };
}
