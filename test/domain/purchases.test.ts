import { describe, expect, it } from 'vitest';
import { paymentMessage } from '../../src/domain/payments.js';
import { purchaseBillStatus } from '../../src/domain/purchases.js';

describe("a bill's status as the buyer sees it", () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const before = new Date(now.getTime() - 1);
  const after = new Date(now.getTime() + 1);

  it('is Por pagar while pending before its deadline, Vencido from the deadline on, even before the job expires it', () => {
    expect(purchaseBillStatus({ paymentStatus: 'pending', deadlineAt: after, expiredAt: null }, now)).toBe('toPay');
    expect(purchaseBillStatus({ paymentStatus: 'pending', deadlineAt: null, expiredAt: null }, now)).toBe('toPay');
    expect(purchaseBillStatus({ paymentStatus: 'pending', deadlineAt: now, expiredAt: null }, now)).toBe('expired');
    expect(purchaseBillStatus({ paymentStatus: 'canceled', deadlineAt: before, expiredAt: before }, now)).toBe('expired');
  });

  it('is Pagado when paid, Cancelado when canceled by the seller', () => {
    expect(purchaseBillStatus({ paymentStatus: 'paid', deadlineAt: before, expiredAt: null }, now)).toBe('paid');
    expect(purchaseBillStatus({ paymentStatus: 'canceled', deadlineAt: null, expiredAt: null }, now)).toBe('canceled');
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
