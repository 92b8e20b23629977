import type { CheckoutView, SandboxOutcome } from '../../../domain/payments.js';

/**
 * What the public checkout page (/pay/{id}) shows, decided from the payment, the button the buyer
 * just pressed, and the `?result=` Mercado Pago's back_urls add. Pure, so it is tested without a browser.
 */

export const CHECKOUT_RESULTS = ['success', 'failure', 'pending'] as const;
export type CheckoutResult = (typeof CHECKOUT_RESULTS)[number];

/** Mercado Pago's own query words, for a back_url that came without our `result`. */
const PROVIDER_WORDS: Record<string, CheckoutResult> = {
  approved: 'success',
  success: 'success',
  rejected: 'failure',
  failure: 'failure',
  cancelled: 'failure',
  pending: 'pending',
  in_process: 'pending',
};

/** `?result=success|failure|pending`, else Mercado Pago's `collection_status` / `status`; null without any. */
export function checkoutResultFrom(search: string): CheckoutResult | null {
  const params = new URLSearchParams(search);
  const result = params.get('result');
  if (result && (CHECKOUT_RESULTS as readonly string[]).includes(result)) return result as CheckoutResult;
  for (const key of ['collection_status', 'status']) {
    const word = params.get(key);
    if (word && word in PROVIDER_WORDS) return PROVIDER_WORDS[word] ?? null;
  }
  return null;
}

const OUTCOME_RESULT: Record<SandboxOutcome, CheckoutResult> = { approve: 'success', reject: 'failure', pending: 'pending' };

export type CheckoutScreen =
  | { kind: 'notFound' }
  | { kind: 'canceled' }
  /** Still a draft: the seller has not finalised it. */
  | { kind: 'notReady' }
  /** Paid: `justNow` when this visit paid it (celebrate), else 'already paid'. No buttons. */
  | { kind: 'paid'; justNow: boolean }
  /** The approval is on its way (the webhook lags the buyer): the page polls. */
  | { kind: 'processing' }
  | { kind: 'rejected' }
  /** Cash at OXXO (or SPEI) chosen: a voucher and what happens next. */
  | { kind: 'waiting' }
  /** The buttons; `canPay` is false when the platform runs real Mercado Pago (its checkout has the buttons). */
  | { kind: 'pay'; canPay: boolean; notice: 'pendingVoucher' | 'lastRejected' | null };

export interface CheckoutContext {
  /** The sandbox button pressed on this page, until 'Intentar de nuevo'. */
  outcome: SandboxOutcome | null;
  /** From the query string, until 'Intentar de nuevo'. */
  result: CheckoutResult | null;
  isSandbox: boolean;
}

export function checkoutScreen(view: CheckoutView | null, ctx: CheckoutContext): CheckoutScreen {
  if (!view) return { kind: 'notFound' };
  const signal = ctx.outcome ? OUTCOME_RESULT[ctx.outcome] : ctx.result;
  switch (view.paymentStatus) {
    case 'paid':
      return { kind: 'paid', justNow: signal === 'success' };
    case 'canceled':
      return { kind: 'canceled' };
    case 'draft':
      return { kind: 'notReady' };
    case 'pending':
      break;
  }
  if (signal === 'success') return { kind: 'processing' };
  if (signal === 'failure') return { kind: 'rejected' };
  if (signal === 'pending') return { kind: 'waiting' };
  const notice =
    view.providerStatus === 'pending' || view.providerStatus === 'in_process' ? 'pendingVoucher' : view.providerStatus === 'rejected' ? 'lastRejected' : null;
  return { kind: 'pay', canPay: ctx.isSandbox, notice };
}

/** An OXXO-style reference from the payment id: 12 digits in groups of four (sandbox only, for show). */
export function voucherReference(paymentId: string): string {
  const hex = paymentId
    .replace(/[^0-9a-f]/gi, '')
    .slice(0, 12)
    .padEnd(12, '0');
  const digits = [...hex].map((c) => String(Number.parseInt(c, 16) % 10)).join('');
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** While the approval is on its way, how often the page asks again. */
export const PROCESSING_POLL_MS = 3000;
