import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import type { Me } from '../../../src/domain/api-types';
import type { PublicAuction } from '../../../src/domain/auctions';
import type { AuctionLiveState } from '../../../src/domain/bidding';
import { DEFAULT_BIDDING_CONFIG, type LiveDirectory, type LiveSessionPublic, type LotView } from '../../../src/domain/live';
import { formatMoney } from '../../../src/domain/money';
import type { MyUnpaidAnswer } from '../../../src/domain/unpaid';
import { type LiveSessionData, liveKeys } from '../../../src/web/api/live';
import { meKeys } from '../../../src/web/api/me';
import { createQueryClient } from '../../../src/web/api/query-client';
import es from '../../../src/web/i18n/es-MX.json';
import { AuctionView } from '../../../src/web/public/auction/auction-view';
import { myUnpaidKey } from '../../../src/web/public/bidding/unpaid-warning';
import { LiveSessionView } from '../../../src/web/public/live/live-session-view';
import { LivePage } from '../../../src/web/public/live-page';
import { theme } from '../../../src/web/theme';

/**
 * The live page's states rendered by the real components (server-side rendering, so no browser
 * here: effects and the socket do not run). The Chromium walkthrough covers the live updates.
 */

/** The device clock is the server's here (offset zero), so times are relative to now. */
const NOW = Date.now();
const SESSION_ID = '6f1c0c54-9a57-4a43-9d4c-0f1f4f9d5c11';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&');

function buyer(over: Partial<Me> = {}): Me {
  return {
    user: { id: 'u1', email: 'ana@example.com', displayName: 'Ana', avatarUrl: null },
    profile: {} as Me['profile'],
    roles: ['buyer'],
    companyId: 'u1',
    companyName: null,
    companyRecordsShows: true,
    profileComplete: true,
    ...over,
  };
}

function render(node: ReactNode, seed?: (client: ReturnType<typeof createQueryClient>) => void, me: Me | null = null): string {
  const queryClient = createQueryClient();
  queryClient.setQueryData(meKeys.all, me);
  seed?.(queryClient);
  return renderToStaticMarkup(createElement(MantineProvider, { theme }, createElement(QueryClientProvider, { client: queryClient }, node)));
}

/** The page once every part it loads on demand has arrived (a not-found card, say), as markup. */
async function renderLoaded(node: ReactNode, seed?: (client: ReturnType<typeof createQueryClient>) => void): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(meKeys.all, null);
  seed?.(queryClient);
  const { prelude } = await prerender(createElement(MantineProvider, { theme }, createElement(QueryClientProvider, { client: queryClient }, node)));
  return new Response(prelude).text();
}

function state(id: string, over: Partial<AuctionLiveState> = {}): AuctionLiveState {
  return {
    id,
    version: 1,
    status: 'live',
    currentPrice: null,
    bidCount: 0,
    startingPrice: 300,
    buyNowPrice: null,
    nextMinimum: 300,
    minIncrement: 50,
    incrementBands: null,
    timerMode: 'extend',
    antiSnipeSeconds: 10,
    counterBidResetSeconds: 10,
    endTime: NOW + 15_000,
    leaderTag: null,
    winnerName: null,
    winnerTag: null,
    serverNow: NOW,
    ...over,
  };
}

function lot(n: number, name: string, over: Partial<AuctionLiveState> = {}, status: LotView['status'] = 'queued'): LotView {
  const id = `00000000-0000-4000-8000-00000000000${n}`;
  const auctionId = `00000000-0000-4000-9000-00000000000${n}`;
  return {
    id,
    sessionId: SESSION_ID,
    auctionId,
    order: n,
    status,
    createdAt: 0,
    timerOverride: { timerMode: null, counterBidWindowSeconds: null, counterBidResetSeconds: null },
    prebidCount: 0,
    offered: true,
    auction: { id: auctionId, name, images: [], thumbnailUrl: null, state: state(auctionId, over) },
  };
}

const SOLD = { status: 'ended', currentPrice: 450, bidCount: 3, winnerName: 'Ju***', winnerTag: 't1', endTime: NOW - 60_000 } as const;
const UNSOLD = { status: 'ended', endTime: NOW - 30_000 } as const;

