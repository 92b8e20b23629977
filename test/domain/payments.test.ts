import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../src/domain/payment-status.js';
import {
  applyPaymentEvent,
  grandTotal,
  hasShipping,
  MAX_PAYMENT_ITEMS,
  MAX_SHIPPING_COST,
  PAYOUT_STATUSES,
  type PaymentEvent,
  type PaymentMachineState,
  type PaymentRefusal,
  type PayoutStatus,
  PROVIDER_STATUSES,
  type ProviderStatus,
  paymentMessage,
  whatsappLink,
  ZDraftInput,
  ZShippingInput,
} from '../../src/domain/payments.js';

/**
 * The payment state machine (SPEC §4) against a tiny reference written here from the rules, plus
 * the invariants the rules promise, over any sequence of events from a fresh draft; and the
 * totals, the shipping and draft inputs, and the WhatsApp message, over generated values.
 */

// ── A reference of the rules, written as tables ──────────────────────────────

type Outcome = { ok: true; state: PaymentMachineState } | { ok: false; reason: PaymentRefusal };

/** Which statuses each status-changing event may start from, where it goes, and why it refuses otherwise. */
const STATUS_EVENTS = {
  finalize: { from: ['draft'], to: 'pending', refusal: 'notDraft' },
  cancel: { from: ['draft', 'pending'], to: 'canceled', refusal: 'notCancelable' },
} as const satisfies Record<string, { from: PaymentStatus[]; to: PaymentStatus; refusal: PaymentRefusal }>;

/** Payout moves, only on a paid payment: from → to, or the refusal. */
const PAYOUT_EVENTS: Record<'requestPayout' | 'markPaidOut', Record<PayoutStatus, PayoutStatus | PaymentRefusal>> = {
  requestPayout: { none: 'requested', requested: 'payoutAlreadyRequested', paid_out: 'alreadyPaidOut' },
  markPaidOut: { none: 'payoutNotRequested', requested: 'paid_out', paid_out: 'alreadyPaidOut' },
};

/** What a paid payment keeps of the provider's word: only news about the money (approval, refund, chargeback). */
const NEWS_ON_PAID: readonly ProviderStatus[] = ['approved', 'refunded', 'charged_back'];
const MONEY_BACK: readonly ProviderStatus[] = ['refunded', 'charged_back'];

function reference(s: PaymentMachineState, e: PaymentEvent): Outcome {
  if (e.type === 'finalize' || e.type === 'cancel') {
    const rule = STATUS_EVENTS[e.type];
    return (rule.from as readonly PaymentStatus[]).includes(s.paymentStatus)
      ? { ok: true, state: { ...s, paymentStatus: rule.to } }
      : { ok: false, reason: rule.refusal };
  }
  if (e.type === 'requestPayout' || e.type === 'markPaidOut') {
    if (s.paymentStatus !== 'paid') return { ok: false, reason: 'notPaid' };
    const next = PAYOUT_EVENTS[e.type][s.payoutStatus];
    return (PAYOUT_STATUSES as readonly string[]).includes(next)
      ? { ok: true, state: { ...s, payoutStatus: next as PayoutStatus } }
      : { ok: false, reason: next as PaymentRefusal };
  }
  const news = e.status;
  switch (s.paymentStatus) {
    case 'paid':
      return {
        ok: true,
        state: { ...s, flagged: s.flagged || MONEY_BACK.includes(news), providerStatus: NEWS_ON_PAID.includes(news) ? news : s.providerStatus },
      };
    case 'pending':
      return { ok: true, state: { ...s, paymentStatus: news === 'approved' ? 'paid' : 'pending', providerStatus: news } };
    case 'canceled':
      return { ok: true, state: { ...s, providerStatus: news, flagged: s.flagged || news === 'approved' } };
    case 'draft':
      return { ok: true, state: { ...s, providerStatus: news } };
  }
}

const FRESH: PaymentMachineState = Object.freeze({ paymentStatus: 'draft', payoutStatus: 'none', flagged: false, providerStatus: null });

