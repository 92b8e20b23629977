import { describe, expect, it } from 'vitest';
import type { ShowBillPreview } from '../../../src/domain/show-billing.js';
import { amountToCollect, formValuesOf, hasUnsavedShipping, parseBillForm } from '../../../src/web/livehub/after-show/bill-form-values';

describe('the show shipping form', () => {
  it('starts from the saved rules, empty fields meaning never free and the company’s deadline', () => {
    expect(formValuesOf({ rules: null, paymentDeadlineHours: null })).toEqual({
      mode: 'flat',
      flatFee: 0,
      perExtraItem: 0,
      freeOver: '',
      pickupAddress: '',
      paymentDeadlineHours: '',
    });
    expect(
      formValuesOf({ rules: { mode: 'pickup', flatFee: 0, perExtraItem: 0, freeOver: null, pickupAddress: 'Local 4' }, paymentDeadlineHours: 24 }),
    ).toMatchObject({ mode: 'pickup', pickupAddress: 'Local 4', paymentDeadlineHours: 24 });
  });

  it('sends what the server accepts, and names each field the server’s schema refuses', () => {
    const ok = parseBillForm({ mode: 'flat', flatFee: '150', perExtraItem: 50, freeOver: '', pickupAddress: '', paymentDeadlineHours: '' });
    expect(ok).toEqual({
      ok: true,
      input: { mode: 'flat', flatFee: 150, perExtraItem: 50, freeOver: null, pickupAddress: null, paymentDeadlineHours: null },
    });
    const bad = parseBillForm({ mode: 'flat', flatFee: -1, perExtraItem: 'abc', freeOver: 0, pickupAddress: '', paymentDeadlineHours: 721 });
    expect(bad).toEqual({
      ok: false,
      errors: { flatFee: 'flatFeeNegative', perExtraItem: 'perExtraItemInvalid', freeOver: 'freeOverPositive', paymentDeadlineHours: 'deadlineHoursRange' },
    });
    expect(parseBillForm({ mode: 'pickup', flatFee: 0, perExtraItem: 0, freeOver: '', pickupAddress: '  ', paymentDeadlineHours: '' })).toEqual({
      ok: false,
      errors: { pickupAddress: 'pickupAddressRequired' },
    });
  });
});

describe('Por cobrar', () => {
  const row = (totalAmount: number, shippingCarrier: string | null, shippingCost: number): ShowBillPreview => ({
    winnerId: `w${totalAmount}`,
    winnerName: 'Juana',
    winnerWhatsapp: null,
    wonItems: [{ auctionId: `a${totalAmount}`, auctionName: 'Reloj', amount: totalAmount }],
    totalAmount,
    shippingCarrier,
    shippingCost,
    grandTotal: totalAmount + shippingCost,
  });

  it('includes the shipping once a rule is saved, and leaves it to be set before', () => {
    expect(amountToCollect([row(2100, 'Envío', 200), row(700, 'Envío', 150), row(3000, 'Envío gratis', 0)])).toEqual({
      lots: 5800,
      shipping: 350,
      total: 6150,
    });
    expect(amountToCollect([row(2100, null, 0), row(700, null, 0)])).toEqual({ lots: 2800, shipping: null, total: 2800 });
    expect(amountToCollect([])).toEqual({ lots: 0, shipping: 0, total: 0 });
  });

  it('tells typed rules that differ from the saved ones; with none saved the panel asks for them instead', () => {
    const saved = { rules: { mode: 'flat' as const, flatFee: 150, perExtraItem: 50, freeOver: null, pickupAddress: null }, paymentDeadlineHours: null };
    expect(hasUnsavedShipping(formValuesOf(saved), saved)).toBe(false);
    expect(hasUnsavedShipping({ ...formValuesOf(saved), flatFee: '150' }, saved)).toBe(false);
    expect(hasUnsavedShipping({ ...formValuesOf(saved), flatFee: '180' }, saved)).toBe(true);
    expect(hasUnsavedShipping({ ...formValuesOf(saved), paymentDeadlineHours: 24 }, saved)).toBe(true);
    expect(hasUnsavedShipping({ ...formValuesOf(saved), flatFee: 'abc' }, saved)).toBe(true);
    expect(hasUnsavedShipping({ ...formValuesOf(undefined), flatFee: 150 }, { rules: null, paymentDeadlineHours: null })).toBe(false);
  });
});
