import type { MantineColor } from '@mantine/core';
import type { PaymentStatus } from '../../../domain/payment-status.js';
import type { ProviderStatus } from '../../../domain/payments.js';

/** How a payment shows in the tables: its short id and the colours of its statuses. */

/** The first 8 characters of a UUID: enough to tell payments apart on screen. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

export const PAYMENT_STATUS_COLORS: Record<PaymentStatus, MantineColor> = {
  draft: 'gray',
  pending: 'yellow',
  paid: 'green',
  canceled: 'red',
};

export function providerStatusColor(status: ProviderStatus): MantineColor {
  switch (status) {
    case 'approved':
      return 'green';
    case 'pending':
    case 'in_process':
      return 'yellow';
    case 'refunded':
    case 'charged_back':
    case 'rejected':
      return 'red';
    case 'cancelled':
    case 'expired':
      return 'gray';
  }
}