function detail(over: Partial<LiveSessionPublic>, lots: LotView[]): LiveSessionData {
  const session: LiveSessionPublic = {
    id: SESSION_ID,
    title: 'Relojes del sábado',
    sellerSlug: 'tienda-lucia',
    sellerName: 'Antigüedades Lucía',
    status: 'live',
    scheduledAt: NOW - 600_000,
    whatsappLink: 'https://chat.whatsapp.com/abc123',
    streamType: 'none',
    broadcasting: false,
    coverImageUrl: '/uploads/cover.jpg',
    currentLotId: null,
    biddingConfig: { ...DEFAULT_BIDDING_CONFIG, minIncrement: 50 },
    rehearsal: false,
    autoAdvancePaused: false,
    recording: true,
    autoAdvanceAt: null,
    version: 3,
    store: null,
    ...over,
  };
  return { session, lots, canEdit: false, viewerCount: 12, serverNow: NOW, receivedAt: NOW };
}

const show = [lot(1, 'Reloj Omega', SOLD, 'finished'), lot(2, 'Reloj Seiko', UNSOLD, 'finished'), lot(3, 'Reloj Casio'), lot(4, 'Reloj Citizen')];

describe('the live page of a session', () => {
  it('live: title, seller, video slot with the cover, viewers, WhatsApp, the current lot with the sign-in prompt, what comes and what sold', () => {
    const html = render(createElement(LiveSessionView, { data: detail({ currentLotId: show[2]?.id }, show), viewerCount: 12 }));
    expect(html).toMatch(/<h1[^>]*>Relojes del sábado<\/h1>/);
    expect(html).toContain('Vendedor: Antigüedades Lucía');
    expect(html).toMatch(/data-video-slot[^>]*>.*<img src="\/uploads\/cover.jpg"/);
    expect(html).toContain('12 espectadores');
    expect(html).toMatch(/href="https:\/\/chat.whatsapp.com\/abc123"[^>]*>.*Unirme al grupo de WhatsApp/);
    expect(html).toContain(es.live.current.heading);
    expect(html).toMatch(/data-testid="current-lot-name"[^>]*>Reloj Casio</);
    expect(html).toContain(es.bidding.form.signIn);
    expect(html).toContain('role="timer"');
    // Over the video, for a phone: the lot, its price and the time left (mm:ss).
    expect(html).toMatch(
      new RegExp(`data-testid="lot-overlay".*Reloj Casio.*${escapeRegExp(formatMoney(300))}.*data-testid="overlay-timer"[^>]*>\\d{2}:\\d{2}<`),
    );
    expect(html).toMatch(/data-testid="upcoming-lot"[^>]*>.*Reloj Citizen/);
    expect(html).not.toMatch(/data-testid="upcoming-lot"[^>]*>(?:(?!<\/li>).)*Reloj Casio/);
    expect(html).toMatch(new RegExp(`data-outcome="sold"[^>]*>.*Reloj Omega.*${escapeRegExp(formatMoney(450))}.*Vendido`));
    expect(html).toMatch(/data-outcome="unsold"[^>]*>.*Reloj Seiko.*Sin venta/);
    expect(html).not.toContain(es.live.paused);
  });

  it("gives a signed-in buyer the bid form with the session's increment (from the lot's live state)", () => {
    const html = render(createElement(LiveSessionView, { data: detail({ currentLotId: show[2]?.id }, show), viewerCount: null }), undefined, buyer());
    expect(html).toContain(`Puja mínima: ${formatMoney(300)}`);
    // The quick amounts: the next minimum, then each one the increment above the one before.
    expect(html).toMatch(
      new RegExp(`data-testid="quick-bid".*>${escapeRegExp(formatMoney(300))}<.*>${escapeRegExp(formatMoney(350))}<.*>${escapeRegExp(formatMoney(400))}<`),
    );
    // The lot's timer format, before any bid.
    expect(html).toMatch(/data-testid="timer-format-label"[^>]*>.*Extender 10 s/);
    expect(html).toContain('data-testid="bid-form"');
    expect(html).not.toContain(es.bidding.form.signIn);
  });

  it("tells the session's own seller it is their auction instead of offering the form", () => {
    const data = detail({ currentLotId: show[2]?.id }, show);
    const session = { ...data.session, sellerId: 'seller-1', companyId: 'company-1', createdAt: 0, lastStreamStart: null, lastStreamStop: null };
    const seller = buyer({ roles: ['seller'], companyId: 'company-1' });
    const html = render(createElement(LiveSessionView, { data: { ...data, session, canEdit: true }, viewerCount: null }), undefined, seller);
    expect(html).toContain(es.bidding.ownAuction);
    expect(html).not.toContain('data-testid="bid-form"');
  });

  it('tells a buyer the seller blocked that they cannot bid, and why, instead of offering the form', () => {
    const auctionId = show[2]?.auctionId ?? '';
    const blocked = { overdue: 0, strikes: 0, limit: 2, blocked: true } satisfies MyUnpaidAnswer;
    const html = render(
      createElement(LiveSessionView, { data: detail({ currentLotId: show[2]?.id }, show), viewerCount: null }),
      (client) => client.setQueryData(myUnpaidKey(auctionId), blocked),
      buyer(),
    );
    expect(html).toContain(es.unpaid.buyer.blockedTitle);
    expect(html).toContain(es.unpaid.buyer.blockedByModerator);
    expect(html).not.toContain('data-testid="bid-form"');
    expect(html).not.toContain(es.bidding.form.signIn);
  });

  it("paused: 'La transmisión está en pausa', and the lot stays on screen", () => {
    const html = render(createElement(LiveSessionView, { data: detail({ status: 'paused', currentLotId: show[2]?.id }, show), viewerCount: 12 }));
    expect(html).toContain(es.live.paused);
    expect(html).toContain('Reloj Casio');
  });

  it("the current lot once it sells: 'Vendido' and its price, no form, no 'En subasta ahora'", () => {
    const lots = [lot(1, 'Reloj Omega', SOLD, 'finished'), lot(2, 'Reloj Seiko')];
    const html = render(createElement(LiveSessionView, { data: detail({ currentLotId: lots[0]?.id }, lots), viewerCount: 12 }));
    expect(html).not.toContain(es.live.current.heading);
    expect(html).toMatch(/data-testid="current-lot-outcome"[^>]*><span[^>]*>Vendido</);
    expect(html).toContain(`Vendido en ${formatMoney(450)}`);
    expect(html).not.toContain(es.bidding.form.signIn);
  });

  it('scheduled: the countdown to the start in Mexico City time and the lots to come, no bid panel', () => {
    const scheduledAt = Date.now() + 3 * 3600_000;
    const lots = [lot(1, 'Reloj Omega'), lot(2, 'Reloj Seiko')];
    const html = render(createElement(LiveSessionView, { data: detail({ status: 'scheduled', scheduledAt, whatsappLink: null }, lots), viewerCount: 0 }));
    expect(html).toContain(es.live.scheduled.startsIn);
    expect(html).toContain('(hora de la Ciudad de México)');
    expect(html).toContain(es.live.upcoming.scheduledHeading);
    expect(html).toContain('Reloj Omega');
    expect(html).not.toContain(es.live.current.heading);
    expect(html).not.toContain('WhatsApp');
    expect(html).toContain(es.live.status.scheduled);
  });

  it('ended: the results with what sold, for how much, and the total; the lots that never ran apart and not counted', () => {
    const idle = [show[0], show[1], lot(3, 'Reloj Casio', { endTime: null }), show[3]] as LotView[];
    const html = render(createElement(LiveSessionView, { data: detail({ status: 'ended', currentLotId: idle[2]?.id }, idle), viewerCount: 0 }));
    expect(html).toContain(es.live.ended.title);
    expect(html).toContain(`Total vendido: ${formatMoney(450)}`);
    expect(html).toContain('1 lote vendido · 1 sin venta');
    expect(html).toMatch(/data-outcome="unsold"[^>]*>.*Reloj Seiko/);
    expect(html).not.toMatch(/data-outcome="unsold"[^>]*>(?:(?!<\/li>).)*Reloj (Casio|Citizen)/);
    expect(html).toMatch(new RegExp(`${es.live.notOffered.heading}.*data-testid="not-offered-lot"[^>]*>.*Reloj Casio.*Reloj Citizen`));
    expect(html).not.toContain(es.live.current.heading);
    expect(html).not.toContain(es.live.upcoming.heading);
  });

  it('ended mid-lot: the lot whose timer still runs stays on the block, biddable, until it closes', () => {
    const html = render(createElement(LiveSessionView, { data: detail({ status: 'ended', currentLotId: show[2]?.id }, show), viewerCount: 0 }));
    expect(html).toContain(es.live.ended.title);
    expect(html).toMatch(/data-testid="current-lot-name"[^>]*>Reloj Casio</);
    expect(html).toContain(es.bidding.form.signIn);
  });

  it("stopped mid-lot ('Detener' sets it back to scheduled): no start countdown, the video says it stopped, the lot stays biddable", () => {
    // The show was set for tomorrow: read literally, 'scheduled' would count down to it.
    const data = detail({ status: 'scheduled', scheduledAt: NOW + 19 * 3600_000, streamType: 'embedded', currentLotId: show[2]?.id }, show);
    const html = render(createElement(LiveSessionView, { data, viewerCount: 3 }), undefined, buyer());
    expect(html).toContain('data-state="stopped"');
    expect(html).not.toContain(es.live.scheduled.startsIn);
    expect(html).not.toContain('data-testid="start-countdown"');
    expect(html).toContain(es.live.video.stopped);
    expect(html).toContain(es.live.status.stopped);
    expect(html).toMatch(/data-testid="current-lot-name"[^>]*>Reloj Casio</);
    expect(html).toContain('data-testid="bid-form"');
    expect(html).toContain(es.live.upcoming.heading);
  });

  it('a rehearsal stopped before the start time still counts down to the show', () => {
    const data = detail({ status: 'scheduled', scheduledAt: Date.now() + 19 * 3600_000 + 30_000, streamType: 'embedded' }, [lot(1, 'Reloj Omega')]);
    const html = render(createElement(LiveSessionView, { data, viewerCount: 0 }));
    expect(html).toContain(es.live.scheduled.startsIn);
    expect(html).toMatch(/data-testid="start-countdown"[^>]*>19 h 00 min</);
  });

  it("long waits read in days and hours ('1 d 15 h'), never as a clock; the lot over the video reads mm:ss only under an hour", () => {
    // Half a minute over each reading, so a slow run still reads the same.
    const now = Date.now();
    const wait = (39 * 60 + 44) * 60_000 + 30_000;
    const scheduled = render(
      createElement(LiveSessionView, { data: detail({ status: 'scheduled', scheduledAt: now + wait }, [lot(1, 'Reloj Omega')]), viewerCount: 0 }),
    );
    expect(scheduled).toMatch(/data-testid="start-countdown"[^>]*>1 d 15 h</);
    const long = [lot(1, 'Reloj Omega', { endTime: now + wait })];
    const html = render(createElement(LiveSessionView, { data: detail({ currentLotId: long[0]?.id }, long), viewerCount: 0 }));
    expect(html).toMatch(/data-testid="overlay-timer"[^>]*>1 d 15 h</);
    expect(html).toMatch(/data-testid="countdown"[^>]*>1 d 15 h</);
    const hours = [lot(1, 'Reloj Omega', { endTime: now + 2 * 3600_000 + 5 * 60_000 + 30_000 })];
    const inHours = render(createElement(LiveSessionView, { data: detail({ currentLotId: hours[0]?.id }, hours), viewerCount: 0 }));
    expect(inHours).toMatch(/data-testid="overlay-timer"[^>]*>2 h 05 min</);
    expect(inHours).toMatch(/data-testid="countdown"[^>]*>2 h 05 min</);
  });

  it("the current lot once its auction closed is no longer 'En subasta ahora': the panel says it closed, and how", () => {
    const lots = [lot(1, 'Reloj Omega', UNSOLD, 'finished'), lot(2, 'Reloj Seiko')];
    const html = render(createElement(LiveSessionView, { data: detail({ currentLotId: lots[0]?.id }, lots), viewerCount: 12 }));
    expect(html).not.toContain(es.live.current.heading);
    expect(html).toMatch(new RegExp(`data-testid="current-lot-heading"[^>]*>${es.live.current.closedHeading}<`));
    expect(html).toMatch(/data-testid="current-lot-outcome"[^>]*><span[^>]*>Sin venta</);
  });

  it('without a cover the video slot still marks the 9:16 place', () => {
    const html = render(createElement(LiveSessionView, { data: detail({ coverImageUrl: null }, []), viewerCount: 1 }));
    expect(html).toContain('data-video-slot');
    expect(html).toContain('1 espectador<');
    expect(html).toContain(es.live.current.waiting);
  });
});

