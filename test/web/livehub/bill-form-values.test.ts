import { describe, expect, it } from 'vitest';
import { formValuesOf, parseBillForm } from '../../../src/web/livehub/after-show/bill-form-values';

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