const anEvent: fc.Arbitrary<PaymentEvent> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<PaymentEvent>({ type: 'finalize' }) },
  { weight: 1, arbitrary: fc.constant<PaymentEvent>({ type: 'cancel' }) },
  { weight: 4, arbitrary: fc.constantFrom(...PROVIDER_STATUSES).map((status): PaymentEvent => ({ type: 'provider', status })) },
  { weight: 2, arbitrary: fc.constant<PaymentEvent>({ type: 'requestPayout' }) },
  { weight: 2, arbitrary: fc.constant<PaymentEvent>({ type: 'markPaidOut' }) },
);
const aSequence = fc.array(anEvent, { maxLength: 25 });

interface Step {
  before: PaymentMachineState;
  event: PaymentEvent;
  result: ReturnType<typeof applyPaymentEvent>;
  after: PaymentMachineState;
}

/** Runs the events from a fresh draft, as the server does: a refused event leaves the payment as it was. */
function run(events: PaymentEvent[]): Step[] {
  const steps: Step[] = [];
  let state = FRESH;
  for (const event of events) {
    const before = Object.freeze({ ...state });
    const result = applyPaymentEvent(before, event);
    const after = result.ok ? result.state : before;
    steps.push({ before, event, result, after });
    state = after;
  }
  return steps;
}

const sameState = (a: PaymentMachineState, b: PaymentMachineState) =>
  a.paymentStatus === b.paymentStatus && a.payoutStatus === b.payoutStatus && a.flagged === b.flagged && a.providerStatus === b.providerStatus;

/** Every status move the rules allow (staying put aside). */
const STATUS_MOVES = new Set(['draft→pending', 'pending→paid', 'draft→canceled', 'pending→canceled']);
const PAYOUT_MOVES = new Set(['none→requested', 'requested→paid_out', 'none→paid_out']);

