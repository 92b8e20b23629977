import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionList } from '../../../src/domain/live';
import { formatMoney } from '../../../src/domain/money';
import type { ExpiredAnswer, MyUnpaidAnswer, StrikesAnswer } from '../../../src/domain/unpaid';
import { ExpiredSection } from '../../../src/web/admin/payments/expired-section';
import { hubKeys } from '../../../src/web/api/live-hub';
import { createQueryClient } from '../../../src/web/api/query-client';
import { unpaidKeys } from '../../../src/web/api/unpaid';
import { loadPanelStrings } from '../../../src/web/i18n';
import es from '../../../src/web/i18n/es-MX.json';
import { UnpaidWarning } from '../../../src/web/public/bidding/unpaid-warning';
import { theme } from '../../../src/web/theme';

/** "Cuentas vencidas" and the buyer's warning rendered by the real components (server-side: no effects, no requests). */

const u = es.unpaid;
const PAYMENT = '11111111-1111-4111-8111-111111111111';
const LOT = '22222222-2222-4222-8222-222222222222';

function render(node: ReactNode, data: Array<[readonly unknown[], unknown]>): string {
  const queryClient = createQueryClient();
  for (const [key, value] of data) queryClient.setQueryData(key, value);
  return renderToStaticMarkup(createElement(MantineProvider, { theme }, createElement(QueryClientProvider, { client: queryClient }, node)));
}

const expired = (over: Partial<ExpiredAnswer> = {}): ExpiredAnswer => ({
  bills: [
    {
      paymentId: PAYMENT,
      companyId: 'acme',
      winnerId: 'w',
      winnerName: 'Gael Gana',
      winnerWhatsapp: '+523312345678',
      grandTotal: 1050,
      deadlineAt: '2026-11-20T10:00:00.000Z',
      expiredAt: '2026-11-20T10:00:05.000Z',
      lots: [
        {
          auctionId: LOT,
          auctionName: 'Reloj de bolsillo',
          amount: 900,
          decision: null,
          decidedAt: null,
          runnerUp: { userId: 's', name: 'Sofía S.', amount: 700, blocked: false },
          offer: null,
          open: true,
        },
      ],
    },
  ],
  latePayments: [],
  ...over,
});
const strikes: StrikesAnswer = { buyers: [{ companyId: 'acme', userId: 'w', name: 'Gael Gana', strikes: 2, limit: 2, blocked: true }] };
const sessions = { sessions: [] } as unknown as LiveSessionList;

beforeAll(async () => {
  await loadPanelStrings();
});

describe('Cuentas vencidas', () => {
  it('lists the bill by buyer with each lot’s choices, and the buyers with strikes', () => {
    const html = render(createElement(ExpiredSection, { isMobile: true }), [
      [unpaidKeys.expired(), expired()],
      [unpaidKeys.strikes(), strikes],
      [hubKeys.list(), sessions],
    ]);
    expect(html).toContain(u.panel.title);
    expect(html).toContain('Gael Gana');
    expect(html).toContain('Reloj de bolsillo');
    expect(html).toContain(u.panel.secondChanceTo.replace('{{name}}', 'Sofía S.').replace('{{amount}}', formatMoney(700)));
    expect(html).toContain(u.panel.futureShow);
    expect(html).toContain(u.panel.release);
    expect(html).toContain(u.panel.noSessions);
    expect(html).toContain(u.strikes.title);
    expect(html).toContain(u.strikes.lift);
    expect(html).toContain(u.strikes.blocked);
  });

  it('shows a late payment to refund, and a decided lot without its choices', () => {
    const decided = expired();
    const [bill] = decided.bills;
    if (bill?.lots[0]) bill.lots[0] = { ...bill.lots[0], decision: 'released', open: false };
    const html = render(createElement(ExpiredSection, { isMobile: false }), [
      [
        unpaidKeys.expired(),
        {
          ...decided,
          latePayments: [{ paymentId: PAYMENT, winnerName: 'Gael Gana', grandTotal: 1050, mpPaymentId: '95001', expiredAt: null, canceledAt: null }],
        },
      ],
      [unpaidKeys.strikes(), { buyers: [] }],
      [hubKeys.list(), sessions],
    ]);
    expect(html).toContain(u.late.badge);
    expect(html).toContain(u.panel.chosen.released);
    expect(html).not.toContain(u.panel.release);
    expect(html).toContain(u.strikes.empty);
  });

  it('has an empty state', () => {
    const html = render(createElement(ExpiredSection, { isMobile: true }), [
      [unpaidKeys.expired(), { bills: [], latePayments: [] }],
      [unpaidKeys.strikes(), { buyers: [] }],
      [hubKeys.list(), sessions],
    ]);
    expect(html).toContain(u.panel.empty);
  });

  it('while loading, shows spinners that a screen reader names as a status', () => {
    const html = render(createElement(ExpiredSection, { isMobile: true }), []);
    // A label on Mantine's Loader (a <span>) alone is not allowed; with the status role it is.
    const spinners = [...html.matchAll(/<span[^>]*class="[^"]*mantine-Loader-root[^"]*"[^>]*>/g)].map((m) => m[0]);
    expect(spinners.length).toBeGreaterThan(0);
    for (const spinner of spinners) {
      expect(spinner).toContain('role="status"');
      expect(spinner).toContain(`aria-label="${es.common.loading}"`);
    }
  });
});

describe('the buyer’s warning before bidding', () => {
  const mine = (answer: MyUnpaidAnswer) => [[['me', 'unpaid', LOT], answer]] as Array<[readonly unknown[], unknown]>;

  it('warns of an overdue bill with the shop, in yellow', () => {
    const html = render(createElement(UnpaidWarning, { auctionId: LOT, signedIn: true }), mine({ overdue: 1, strikes: 1, limit: 2, blocked: false }));
    expect(html).toContain(u.buyer.warning);
    expect(html).toContain('Faltas con esta tienda: 1 de 2.');
  });

  it('says nothing when nothing is owed, or signed out', () => {
    expect(render(createElement(UnpaidWarning, { auctionId: LOT, signedIn: true }), mine({ overdue: 0, strikes: 0, limit: 2, blocked: false }))).not.toContain(
      'unpaid-warning',
    );
    expect(render(createElement(UnpaidWarning, { auctionId: LOT, signedIn: false }), mine({ overdue: 1, strikes: 1, limit: 2, blocked: false }))).not.toContain(
      'unpaid-warning',
    );
  });
});
