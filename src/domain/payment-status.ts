/**
 * A payment's statuses, without Zod (payments.ts adds the schemas), so the admin panel's URL state
 * (panel-url.ts) does not bring Zod into the panel's first load.
 */
export const PAYMENT_STATUSES = ['draft', 'pending', 'paid', 'canceled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
