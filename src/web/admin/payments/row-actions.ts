import type { PaymentStatus } from '../../../domain/payment-status.js';
import type { PaymentView, PayoutStatus } from '../../../domain/payments.js';

/** Which actions a payment row offers for a role and a status. */

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
 * 'Sin solicitar', or 'Pago solicitado' with 'Marcar como pagado' (only then: the server refuses
 * to mark one nobody asked for), or 'Pagado al vendedor'. A seller sees 'requested', 'paid_out'
 * or the button to request it.
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
