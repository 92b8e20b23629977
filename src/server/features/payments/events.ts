import type { PaymentView } from '../../../domain/payments.js';
import { PAYMENT_STATUS_EVENT, type PaymentStatusEvent } from '../../../domain/realtime.js';
import type { Realtime } from '../../realtime/index.js';
import type { DomainEvent, DomainEventOf } from '../../realtime/publisher.js';
import { paymentAudience } from '../../realtime/rooms.js';

type PaymentChangeLike = Pick<DomainEventOf<'paymentChanged'>, 'payment' | 'auctionIds'>;

/** The event of a committed payment change, for `publisher.publish` (the publisher's path after commit). */
export function paymentChanged(change: { payment: PaymentView; auctionIds: string[] }): DomainEvent {
  const { id, companyId, sellerId, paymentStatus, payoutStatus } = change.payment;
  return { type: 'paymentChanged', payment: { id, companyId, sellerId, paymentStatus, payoutStatus }, auctionIds: change.auctionIds };
}

/**
 * SPEC §4 refresh triggers: after commit, those who may read the payment over HTTP hear
 * `paymentStatusUpdate` and refetch their payments, winners and auction counts. The payment id is
 * the bearer secret of its checkout, so a co-seller of the company never hears it.
 */
export function emitPaymentChange(realtime: Realtime, change: PaymentChangeLike): void {
  const { payment } = change;
  const event: PaymentStatusEvent = {
    paymentId: payment.id,
    companyId: payment.companyId,
    paymentStatus: payment.paymentStatus,
    payoutStatus: payment.payoutStatus,
    auctionIds: change.auctionIds,
  };
  realtime.to(paymentAudience(payment), PAYMENT_STATUS_EVENT, event);
}
