import { describe, expect, it } from 'vitest';
import type { PaymentView, WinnersSummary } from '../../../src/domain/payments.js';
import { formatWhatsapp } from '../../../src/domain/phone.js';
import { connectFailure, connectUrl, mpBadge } from '../../../src/web/admin/payments/mp-rules';
import { matchesSearch } from '../../../src/web/admin/payments/payment-search';
import { availableItemsFor, readyRows } from '../../../src/web/admin/payments/ready-rows';
import { isDraftEditable, linkActions, payoutView } from '../../../src/web/admin/payments/row-actions';
import { linkBlocker, SHIPPING_ERROR_KEYS, sameShipping, sanitizeClientShipping, validateShipping } from '../../../src/web/admin/payments/shipping-rules';
import { paymentWhatsappHref, whatsappChatHref } from '../../../src/web/admin/payments/whatsapp-links';
import { ApiError, NETWORK_ERROR_STATUS } from '../../../src/web/api/client';
import { paymentListUrl } from '../../../src/web/api/payments';
import esMX from '../../../src/web/i18n/es-MX.json';

const W1 = '11111111-1111-4111-8111-111111111111';
const W2 = '22222222-2222-4222-8222-222222222222';
const A = (n: number) => `aaaaaaaa-aaaa-4aaa-8aaa-${String(n).padStart(12, '0')}`;

