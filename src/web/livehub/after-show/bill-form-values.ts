import type { ShippingRules } from '../../../domain/after-show.js';
import { type ShippingRulesInput, type ShowShipping, ZShippingRulesInput } from '../../../domain/show-billing.js';

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
const isField = (name: string): name is BillFormField => (BILL_FORM_FIELDS as readonly string[]).includes(name);

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
  const errors: Partial<Record<BillFormField, string>> = {};
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0] ?? '');
    if (isField(name)) errors[name] ??= issue.message;
  }
  return { ok: false, errors };
}