describe('the routes of the live page', () => {
  it("a link whose id cannot be a session's is 'Sesión no encontrada' without asking the server", async () => {
    const html = await renderLoaded(createElement(LivePage, { slug: 'tienda', sessionId: 'no-es-un-id' }));
    expect(html).toMatch(/<h1[^>]*>Sesión no encontrada<\/h1>/);
  });

  it("a 404 from the server is 'Sesión no encontrada'", async () => {
    const html = await renderLoaded(createElement(LivePage, { slug: null, sessionId: SESSION_ID }), (c) => c.setQueryData(liveKeys.detail(SESSION_ID), null));
    expect(html).toMatch(/<h1[^>]*>Sesión no encontrada<\/h1>/);
  });

  it('/live lists the shows on now and the next ones, each a link to its page', async () => {
    const card = { sellerSlug: 'tienda-lucia', sellerName: 'Antigüedades Lucía', coverImageUrl: null, lotCount: 4 };
    const directory: LiveDirectory = {
      live: [{ ...card, id: SESSION_ID, title: 'Relojes del sábado', status: 'live', scheduledAt: NOW }],
      upcoming: [{ ...card, id: '7f1c0c54-9a57-4a43-9d4c-0f1f4f9d5c11', title: 'Cámaras', status: 'scheduled', scheduledAt: NOW + 86_400_000, sellerSlug: '' }],
      serverNow: NOW,
    };
    const html = await renderLoaded(createElement(LivePage, { slug: null, sessionId: null }), (c) => c.setQueryData(liveKeys.directory(), directory));
    expect(html).toContain(es.live.directory.liveNow);
    expect(html).toContain(es.live.directory.upcoming);
    expect(html).toContain(`href="/live/tienda-lucia/${SESSION_ID}"`);
    expect(html).toContain('href="/live/7f1c0c54-9a57-4a43-9d4c-0f1f4f9d5c11"');
    expect(html).toContain('4 lotes');
  });

  it("/live with nothing on: 'No hay ninguna transmisión en este momento.'", async () => {
    const html = await renderLoaded(createElement(LivePage, { slug: null, sessionId: null }), (c) =>
      c.setQueryData(liveKeys.directory(), { live: [], upcoming: [], serverNow: NOW }),
    );
    expect(html).toContain(es.live.noSession);
  });
});

