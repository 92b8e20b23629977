import { describe, expect, it } from 'vitest';
import type { CheckoutView } from '../../../src/domain/payments.js';
import esMX from '../../../src/web/i18n/es-MX.json';
import { type CheckoutContext, checkoutResultFrom, checkoutScreen, voucherReference } from '../../../src/web/public/pay/checkout-state';

const view = (overrides: Partial<CheckoutView> = {}): CheckoutView => ({
  paymentId: '8f14e45f-ceea-4e7a-9b0c-3f6a1e2d4c5b',
  provider: 'sandbox',
  isTest: true,
  linkExpiresAt: null,
  companyName: 'Tienda Ana',
  winnerName: 'Lucía',
  wonItems: [{ auctionId: 'a', auctionName: 'Reloj', amount: 500 }],
  totalAmount: 500,
  shippingCarrier: 'DHL',
  shippingCost: 150,
  grandTotal: 650,
  paymentStatus: 'pending',
  providerStatus: null,
  ...overrides,
});
const fresh: CheckoutContext = { outcome: null, result: null, isSandbox: true };

describe('checkoutResultFrom (?result= and Mercado Pago back_urls)', () => {
  it('reads our result word', () => {
    expect(checkoutResultFrom('?result=success')).toBe('success');
    expect(checkoutResultFrom('?result=failure')).toBe('failure');
    expect(checkoutResultFrom('?result=pending')).toBe('pending');
    expect(checkoutResultFrom('?result=hack')).toBeNull();
    expect(checkoutResultFrom('')).toBeNull();
  });
  it("falls back to Mercado Pago's own collection_status / status", () => {
    expect(checkoutResultFrom('?collection_status=approved&payment_id=1')).toBe('success');
    expect(checkoutResultFrom('?status=rejected')).toBe('failure');
    expect(checkoutResultFrom('?collection_status=in_process')).toBe('pending');
    expect(checkoutResultFrom('?collection_status=null')).toBeNull();
  });
});

describe('checkoutScreen', () => {
  it('offers the three sandbox buttons on a pending payment', () => {
    expect(checkoutScreen(view(), fresh)).toEqual({ kind: 'pay', canPay: true, notice: null });
  });

  it('has no buttons under real Mercado Pago (its own checkout takes the money)', () => {
    expect(checkoutScreen(view(), { ...fresh, isSandbox: false })).toEqual({ kind: 'pay', canPay: false, notice: null });
  });

  it('says what the last attempt left behind', () => {
    expect(checkoutScreen(view({ providerStatus: 'pending' }), fresh)).toMatchObject({ kind: 'pay', notice: 'pendingVoucher' });
    expect(checkoutScreen(view({ providerStatus: 'rejected' }), fresh)).toMatchObject({ kind: 'pay', notice: 'lastRejected' });
  });

  it('shows the outcome of the button just pressed', () => {
    expect(checkoutScreen(view({ paymentStatus: 'paid', providerStatus: 'approved' }), { ...fresh, outcome: 'approve' })).toEqual({
      kind: 'paid',
      justNow: true,
    });
    expect(checkoutScreen(view({ providerStatus: 'rejected' }), { ...fresh, outcome: 'reject' })).toEqual({ kind: 'rejected' });
    expect(checkoutScreen(view({ providerStatus: 'pending' }), { ...fresh, outcome: 'pending' })).toEqual({ kind: 'waiting' });
    // Approved but the webhook has not landed yet: wait and poll.
    expect(checkoutScreen(view(), { ...fresh, outcome: 'approve' })).toEqual({ kind: 'processing' });
  });

  it('shows the matching message for a back_url result', () => {
    expect(checkoutScreen(view(), { ...fresh, result: 'success' })).toEqual({ kind: 'processing' });
    expect(checkoutScreen(view(), { ...fresh, result: 'failure' })).toEqual({ kind: 'rejected' });
    expect(checkoutScreen(view(), { ...fresh, result: 'pending' })).toEqual({ kind: 'waiting' });
    expect(checkoutScreen(view({ paymentStatus: 'paid' }), { ...fresh, result: 'success' })).toEqual({ kind: 'paid', justNow: true });
  });

  it('says an already paid payment is paid, whatever the query or button', () => {
    expect(checkoutScreen(view({ paymentStatus: 'paid' }), fresh)).toEqual({ kind: 'paid', justNow: false });
    expect(checkoutScreen(view({ paymentStatus: 'paid' }), { ...fresh, result: 'failure' })).toEqual({ kind: 'paid', justNow: false });
  });

  it('has not-found, canceled and not-ready states', () => {
    expect(checkoutScreen(null, fresh)).toEqual({ kind: 'notFound' });
    expect(checkoutScreen(view({ paymentStatus: 'canceled' }), { ...fresh, result: 'success' })).toEqual({ kind: 'canceled' });
    expect(checkoutScreen(view({ paymentStatus: 'draft' }), fresh)).toEqual({ kind: 'notReady' });
  });
});

describe('the checkout catalogue', () => {
  it('keeps the button and result texts', () => {
    expect(esMX.checkout.approve).toBe('Pagar');
    expect(esMX.checkout.reject).toBe('Rechazar');
    expect(esMX.checkout.pending).toBe('Dejar pendiente (OXXO)');
    expect(esMX.checkout.approvedTitle).toBe('¡Pago aprobado!');
  });
});

describe('voucherReference', () => {
  it('is 12 digits in groups of four, stable for a payment', () => {
    const ref = voucherReference('8f14e45f-ceea-4e7a-9b0c-3f6a1e2d4c5b');
    expect(ref).toMatch(/^\d{4} \d{4} \d{4}$/);
    expect(voucherReference('8f14e45f-ceea-4e7a-9b0c-3f6a1e2d4c5b')).toBe(ref);
  });
});
