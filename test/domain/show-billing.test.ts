import { describe, expect, it } from 'vitest';
import { type ShippingRules, showShippingLabel } from '../../src/domain/after-show.js';
import { MAX_CARRIER_LENGTH } from '../../src/domain/payments.js';
import { formatDeadline, shippingFor, showBillMessage, showBillWhatsapp, ZShippingRulesInput } from '../../src/domain/show-billing.js';

const flat = (over: Partial<ShippingRules> = {}): ShippingRules => ({
  mode: 'flat',
  flatFee: 150,
  perExtraItem: 50,
  freeOver: null,
  pickupAddress: null,
  ...over,
});
const items = (...amounts: number[]) => amounts.map((amount) => ({ amount }));
const pesos = (n: number) => new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN', maximumFractionDigits: 0 }).format(n);

describe('shippingFor', () => {
  it('charges the flat fee for the first item and the extra amount for each after it', () => {
    expect(shippingFor(flat(), items(100))).toEqual({ shippingCarrier: 'Envío', shippingCost: 150 });
    expect(shippingFor(flat(), items(100, 200, 300))).toEqual({ shippingCarrier: 'Envío', shippingCost: 250 });
  });

  it('ships free once the items reach the free-shipping amount', () => {
    expect(shippingFor(flat({ freeOver: 1000 }), items(400, 599)).shippingCost).toBe(200);
    expect(shippingFor(flat({ freeOver: 1000 }), items(400, 600))).toEqual({ shippingCarrier: 'Envío gratis', shippingCost: 0 });
  });

  it('always leaves a carrier, so a free bill can still get its link', () => {
    expect(shippingFor(flat({ flatFee: 0, perExtraItem: 0 }), items(100))).toEqual({ shippingCarrier: 'Envío gratis', shippingCost: 0 });
  });

  it('makes pickup free and names the place, cut to what a carrier holds', () => {
    expect(shippingFor({ mode: 'pickup', flatFee: 0, perExtraItem: 0, freeOver: null, pickupAddress: 'Av. Juárez 10, CDMX' }, items(100, 200))).toEqual({
      shippingCarrier: 'Entrega en punto: Av. Juárez 10, CDMX',
      shippingCost: 0,
    });
    const long = shippingFor({ mode: 'pickup', flatFee: 0, perExtraItem: 0, freeOver: null, pickupAddress: 'x'.repeat(250) }, items(1));
    expect(long.shippingCarrier).toHaveLength(MAX_CARRIER_LENGTH);
  });
});

describe('ZShippingRulesInput', () => {
  const codes = (input: unknown) => {
    const parsed = ZShippingRulesInput.safeParse(input);
    return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
  };
  it('accepts flat rules and pickup with an address', () => {
    expect(codes({ mode: 'flat', flatFee: 150, perExtraItem: 50, freeOver: 2000, pickupAddress: null })).toEqual([]);
    expect(codes({ mode: 'pickup', flatFee: 0, perExtraItem: 0, freeOver: null, pickupAddress: 'Local 4', paymentDeadlineHours: 48 })).toEqual([]);
  });
  it('refuses negative, fractional or absurd amounts, pickup without address, and deadlines out of range', () => {
    expect(codes({ mode: 'flat', flatFee: -1, perExtraItem: 0.5, freeOver: 0 })).toEqual([
      'flatFee:flatFeeNegative',
      'perExtraItem:perExtraItemInteger',
      'freeOver:freeOverPositive',
    ]);
    expect(codes({ mode: 'flat', flatFee: 2_000_000 })).toEqual(['flatFee:flatFeeTooHigh']);
    expect(codes({ mode: 'pickup', pickupAddress: '   ' })).toEqual(['pickupAddress:pickupAddressRequired']);
    expect(codes({ mode: 'pickup', pickupAddress: 'a'.repeat(251) })).toEqual(['pickupAddress:pickupAddressTooLong']);
    expect(codes({ mode: 'flat', paymentDeadlineHours: 0 })).toEqual(['paymentDeadlineHours:deadlineHoursRange']);
    expect(codes({ mode: 'flat', paymentDeadlineHours: 87_600 })).toEqual(['paymentDeadlineHours:deadlineHoursRange']);
    expect(codes({ mode: 'envio' })).toEqual(['mode:shippingModeInvalid']);
  });
});

describe('the WhatsApp message of a show bill', () => {
  const bill = {
    winnerName: 'Juana Pérez',
    winnerWhatsapp: '+523312345678',
    wonItems: [
      { auctionId: 'a', auctionName: 'Reloj Casio', amount: 1200 },
      { auctionId: 'b', auctionName: 'Lámpara', amount: 800 },
    ],
    shippingCarrier: 'Envío',
    shippingCost: 200,
    grandTotal: 2200,
    paymentLink: 'https://martillo.mx/pay/123',
    deadlineAt: '2026-11-29T00:30:00.000Z',
    sessionTitle: 'Show del jueves',
  };
  const opts = { origin: 'https://martillo.mx', format: pesos };

  it('lists the lots, shipping, total, link, the deadline in Mexico City time and the purchases page', () => {
    const text = showBillMessage(bill, opts);
    expect(text).toContain('¡Hola Juana!');
    expect(text).toContain('«Show del jueves»');
    expect(text).toContain(`• Reloj Casio: ${pesos(1200)}`);
    expect(text).toContain(`Envío: ${pesos(200)}`);
    expect(text).toContain(`Total a pagar: ${pesos(2200)}`);
    expect(text).toContain('Paga aquí: https://martillo.mx/pay/123');
    // 00:30 UTC on the 29th is 18:30 on the 28th in Mexico City (UTC−6).
    expect(formatDeadline(bill.deadlineAt)).toContain('28 de noviembre de 2026');
    expect(formatDeadline(bill.deadlineAt)).toContain('18:30');
    expect(text).toContain(formatDeadline(bill.deadlineAt));
    expect(text).toContain('Tus compras: https://martillo.mx/compras');
  });

  it('says where to pick up, with the whole address', () => {
    const address = `Calle ${'Larga '.repeat(20)}123`;
    const text = showBillMessage({ ...bill, shippingCarrier: 'Entrega en punto: Calle…', shippingCost: 0, pickupAddress: address }, opts);
    expect(text).toContain(`Entrega en punto: ${address}`);
    expect(text).not.toContain('Envío:');
  });

  it('makes the wa.me link only with a WhatsApp number and a payment link', () => {
    const link = showBillWhatsapp(bill, opts);
    expect(link?.startsWith('https://wa.me/523312345678?text=')).toBe(true);
    expect(decodeURIComponent(link?.split('text=')[1] ?? '')).toBe(showBillMessage(bill, opts));
    expect(showBillWhatsapp({ ...bill, winnerWhatsapp: null }, opts)).toBeNull();
    expect(showBillWhatsapp({ ...bill, paymentLink: null }, opts)).toBeNull();
  });
});

describe('the shipping line of a show bill', () => {
  it('shows a show bill’s own carrier as it is, and leaves a carrier a seller typed to the usual “Envío (…)”', () => {
    expect(showShippingLabel('Envío')).toBe('Envío');
    expect(showShippingLabel('Envío gratis')).toBe('Envío gratis');
    expect(showShippingLabel('Entrega en punto: Mercado de Sonora, local 12')).toBe('Entrega en punto: Mercado de Sonora, local 12');
    expect(showShippingLabel('Estafeta')).toBeNull();
    expect(showShippingLabel(null)).toBeNull();
  });
});
