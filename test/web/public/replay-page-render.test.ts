import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import type { AuctionLiveState } from '../../../src/domain/bidding';
import { DEFAULT_BIDDING_CONFIG, type LiveSessionPublic, type LotView } from '../../../src/domain/live';
import { formatMoney } from '../../../src/domain/money';
import type { ReplayChapter } from '../../../src/domain/replays';
import type { LiveSessionData } from '../../../src/web/api/live';
import { meKeys } from '../../../src/web/api/me';
import { createQueryClient } from '../../../src/web/api/query-client';
import { type PublicReplay, replayViewingKeys } from '../../../src/web/api/replay-viewing';
import { translate } from '../../../src/web/i18n';
import es from '../../../src/web/i18n/es-MX.json';
import { LiveSessionView } from '../../../src/web/public/live/live-session-view';
import { ReplayPlayer } from '../../../src/web/public/live/replay-player';
import '../../../src/web/public/live-page';
import { theme } from '../../../src/web/theme';

/**
 * The ended show's page as its replay, rendered by the real components once their parts loaded on
 * demand have arrived (server-side rendering: the video's events are replay-chapters.test.ts's).
 */

const NOW = Date.now();
const SESSION_ID = '6f1c0c54-9a57-4a43-9d4c-0f1f4f9d5c11';
const A1 = '00000000-0000-4000-9000-000000000001';
const A2 = '00000000-0000-4000-9000-000000000002';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&');

async function renderLoaded(node: ReactNode, replay?: PublicReplay): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(meKeys.all, null);
  if (replay) queryClient.setQueryData(replayViewingKeys.replay(SESSION_ID), replay);
  const { prelude } = await prerender(createElement(MantineProvider, { theme }, createElement(QueryClientProvider, { client: queryClient }, node)));
  return new Response(prelude).text();
}

function state(id: string, over: Partial<AuctionLiveState>): AuctionLiveState {
  return {
    id,
    version: 1,
    status: 'ended',
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
    endTime: NOW - 60_000,
    leaderTag: null,
    winnerName: null,
    winnerTag: null,
    serverNow: NOW,
    ...over,
  };
}

function lot(n: number, auctionId: string, name: string, over: Partial<AuctionLiveState>): LotView {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    sessionId: SESSION_ID,
    auctionId,
    order: n,
    status: 'finished',
    createdAt: 0,
    timerOverride: { timerMode: null, counterBidWindowSeconds: null, counterBidResetSeconds: null },
    prebidCount: 0,
    offered: true,
    auction: { id: auctionId, name, images: [], thumbnailUrl: null, state: state(auctionId, over) },
  };
}

function ended(): LiveSessionData {
  const session: LiveSessionPublic = {
    id: SESSION_ID,
    title: 'Relojes del sábado',
    sellerSlug: 'tienda-lucia',
    sellerName: 'Antigüedades Lucía',
    status: 'ended',
    scheduledAt: NOW - 3_600_000,
    whatsappLink: null,
    streamType: 'embedded',
    broadcasting: false,
    coverImageUrl: '/uploads/cover.jpg',
    currentLotId: null,
    biddingConfig: { ...DEFAULT_BIDDING_CONFIG, minIncrement: 50 },
    rehearsal: false,
    autoAdvancePaused: false,
    recording: true,
    autoAdvanceAt: null,
    version: 9,
    store: null,
  };
  const lots = [lot(1, A1, 'Reloj Omega', { currentPrice: 1250, bidCount: 4, winnerName: 'Ju***', winnerTag: 't1' }), lot(2, A2, 'Reloj Seiko', {})];
  return { session, lots, canEdit: false, viewerCount: 0, serverNow: NOW, receivedAt: NOW };
}

const CHAPTERS: ReplayChapter[] = [
  { auctionId: A1, name: 'Reloj Omega', imageUrl: '/uploads/omega.jpg', startMs: 4_000, endMs: 65_000, result: 'sold', price: 1250 },
  { auctionId: A2, name: 'Reloj Seiko', imageUrl: null, startMs: 65_000, endMs: 130_000, result: 'unsold', price: null },
];

const READY: PublicReplay = {
  status: 'ready',
  progress: 100,
  url: `/api/live-sessions/${SESSION_ID}/replay/video`,
  durationMs: 131_000,
  posterUrl: `/api/live-sessions/${SESSION_ID}/replay/poster`,
  chapters: CHAPTERS,
};

/** The markup of each chapter link, in order. */
const chapterLinks = (html: string) => [...html.matchAll(/<a [^>]*data-testid="replay-chapter"[^>]*>.*?<\/a>/g)].map((m) => m[0]);