function payment(overrides: Partial<PaymentView> = {}): PaymentView {
  return {
    id: 'pppppppp-pppp-4ppp-8ppp-pppppppppppp',
    winnerId: W1,
    winnerName: 'Lucía Fernández',
    winnerWhatsapp: '+525512345678',
    sellerId: null,
    companyId: 'tienda-ana',
    companyName: 'Tienda Ana',
    collectorId: null,
    auctionIds: [A(1)],
    wonItems: [{ auctionId: A(1), auctionName: 'Reloj Casio', amount: 500 }],
    totalAmount: 500,
    shippingCarrier: null,
    shippingCost: 0,
    grandTotal: 500,
    paymentStatus: 'draft',
    isReserved: false,
    paymentLink: null,
    paidAt: null,
    payoutStatus: 'none',
    mpPaymentId: null,
    mpPreferenceId: null,
    provider: null,
    providerStatus: null,
    webhookAt: null,
    flagged: false,
    collectedBySeller: false,
    linkExpiresAt: null,
    sessionId: null,
    linkCreatedAt: null,
    deadlineAt: null,
    expiredAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('validateShipping (SPEC §5: cost parsed as a number, falling back to 0)', () => {
  it('treats an empty cost as 0 and an empty carrier as none', () => {
    expect(validateShipping({ carrier: '', cost: '' })).toEqual({ ok: true, value: { shippingCarrier: null, shippingCost: 0 } });
    expect(validateShipping({ carrier: '   ', cost: 0 })).toEqual({ ok: true, value: { shippingCarrier: null, shippingCost: 0 } });
  });

  it('trims the carrier and reads a numeric string', () => {
    expect(validateShipping({ carrier: '  Estafeta ', cost: ' 150 ' })).toEqual({ ok: true, value: { shippingCarrier: 'Estafeta', shippingCost: 150 } });
  });

  it('refuses centavos, negatives, text and a carrier that is too long, each with its catalogue key', () => {
    expect(validateShipping({ carrier: 'DHL', cost: 99.5 })).toEqual({ ok: false, errors: { cost: 'shippingCostInteger' } });
    expect(validateShipping({ carrier: 'DHL', cost: -1 })).toEqual({ ok: false, errors: { cost: 'shippingCostNegative' } });
    expect(validateShipping({ carrier: 'DHL', cost: 'abc' })).toEqual({ ok: false, errors: { cost: 'shippingCostInvalid' } });
    expect(validateShipping({ carrier: 'DHL', cost: 2_000_000 })).toEqual({ ok: false, errors: { cost: 'shippingCostTooHigh' } });
    expect(validateShipping({ carrier: 'x'.repeat(81), cost: 10 })).toEqual({ ok: false, errors: { carrier: 'tooLong' } });
  });

  it('has a Spanish message for every error key', () => {
    expect(Object.keys(esMX.payments.shipping.errors).sort()).toEqual([...SHIPPING_ERROR_KEYS].sort());
  });

  it('compares shipping with null and empty carriers as equal', () => {
    expect(sameShipping({ shippingCarrier: null, shippingCost: 0 }, { shippingCarrier: '', shippingCost: 0 })).toBe(true);
    expect(sameShipping({ shippingCarrier: 'DHL', shippingCost: 0 }, { shippingCarrier: 'DHL', shippingCost: 1 })).toBe(false);
  });
});

describe('linkBlocker (SPEC §5: a link needs items and a carrier or a cost above 0)', () => {
  const items = [{ auctionId: A(1), auctionName: 'Reloj', amount: 100 }];
  it('asks for shipping when there is neither carrier nor cost', () => {
    expect(linkBlocker({ shippingCarrier: null, shippingCost: 0, wonItems: items })).toBe('needShipping');
    expect(linkBlocker({ shippingCarrier: 'Ocurre', shippingCost: 0, wonItems: items })).toBeNull();
    expect(linkBlocker({ shippingCarrier: null, shippingCost: 1, wonItems: items })).toBeNull();
  });
  it('refuses a payment without items first', () => {
    expect(linkBlocker({ shippingCarrier: 'DHL', shippingCost: 100, wonItems: [] })).toBe('noItems');
  });
});

describe('readyRows and client-side shipping', () => {
  const summary: WinnersSummary = {
    [W2]: {
      winnerId: W2,
      sellerId: 's1',
      winnerName: 'Zoe',
      winnerWhatsapp: null,
      companyId: 'c1',
      companyName: 'Uno',
      collectorId: null,
      wonItems: [{ auctionId: A(3), auctionName: 'Lámpara', amount: 300 }],
      totalAmount: 300,
    },
    [W1]: {
      winnerId: W1,
      sellerId: 's1',
      winnerName: 'Ana',
      winnerWhatsapp: '+525511111111',
      companyId: 'c1',
      companyName: 'Uno',
      collectorId: null,
      wonItems: [
        { auctionId: A(1), auctionName: 'Reloj', amount: 500 },
        { auctionId: A(2), auctionName: 'Radio', amount: 250 },
      ],
      totalAmount: 750,
    },
    [`${W1}:c2`]: {
      winnerId: W1,
      sellerId: 's2',
      winnerName: 'Ana',
      winnerWhatsapp: '+525511111111',
      companyId: 'c2',
      companyName: 'Zeta',
      collectorId: 's2',
      wonItems: [{ auctionId: A(4), auctionName: 'Silla', amount: 90 }],
      totalAmount: 90,
    },
  };

  it('sorts by winner, keeps each key, and adds the typed shipping to the grand total', () => {
    const rows = readyRows(summary, { [W1]: { shippingCarrier: 'DHL', shippingCost: 150 } });
    expect(rows.map((r) => r.key)).toEqual([W1, `${W1}:c2`, W2]);
    expect(rows[0]).toMatchObject({ shippingCarrier: 'DHL', shippingCost: 150, grandTotal: 900 });
    expect(rows[1]).toMatchObject({ shippingCarrier: null, shippingCost: 0, grandTotal: 90 });
  });

  it('offers a draft only this winner’s unbilled items of the same company and collecting account, not those already in it', () => {
    const draft = { winnerId: W1, companyId: 'c1', collectorId: null, auctionIds: [A(1)] };
    expect(availableItemsFor(draft, summary).map((i) => i.auctionId)).toEqual([A(2)]);
    expect(availableItemsFor({ ...draft, companyId: 'c2', collectorId: 's2' }, summary).map((i) => i.auctionId)).toEqual([A(4)]);
    // A seller collecting in their own account bills apart: one checkout goes to one account.
    expect(availableItemsFor({ ...draft, collectorId: 's2' }, summary)).toEqual([]);
    expect(availableItemsFor({ ...draft, winnerId: 'someone-else' }, summary)).toEqual([]);
    expect(availableItemsFor(draft, undefined)).toEqual([]);
  });

  it('reads stored shipping defensively: malformed or empty entries are dropped', () => {
    expect(
      sanitizeClientShipping({
        good: { shippingCarrier: ' DHL ', shippingCost: 100 },
        costOnly: { shippingCarrier: null, shippingCost: 50 },
        empty: { shippingCarrier: null, shippingCost: 0 },
        negative: { shippingCarrier: 'x', shippingCost: -5 },
        wrong: { shippingCarrier: 3, shippingCost: 1 },
        junk: 'text',
      }),
    ).toEqual({ good: { shippingCarrier: 'DHL', shippingCost: 100 }, costOnly: { shippingCarrier: null, shippingCost: 50 } });
    expect(sanitizeClientShipping(null)).toEqual({});
    expect(sanitizeClientShipping([1, 2])).toEqual({});
  });
});

describe('which actions a row shows', () => {
  it('payout: an admin sees not requested, the mark button only on a requested payout, or paid_out; a seller sees requested, paid_out or the request button', () => {
    const paid = payment({ paymentStatus: 'paid' });
    expect(payoutView({ ...paid, payoutStatus: 'none' }, 'admin')).toEqual({ kind: 'text', status: 'none' });
    expect(payoutView({ ...paid, payoutStatus: 'requested' }, 'admin')).toEqual({ kind: 'button', action: 'markPaidOut', isRequested: true });
    expect(payoutView({ ...paid, payoutStatus: 'paid_out' }, 'admin')).toEqual({ kind: 'text', status: 'paid_out' });
    expect(payoutView({ ...paid, payoutStatus: 'none' }, 'seller')).toEqual({ kind: 'button', action: 'requestPayout', isRequested: false });
    // Collected in the seller's own account: nothing to request or mark, for anyone.
    expect(payoutView({ ...paid, collectedBySeller: true }, 'seller')).toEqual({ kind: 'direct' });
    expect(payoutView({ ...paid, collectedBySeller: true }, 'admin')).toEqual({ kind: 'direct' });
    expect(payoutView({ ...paid, payoutStatus: 'requested' }, 'seller')).toEqual({ kind: 'text', status: 'requested' });
    expect(payoutView({ ...paid, payoutStatus: 'paid_out' }, 'seller')).toEqual({ kind: 'text', status: 'paid_out' });
  });

  it('payout: nothing on a payment that is not paid', () => {
    for (const status of ['draft', 'pending', 'canceled'] as const) {
      expect(payoutView(payment({ paymentStatus: status }), 'admin')).toEqual({ kind: 'none' });
      expect(payoutView(payment({ paymentStatus: status }), 'seller')).toEqual({ kind: 'none' });
    }
  });

  it('links: open, copy and WhatsApp only while pending with a link; cancel while draft or pending', () => {
    const link = 'https://martillo.mx/pay/x';
    expect(linkActions(payment({ paymentStatus: 'draft' }))).toEqual({ openLink: false, copyLink: false, whatsapp: false, cancel: true });
    expect(linkActions(payment({ paymentStatus: 'pending', paymentLink: link }))).toEqual({ openLink: true, copyLink: true, whatsapp: true, cancel: true });
    expect(linkActions(payment({ paymentStatus: 'pending', paymentLink: link, winnerWhatsapp: null }))).toMatchObject({ whatsapp: false, openLink: true });
    expect(linkActions(payment({ paymentStatus: 'pending', paymentLink: null }))).toEqual({ openLink: false, copyLink: false, whatsapp: false, cancel: true });
    expect(linkActions(payment({ paymentStatus: 'paid', paymentLink: link }))).toEqual({ openLink: false, copyLink: false, whatsapp: false, cancel: false });
    expect(linkActions(payment({ paymentStatus: 'canceled', paymentLink: link }))).toEqual({
      openLink: false,
      copyLink: false,
      whatsapp: false,
      cancel: false,
    });
  });

  it("a reserved draft ('Generando enlace…') keeps finalize and cancel but no longer edits shipping or items", () => {
    expect(isDraftEditable(payment({ paymentStatus: 'draft' }))).toBe(true);
    expect(isDraftEditable(payment({ paymentStatus: 'draft', isReserved: true, provider: 'sandbox' }))).toBe(false);
    expect(isDraftEditable(payment({ paymentStatus: 'pending' }))).toBe(false);
    expect(linkActions(payment({ paymentStatus: 'draft', isReserved: true }))).toMatchObject({ cancel: true });
    expect(esMX.payments.reserved).toBe('Generando enlace…');
  });
});

describe('WhatsApp', () => {
  it('builds the wa.me link with the prefilled Spanish message: items, shipping, total and link', () => {
    const p = payment({
      wonItems: [
        { auctionId: A(1), auctionName: 'Reloj Casio', amount: 1500 },
        { auctionId: A(2), auctionName: 'Radio', amount: 250 },
      ],
      shippingCost: 150,
      grandTotal: 1900,
    });
    const href = paymentWhatsappHref(p, 'https://martillo.mx/pay/abc');
    expect(href).not.toBeNull();
    const url = new URL(href ?? '');
    expect(url.origin + url.pathname).toBe('https://wa.me/525512345678');
    const text = url.searchParams.get('text') ?? '';
    expect(text.split('\n')).toEqual([
      '¡Hola Lucía! Ganaste en Martillo:',
      '• Reloj Casio: $1,500 MXN',
      '• Radio: $250 MXN',
      'Envío: $150 MXN',
      'Total a pagar: $1,900 MXN',
      'Paga aquí: https://martillo.mx/pay/abc',
    ]);
  });

  it('leaves shipping out of the message when it costs nothing', () => {
    const href = paymentWhatsappHref(payment({ shippingCarrier: 'Ocurre' }), 'https://x.test/pay/1') ?? '';
    expect(new URL(href).searchParams.get('text')).not.toContain('Envío');
  });

  it('has no link without a number', () => {
    expect(paymentWhatsappHref(payment({ winnerWhatsapp: null }), 'https://x.test')).toBeNull();
    expect(paymentWhatsappHref(payment({ winnerWhatsapp: '  ' }), 'https://x.test')).toBeNull();
    expect(whatsappChatHref(null)).toBeNull();
    expect(whatsappChatHref('+52 55 1234 5678')).toBe('https://wa.me/525512345678');
  });

  it('shows an E.164 number in international format', () => {
    expect(formatWhatsapp('+525512345678')).toBe('+52 55 1234 5678');
    expect(formatWhatsapp('not a number')).toBe('not a number');
    expect(formatWhatsapp(null)).toBeNull();
  });
});

describe('search', () => {
  it('matches every word, ignoring accents and case', () => {
    expect(matchesSearch(['Lucía Fernández', 'Reloj Casio'], 'lucia reloj')).toBe(true);
    expect(matchesSearch(['Lucía Fernández', 'Reloj Casio'], 'lucia radio')).toBe(false);
    expect(matchesSearch(['x'], '   ')).toBe(true);
  });
});

describe('the payment-provider section', () => {
  it('badges prod, test (not live mode) or not connected', () => {
    expect(mpBadge({ connected: true, liveMode: true }).label).toBe('connectedProd');
    expect(mpBadge({ connected: true, liveMode: false }).label).toBe('connectedTest');
    expect(mpBadge({ connected: false, liveMode: null }).label).toBe('notConnected');
    expect(esMX.payments.mp.connectedProd).toBe('Conectado (prod)');
    expect(esMX.payments.mp.connectedTest).toBe('Conectado (test)');
    expect(esMX.payments.mp.notConnected).toBe('No conectado');
  });

  it('tells a refused start (status and body) from a network failure', () => {
    expect(connectFailure(new ApiError(409, 'CONFLICT', 'Mercado Pago no está configurado.'))).toEqual({
      kind: 'status',
      status: 409,
      body: 'Mercado Pago no está configurado.',
    });
    expect(connectFailure(new ApiError(NETWORK_ERROR_STATUS, 'NETWORK', 'Network error'))).toEqual({ kind: 'network' });
    expect(connectFailure(new Error('boom'))).toEqual({ kind: 'other', message: 'boom' });
  });

  it('opens only an http(s) authorisation URL', () => {
    const base = 'https://martillo.mx';
    expect(connectUrl({ url: 'https://auth.mercadopago.com.mx/authorization?x=1' }, base)).toBe('https://auth.mercadopago.com.mx/authorization?x=1');
    expect(connectUrl({ url: '/api/mp/sandbox/authorize?state=s' }, base)).toBe('https://martillo.mx/api/mp/sandbox/authorize?state=s');
    expect(connectUrl({ url: 'javascript:alert(1)' }, base)).toBeNull();
    expect(connectUrl({ url: '' }, base)).toBeNull();
    expect(connectUrl({}, base)).toBeNull();
    expect(connectUrl(null, base)).toBeNull();
  });
});

describe('paymentListUrl', () => {
  it('sends only the filters that are set', () => {
    expect(paymentListUrl({ status: null, q: '' })).toBe('/api/payments');
    expect(paymentListUrl({ status: 'paid', q: '  ' })).toBe('/api/payments?status=paid');
    expect(paymentListUrl({ status: 'pending', q: ' Lucía ' })).toBe('/api/payments?status=pending&q=Luc%C3%ADa');
  });
});

describe('SPEC strings stay verbatim in the catalogue', () => {
  it('has the section titles, actions, messages and empty states', () => {
    const p = esMX.payments;
    expect(p.sections.ready).toBe('Listos para facturar');
    expect(p.sections.drafts).toBe('Pagos en borrador');
    expect(p.sections.pending).toBe('Pagos en progreso');
    expect(p.sections.paid).toBe('Pagos realizados');
    expect(p.readyBadge).toBe('Listo');
    expect(p.actions.finalize).toBe('Finalizar y generar enlace');
    expect(p.actions.addItems).toBe('Agregar artículos disponibles');
    expect(p.cancel.draftQuestion).toBe('¿Cancelar este borrador y desasignar artículos?');
    expect(p.confirm.needShipping).toBe('Agrega la información de envío antes de crear el enlace de pago.');
    expect(p.notices.draftCreated).toBe('Borrador creado. Puedes agregar artículos o finalizar desde Pagos en Progreso.');
    expect(p.empty.ready).toBe('No hay artículos nuevos para facturar.');
    expect(p.empty.modal).toBe('Sin pagos');
    expect(p.mp.relinkQuestion).toBe('Ya tienes conectada tu cuenta de Mercado Pago. ¿Deseas volver a vincularla? Esto reemplazará la conexión actual.');
  });
});
