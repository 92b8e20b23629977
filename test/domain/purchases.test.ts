import { describe, expect, it } from 'vitest';
import { paymentMessage } from '../../src/domain/payments.js';
import { purchaseBillStatus } from '../../src/domain/purchases.js';
import { CASH_PAYMENT_GRACE_HOURS } from '../../src/domain/unpaid.js';

describe("a bill's status as the buyer sees it", () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const before = new Date(now.getTime() - 1);
  const after = new Date(now.getTime() + 1);
  const bill = (p: { paymentStatus: string; providerStatus?: string | null; deadlineAt: Date | null; expiredAt: Date | null }) =>
    purchaseBillStatus({ providerStatus: null, ...p }, now);

  it('is Por pagar while pending before its deadline, Vencido from the deadline on, even before the job expires it', () => {
    expect(bill({ paymentStatus: 'pending', deadlineAt: after, expiredAt: null })).toBe('toPay');
    expect(bill({ paymentStatus: 'pending', deadlineAt: null, expiredAt: null })).toBe('toPay');
    expect(bill({ paymentStatus: 'pending', deadlineAt: now, expiredAt: null })).toBe('expired');
    expect(bill({ paymentStatus: 'canceled', deadlineAt: before, expiredAt: before })).toBe('expired');
  });

  it('is Pago en proceso while a voucher or a card review is under way, through the grace after the deadline the expiry job gives it', () => {
    const graceMs = CASH_PAYMENT_GRACE_HOURS * 3_600_000;
    for (const providerStatus of ['pending', 'in_process']) {
      expect(bill({ paymentStatus: 'pending', providerStatus, deadlineAt: after, expiredAt: null })).toBe('processing');
      expect(bill({ paymentStatus: 'pending', providerStatus, deadlineAt: now, expiredAt: null })).toBe('processing');
      expect(bill({ paymentStatus: 'pending', providerStatus, deadlineAt: new Date(now.getTime() - graceMs + 1), expiredAt: null })).toBe('processing');
      expect(bill({ paymentStatus: 'pending', providerStatus, deadlineAt: new Date(now.getTime() - graceMs), expiredAt: null })).toBe('expired');
    }
    // A payment the provider refused is no payment under way: the deadline holds.
    expect(bill({ paymentStatus: 'pending', providerStatus: 'rejected', deadlineAt: now, expiredAt: null })).toBe('expired');
    expect(bill({ paymentStatus: 'pending', providerStatus: 'rejected', deadlineAt: after, expiredAt: null })).toBe('toPay');
  });

  it('is Pagado when paid, Cancelado when canceled by the seller', () => {
    expect(bill({ paymentStatus: 'paid', deadlineAt: before, expiredAt: null })).toBe('paid');
    expect(bill({ paymentStatus: 'canceled', deadlineAt: null, expiredAt: null })).toBe('canceled');
  });
});

describe("the payment message's line to 'Mis compras'", () => {
  const message = {
    winnerName: 'Juana',
    wonItems: [{ auctionId: 'a', auctionName: 'Reloj', amount: 100 }],
    shippingCost: 0,
    grandTotal: 100,
    link: 'https://x.mx/pay/1',
  };
  const format = (n: number) => `$${n}`;

  it('ends with the buyer page when the caller gives the origin, and not otherwise', () => {
    expect(paymentMessage(message, format, 'https://martillo.mx').split('\n').at(-1)).toBe('Tus compras: https://martillo.mx/compras');
    expect(paymentMessage(message, format)).not.toContain('Tus compras');
  });
});