describe('applyPaymentEvent', () => {
  it('agrees with the reference at every step of any sequence from a fresh draft', () => {
    fc.assert(
      fc.property(aSequence, (events) => {
        for (const { before, event, result } of run(events)) {
          const expected = reference(before, event);
          if (expected.ok) {
            expect(result).toEqual({ ok: true, state: expected.state, changed: !sameState(before, expected.state) });
          } else {
            expect(result).toEqual({ ok: false, reason: expected.reason });
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('moves the status only draft → pending → paid or draft|pending → canceled, and never out of paid or canceled', () => {
    fc.assert(
      fc.property(aSequence, (events) => {
        for (const { before, after } of run(events)) {
          if (before.paymentStatus === after.paymentStatus) continue;
          expect(STATUS_MOVES).toContain(`${before.paymentStatus}→${after.paymentStatus}`);
          expect(['paid', 'canceled']).not.toContain(before.paymentStatus);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never lets a provider message move a payment back: only pending + approved moves it, to paid', () => {
    fc.assert(
      fc.property(aSequence, (events) => {
        for (const { before, event, after } of run(events)) {
          if (event.type !== 'provider') continue;
          if (before.paymentStatus === 'pending' && event.status === 'approved') expect(after.paymentStatus).toBe('paid');
          else expect(after.paymentStatus).toBe(before.paymentStatus);
          expect(after.payoutStatus).toBe(before.payoutStatus);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('moves the payout only on a paid payment: none → requested → paid_out or none → paid_out, never back', () => {
    fc.assert(
      fc.property(aSequence, (events) => {
        for (const { before, after } of run(events)) {
          if (after.paymentStatus !== 'paid') expect(after.payoutStatus).toBe('none');
          if (before.payoutStatus === after.payoutStatus) continue;
          expect(before.paymentStatus).toBe('paid');
          expect(PAYOUT_MOVES).toContain(`${before.payoutStatus}→${after.payoutStatus}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('flags a refund or chargeback of a paid payment and an approval of a canceled one, and the flag stays', () => {
    fc.assert(
      fc.property(aSequence, (events) => {
        for (const { before, event, after } of run(events)) {
          if (before.flagged) expect(after.flagged).toBe(true);
          if (event.type !== 'provider') continue;
          if (before.paymentStatus === 'paid' && MONEY_BACK.includes(event.status)) expect(after.flagged).toBe(true);
          if (before.paymentStatus === 'canceled' && event.status === 'approved') expect(after.flagged).toBe(true);
          if (!before.flagged && !(before.paymentStatus === 'canceled' && event.status === 'approved') && !MONEY_BACK.includes(event.status)) {
            expect(after.flagged).toBe(false);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses with the documented reason and leaves the state as it was', () => {
    const reasonFor = (s: PaymentMachineState, e: PaymentEvent): PaymentRefusal | null => {
      if (e.type === 'finalize') return s.paymentStatus === 'draft' ? null : 'notDraft';
      if (e.type === 'cancel') return s.paymentStatus === 'draft' || s.paymentStatus === 'pending' ? null : 'notCancelable';
      if (e.type === 'provider') return null;
      if (s.paymentStatus !== 'paid') return 'notPaid';
      if (s.payoutStatus === 'paid_out') return 'alreadyPaidOut';
      if (e.type === 'requestPayout' && s.payoutStatus === 'requested') return 'payoutAlreadyRequested';
      if (e.type === 'markPaidOut' && s.payoutStatus === 'none') return 'payoutNotRequested';
      return null;
    };
    fc.assert(
      fc.property(aSequence, (events) => {
        for (const { before, event, result } of run(events)) {
          const reason = reasonFor(before, event);
          if (reason === null) expect(result.ok).toBe(true);
          else expect(result).toEqual({ ok: false, reason });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('says changed exactly when some field changed (a repeat of the same news changes nothing)', () => {
    fc.assert(
      fc.property(aSequence, (events) => {
        for (const { before, result } of run(events)) {
          if (!result.ok) continue;
          const fieldsChanged = (['paymentStatus', 'payoutStatus', 'flagged', 'providerStatus'] as const).filter((k) => result.state[k] !== before[k]);
          expect(result.changed).toBe(fieldsChanged.length > 0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reaches every status and payout status from a fresh draft (the properties above are not vacuous)', () => {
    const seen = new Set<string>();
    for (const events of fc.sample(aSequence, { numRuns: 2000, seed: 42 })) {
      for (const { after } of run(events)) seen.add(`${after.paymentStatus}/${after.payoutStatus}/${after.flagged}`);
    }
    for (const status of PAYMENT_STATUSES) expect([...seen].some((s) => s.startsWith(`${status}/`))).toBe(true);
    for (const payout of PAYOUT_STATUSES) expect(seen).toContain(`paid/${payout}/false`);
    expect(seen).toContain('paid/none/true');
    expect(seen).toContain('canceled/none/true');
  });
});

// ── Totals and shipping ──────────────────────────────────────────────────────

describe('grandTotal and hasShipping', () => {
  it('is the sum of the items plus shipping for any integers', () => {
    const pesos = fc.integer({ min: -1_000_000_000, max: 1_000_000_000 });
    fc.assert(
      fc.property(fc.array(pesos, { maxLength: MAX_PAYMENT_ITEMS }), pesos, (amounts, shipping) => {
        const exact = amounts.reduce((sum, a) => sum + BigInt(a), BigInt(shipping));
        expect(
          grandTotal(
            amounts.map((amount) => ({ amount })),
            shipping,
          ),
        ).toBe(Number(exact));
      }),
    );
    expect(grandTotal([], 0)).toBe(0);
  });

  it('needs a carrier with some text or a cost above 0', () => {
    const carrier = fc.option(fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u00a0', 'D', 'h', 'l') }), { nil: null });
    fc.assert(
      fc.property(carrier, fc.integer({ min: -10, max: 10 }), (shippingCarrier, shippingCost) => {
        const hasText = /[^\s]/.test(shippingCarrier ?? '');
        expect(hasShipping({ shippingCarrier, shippingCost })).toBe(hasText || shippingCost > 0);
      }),
    );
    expect(hasShipping({ shippingCarrier: '   ', shippingCost: 0 })).toBe(false);
    expect(hasShipping({ shippingCarrier: null, shippingCost: 1 })).toBe(true);
  });
});

describe('ZShippingInput', () => {
  const costIssues = (shippingCost: unknown) => {
    const parsed = ZShippingInput.safeParse({ shippingCarrier: 'DHL', shippingCost });
    return parsed.success ? null : parsed.error.issues.filter((i) => i.path[0] === 'shippingCost').map((i) => i.message);
  };
  const parsedCost = (shippingCost: unknown) => ZShippingInput.parse({ shippingCarrier: 'DHL', shippingCost }).shippingCost;

  it('accepts whole pesos from 0 to 1,000,000, as numbers or as text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_SHIPPING_COST }), fc.constantFrom('', ' ', '  '), (n, pad) => {
        expect(parsedCost(n)).toBe(n);
        expect(parsedCost(`${pad}${n}${pad}`)).toBe(n);
      }),
    );
    expect(parsedCost(MAX_SHIPPING_COST)).toBe(1_000_000);
  });

  it.each([[''], ['   '], [null], [undefined]])('reads %o as 0', (shippingCost) => {
    expect(parsedCost(shippingCost)).toBe(0);
  });

  it('refuses negatives, decimals, non-numbers and too large with their codes', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000, max: -1 }), (n) => {
        expect(costIssues(n)).toEqual(['shippingCostNegative']);
        expect(costIssues(String(n))).toEqual(['shippingCostNegative']);
      }),
    );
    fc.assert(
      fc.property(
        fc.double({ min: -MAX_SHIPPING_COST, max: MAX_SHIPPING_COST, noNaN: true }).filter((d) => !Number.isInteger(d)),
        (d) => {
          expect(costIssues(d)).toEqual(['shippingCostInteger']);
        },
      ),
    );
    fc.assert(
      fc.property(fc.integer({ min: MAX_SHIPPING_COST + 1, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(costIssues(n)).toEqual(['shippingCostTooHigh']);
      }),
    );
    const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnñopqrstuvwxyzé'.split('')), minLength: 1 });
    const notANumber = fc.oneof(
      word,
      fc.boolean(),
      fc.constant({}),
      fc.constant([1]),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
    );
    fc.assert(
      fc.property(notANumber, (v) => {
        expect(costIssues(v)).toEqual(['shippingCostInvalid']);
      }),
    );
    expect(costIssues('diez')).toEqual(['shippingCostInvalid']);
  });

  it('trims the carrier, reads an empty one as none, and refuses one over 80 characters', () => {
    expect(ZShippingInput.parse({ shippingCarrier: '  Estafeta ', shippingCost: 0 }).shippingCarrier).toBe('Estafeta');
    expect(ZShippingInput.parse({ shippingCarrier: '   ', shippingCost: 0 }).shippingCarrier).toBeNull();
    const long = ZShippingInput.safeParse({ shippingCarrier: 'x'.repeat(81), shippingCost: 0 });
    expect(long.success ? [] : long.error.issues.map((i) => i.message)).toEqual(['tooLong']);
  });
});

describe('ZDraftInput', () => {
  const anId = fc.uuid({ version: 4 });
  /** The same id in any mix of upper and lower case. */
  const anyCase = (id: string) =>
    fc.array(fc.boolean(), { minLength: id.length, maxLength: id.length }).map((up) => [...id].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));

  it('lower-cases the ids and drops repeats, keeping the first order', () => {
    const input = fc
      .uniqueArray(anId, { minLength: 1, maxLength: 20 })
      .chain((pool) => fc.array(fc.constantFrom(...pool).chain(anyCase), { minLength: 1, maxLength: MAX_PAYMENT_ITEMS }));
    fc.assert(
      fc.property(anId, input, (winnerId, auctionIds) => {
        const expected: string[] = [];
        for (const id of auctionIds) if (!expected.includes(id.toLowerCase())) expected.push(id.toLowerCase());
        expect(ZDraftInput.parse({ winnerId, auctionIds })).toEqual({ winnerId, auctionIds: expected });
      }),
    );
  });

  it('refuses an empty list, a missing one and more than 100 ids', () => {
    const issues = (auctionIds: unknown) => {
      const parsed = ZDraftInput.safeParse({ winnerId: '3f1c2a4e-7b2d-4c1e-9a8b-1234567890ab', auctionIds });
      return parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    };
    expect(issues([])).toEqual(['auctionIds:auctionIdsRequired']);
    expect(issues(undefined)).toEqual(['auctionIds:auctionIdsRequired']);
    fc.assert(
      fc.property(fc.uniqueArray(anId, { minLength: MAX_PAYMENT_ITEMS + 1, maxLength: 150 }), (ids) => {
        expect(issues(ids)).toEqual(['auctionIds:tooManyItems']);
      }),
      { numRuns: 30 },
    );
    fc.assert(
      fc.property(fc.uniqueArray(anId, { minLength: 1, maxLength: MAX_PAYMENT_ITEMS }), (ids) => {
        expect(issues(ids)).toBeNull();
      }),
      { numRuns: 30 },
    );
    expect(issues(['no-es-un-uuid'])).toEqual(['auctionIds.0:invalid']);
  });
});

// ── The WhatsApp message ─────────────────────────────────────────────────────

describe('paymentMessage and whatsappLink', () => {
  const format = (n: number) => `$${n} MXN`;
  const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });
  const message = fc.record({
    winnerName: fc.string({ unit: 'grapheme', maxLength: 30 }),
    wonItems: fc.array(fc.record({ auctionId: fc.uuid(), auctionName: text, amount: fc.nat(1_000_000) }), { minLength: 1, maxLength: 10 }),
    shippingCost: fc.nat(MAX_SHIPPING_COST),
    link: fc.webUrl({ withQueryParameters: true, withFragments: true }),
  });
  const whatsapp = fc.string({ unit: fc.constantFrom(...'+0123456789 -()'.split('')), maxLength: 20 });

  it('links to wa.me/<digits> with the message encoded, and the message has every item, the total and the link', () => {
    fc.assert(
      fc.property(message, whatsapp, (m, phone) => {
        const total = m.wonItems.reduce((s, i) => s + i.amount, 0) + m.shippingCost;
        const body = paymentMessage({ ...m, grandTotal: total }, format);
        for (const item of m.wonItems) expect(body).toContain(item.auctionName);
        expect(body).toContain(`Total a pagar: ${format(total)}`);
        expect(body).toContain(m.link);
        if (m.shippingCost > 0) expect(body).toContain(`Envío: ${format(m.shippingCost)}`);

        const link = whatsappLink(phone, body);
        const digits = [...phone].filter((c) => c >= '0' && c <= '9').join('');
        expect(link.startsWith(`https://wa.me/${digits}?text=`)).toBe(true);
        const url = new URL(link);
        expect(url.protocol).toBe('https:');
        expect(url.host).toBe('wa.me');
        expect(url.pathname).toBe(`/${digits}`);
        expect([...url.searchParams.keys()]).toEqual(['text']);
        expect(url.searchParams.get('text')).toBe(body);
        // Encoded: nothing in the query that would end it or start another parameter.
        expect(link.slice(link.indexOf('?text=') + 6)).toMatch(/^[A-Za-z0-9\-_.!~*'()%]*$/);
      }),
    );
  });

  it('greets the winner by first name', () => {
    const body = paymentMessage(
      {
        winnerName: '  Juana Pérez ',
        wonItems: [{ auctionId: 'a', auctionName: 'Reloj Casio', amount: 1200 }],
        shippingCost: 0,
        grandTotal: 1200,
        link: 'https://x.mx/pay/1',
      },
      format,
    );
    expect(body.split('\n')[0]).toBe('¡Hola Juana! Ganaste en Martillo:');
    expect(body).not.toContain('Envío');
    expect(whatsappLink('+52 33 1234 5678', 'a b&c=d')).toBe('https://wa.me/523312345678?text=a%20b%26c%3Dd');
  });
});
