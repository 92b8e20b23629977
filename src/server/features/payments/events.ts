import { PAYMENT_STATUS_EVENT, type PaymentStatusEvent } from '../../../domain/payments.js';
import type { Realtime } from '../../realtime/index.js';
import type { PaymentChange } from './service.js';

/**
 * SPEC §4 refresh triggers: after commit, the company's panels (and the platform admins) hear
 * `paymentStatusUpdate` and refetch their payments, winners and auction counts.
 */
export function emitPaymentChange(realtime: Realtime, change: PaymentChange): void {
  const { payment } = change;
  const event: PaymentStatusEvent = {
    paymentId: payment.id,
    companyId: payment.companyId,
    paymentStatus: payment.paymentStatus,
    payoutStatus: payment.payoutStatus,
    auctionIds: change.auctionIds,
  };
  realtime.toCompany(payment.companyId, PAYMENT_STATUS_EVENT, event);
}