describe('the auction page keeps the shared bid panel as before', () => {
  it('signed out: the starting price, the clock, the sign-in prompt and the history, under the same test ids', () => {
    const auction: PublicAuction = {
      id: '00000000-0000-4000-9000-0000000000aa',
      name: 'Cámara Leica',
      description: 'Funciona.',
      startingPrice: 500,
      buyNowPrice: null,
      currentPrice: null,
      bidCount: 0,
      images: [],
      imageDetails: [],
      categoryId: null,
      categoryName: 'Cámaras',
      condicion: null,
      marca: null,
      envio: null,
      endTime: NOW + 3_600_000,
      status: 'active',
      companyId: 'company-1',
      companyName: 'Antigüedades Lucía',
      currentWinnerName: null,
      createdAt: 0,
      version: 1,
      store: null,
      serverNow: NOW,
    };
    const html = render(createElement(AuctionView, { auction, receivedAt: NOW }));
    expect(html).toMatch(/<h1[^>]*>Cámara Leica<\/h1>/);
    expect(html).toMatch(new RegExp(`data-testid="price-label"[^>]*>${escapeRegExp(es.publicAuction.startingPrice)}<`));
    expect(html).toMatch(new RegExp(`data-testid="current-price"[^>]*>${escapeRegExp(formatMoney(500))}<`));
    expect(html).toContain('data-testid="countdown"');
    expect(html).toContain('data-testid="end-time"');
    expect(html).toContain('data-testid="sign-in-to-bid"');
    expect(html).toContain('data-testid="bid-history"');
  });
});