describe("an ended show's page with its replay ready", () => {
  it('leads with the video, then a chapter per lot, then the results and seller it showed before', async () => {
    const html = await renderLoaded(createElement(LiveSessionView, { data: ended(), viewerCount: 0 }), READY);
    expect(html).toContain('data-layout="replay"');
    const video = /<video [^>]*data-testid="replay-video"[^>]*>/.exec(html)?.[0] ?? '';
    expect(video).toContain(`src="${READY.url}"`);
    expect(video).toContain(`poster="${READY.posterUrl}"`);
    expect(video).toContain('controls=""');
    expect(video.toLowerCase()).toContain('playsinline=""');
    expect(video).toContain('preload="metadata"');
    // The player's slot leads the page (its code arrives on demand, so its markup streams in at that slot's place);
    // inside it the video comes before the chapters; after it the show's head and what the ended page showed.
    const lead = html.slice(html.indexOf('data-layout="replay"'), html.indexOf('<h1'));
    expect(lead).toMatch(/<template id="B:\d+"|data-testid="replay"/);
    expect(html.indexOf('data-testid="replay-video"')).toBeLessThan(html.indexOf('data-testid="replay-chapters"'));
    const order = ['<h1', es.live.ended.title, 'data-testid="result-lots"'].map((s) => html.indexOf(s));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('Vendedor: Antigüedades Lucía');
  });

  it("says 'Vendido $1,250' with the price as the app writes pesos, or 'Sin venta', with each lot's photo (or its place) and moment", async () => {
    const html = await renderLoaded(
      createElement(ReplayPlayer, { sessionId: SESSION_ID, replay: { ...READY, url: READY.url as string }, title: 'Relojes', search: '' }),
    );
    const [omega, seiko] = chapterLinks(html);
    expect(omega).toContain('Reloj Omega');
    expect(omega).toMatch(new RegExp(`data-outcome="sold"[^>]*>${escapeRegExp(translate('live.replay.soldFor', { price: formatMoney(1250) }))}<`));
    expect(translate('live.replay.soldFor', { price: formatMoney(1250) })).toMatch(/^Vendido \$1,250/);
    expect(omega).toContain('src="/uploads/omega.jpg"');
    expect(omega).toMatch(/data-testid="chapter-moment"[^>]*>0:04</);
    expect(seiko).toMatch(new RegExp(`data-outcome="unsold"[^>]*>${es.live.replay.unsold}<`));
    expect(seiko).toContain('data-testid="chapter-no-photo"');
    expect(seiko).toMatch(/data-testid="chapter-moment"[^>]*>1:05</);
  });

  it('makes each chapter a link to its lot, with a label, none marked before the video plays', async () => {
    const html = await renderLoaded(
      createElement(ReplayPlayer, { sessionId: SESSION_ID, replay: { ...READY, url: READY.url as string }, title: 'Relojes', search: '?utm=wa' }),
    );
    const links = chapterLinks(html);
    expect(links).toHaveLength(2);
    expect(links[0]).toContain(`href="?utm=wa&amp;lote=${A1}"`);
    expect(links[1]).toContain(`aria-label="${translate('live.replay.chapterLabel', { name: 'Reloj Seiko', result: es.live.replay.unsold, time: '1:05' })}"`);
    expect(html).not.toContain('aria-current');
  });

  it('?lote= marks its lot as the one playing', async () => {
    const html = await renderLoaded(
      createElement(ReplayPlayer, { sessionId: SESSION_ID, replay: { ...READY, url: READY.url as string }, title: 'Relojes', search: `?lote=${A2}` }),
    );
    const [omega, seiko] = chapterLinks(html);
    expect(omega).not.toContain('aria-current');
    expect(seiko).toContain('aria-current="true"');
  });
});

describe("an ended show's page while its replay is made", () => {
  it("says 'La repetición estará lista pronto' while it is recorded", async () => {
    const html = await renderLoaded(createElement(LiveSessionView, { data: ended(), viewerCount: 0 }), {
      ...READY,
      status: 'recording',
      progress: 0,
      url: null,
      posterUrl: null,
      chapters: [],
    });
    expect(html).toMatch(/data-testid="replay-pending"/);
    expect(html).toContain(es.live.replay.pendingTitle);
    expect(html).not.toContain('data-testid="replay-video"');
    expect(html).toContain(es.live.ended.title);
  });

  it('with how far along once it is being made', async () => {
    const html = await renderLoaded(createElement(LiveSessionView, { data: ended(), viewerCount: 0 }), {
      ...READY,
      status: 'processing',
      progress: 40,
      url: null,
      posterUrl: null,
      chapters: [],
    });
    expect(html).toContain(es.live.replay.pendingTitle);
    expect(html).toContain(translate('live.replay.progress', { progress: 40 }));
  });

  it('shows nothing more for a show without a replay (none, failed or hidden)', async () => {
    for (const status of ['none', 'failed', 'hidden'] as const) {
      const html = await renderLoaded(createElement(LiveSessionView, { data: ended(), viewerCount: 0 }), {
        ...READY,
        status,
        url: null,
        chapters: [],
      });
      expect(html, status).not.toContain('data-testid="replay-pending"');
      expect(html, status).not.toContain('data-testid="replay-video"');
      expect(html, status).toContain(es.live.ended.title);
    }
  });
});
