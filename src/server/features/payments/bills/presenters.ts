import type { CheckoutView, PaymentView, WonItem } from '../../../../domain/payments.js';
import type { payments } from '../../../db/schema.js';
import { isReserved } from './transitions.js';

/** The JSON shapes of a payment: the panel's PaymentView and the buyer's CheckoutView. */

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentItem = WonItem;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * `companyName` is the company's current name; the row's own copy (the name when billed) stands in
 * when it has no record. `collectorId` is the account that collects it (collectors.ts).
 */
export function presentPayment(row: PaymentRow, items: PaymentItem[], companyName: string | null, collectorId: string | null): PaymentView {
  return {
    id: row.id,
    winnerId: row.winnerId,
    winnerName: row.winnerName,
    winnerWhatsapp: row.winnerWhatsapp,
    sellerId: row.sellerId,
    companyId: row.companyId,
    companyName: companyName ?? row.companyName,
    auctionIds: items.map((i) => i.auctionId),
    wonItems: items.map((i) => ({ auctionId: i.auctionId, auctionName: i.auctionName, amount: i.amount })),
    totalAmount: row.totalAmount,
    shippingCarrier: row.shippingCarrier,
    shippingCost: row.shippingCost,
    grandTotal: row.totalAmount + row.shippingCost,
    paymentStatus: row.paymentStatus,
    isReserved: isReserved(row),
    paymentLink: row.paymentLink,
    paidAt: iso(row.paidAt),
    payoutStatus: row.payoutStatus,
    mpPaymentId: row.mpPaymentId,
    mpPreferenceId: row.mpPreferenceId,
    provider: row.provider === 'sandbox' || row.provider === 'mercadopago' ? row.provider : null,
    providerStatus: row.providerStatus,
    webhookAt: iso(row.webhookAt),
    flagged: row.flagged,
    collectorId,
    collectedBySeller: row.collectedBySeller,
    linkExpiresAt: iso(row.linkExpiresAt),
    sessionId: row.sessionId,
    linkCreatedAt: iso(row.linkCreatedAt),
    deadlineAt: iso(row.deadlineAt),
    expiredAt: iso(row.expiredAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the buyer's checkout page shows (public: nothing about the seller's account or the payout). */
export function presentCheckout(p: PaymentView, opts: { isSandboxActive: boolean }): CheckoutView {
  return {
    paymentId: p.id,
    isTest: opts.isSandboxActive || p.provider === 'sandbox',
    companyName: p.companyName,
    winnerName: p.winnerName,
    wonItems: p.wonItems,
    totalAmount: p.totalAmount,
    shippingCarrier: p.shippingCarrier,
    shippingCost: p.shippingCost,
    grandTotal: p.grandTotal,
    paymentStatus: p.paymentStatus,
    providerStatus: p.providerStatus,
    linkExpiresAt: p.linkExpiresAt,
    provider: p.provider,
  };
}
