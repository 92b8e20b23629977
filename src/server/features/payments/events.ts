import type { DomainEvent } from '../../realtime/publisher.js';
import type { PaymentChange } from './service.js';

/** The event of a committed payment change, for `publisher.publish` (the publisher's path after commit). */
export function paymentChanged(change: Pick<PaymentChange, 'payment' | 'auctionIds'>): DomainEvent {
  const { id, companyId, sellerId, paymentStatus, payoutStatus } = change.payment;
  return { type: 'paymentChanged', payment: { id, companyId, sellerId, paymentStatus, payoutStatus }, auctionIds: change.auctionIds };
}
