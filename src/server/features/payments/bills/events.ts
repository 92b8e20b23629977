import type { PaymentView } from '../../../../domain/payments.js';
import type { DomainEvent } from '../../../realtime/publisher.js';

/** The event of a committed payment change, for `publisher.publish` (the publisher's path after commit). */
export function paymentChanged(change: { payment: PaymentView; auctionIds: string[] }): DomainEvent {
  const { id, companyId, sellerId, paymentStatus, payoutStatus } = change.payment;
  return { type: 'paymentChanged', payment: { id, companyId, sellerId, paymentStatus, payoutStatus }, auctionIds: change.auctionIds };
}
