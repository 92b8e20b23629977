import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import type { StorefrontShow } from '../../../src/domain/storefront';
import { meKeys } from '../../../src/web/api/me';
import { createQueryClient } from '../../../src/web/api/query-client';
import { type StorePage as StoreAnswer, sellerKeys } from '../../../src/web/api/sellers';
import { translate } from '../../../src/web/i18n';
import es from '../../../src/web/i18n/es-MX.json';
import { StorePage } from '../../../src/web/public/store/store-page';
import { theme } from '../../../src/web/theme';

/**
 * A seller's page lists the past shows; one with a replay anyone may watch shows its poster (or a
 * dark frame) with a play mark and 'Ver repetición' with its length, both leading to the show's
 * page, which plays it. Rendered on the server, as the page's first HTML is.
 */

const NOW = Date.now();
const SLUG = 'monedas-monica';

function past(id: string, title: string, replay: StorefrontShow['replay']): StorefrontShow {
  return {
    id,
    title,
    url: `/live/monedas/${id}`,
    sellerId: 'u1',
    sellerName: 'Monedas Mónica',
    sellerSlug: SLUG,
    status: 'ended',
    scheduledAt: NOW - 86_400_000,
    viewerCount: 0,
    coverUrl: null,
    lots: [],
    currentLot: null,
    categoryIds: [],
    lotCount: 3,
    soldCount: 1,
    reminded: false,
    replay,
  };
}

function answer(shows: StorefrontShow[]): StoreAnswer {
  return {
    seller: { id: 'u1', slug: SLUG, name: 'Mónica', companyName: 'Monedas Mónica', city: null, followers: 0, following: false },
    live: [],
    upcoming: [],
    past: shows,
    auctions: [],
    serverNow: NOW,
  };
}

async function render(data: StoreAnswer): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(meKeys.all, null);
  queryClient.setQueryData(sellerKeys.detail(SLUG), data);
  const node: ReactNode = createElement(
    MantineProvider,
    { theme },
    createElement(QueryClientProvider, { client: queryClient }, createElement(StorePage, { slug: SLUG })),
  );
  const { prelude } = await prerender(node);
  return new Response(prelude).text();
}

/** Each past show's row, in order. */
const rows = (html: string) => [...html.matchAll(/<li [^>]*data-testid="store-past-show".*?<\/li>/gs)].map((m) => m[0]);

describe('the past shows on a seller’s page', () => {
  it('marks a show with a replay: its poster and “Ver repetición” with its length, both to the show’s page', async () => {
    const posterUrl = '/api/live-sessions/s1/replay/poster';
    const [row] = rows(await render(answer([past('s1', 'Monedas de plata', { durationMs: 42 * 60_000, posterUrl })])));
    expect(row).toContain('data-replay="true"');
    const link = /<a [^>]*data-testid="store-replay-link"[^>]*>(.*?)<\/a>/s.exec(row ?? '');
    expect(link?.[0]).toContain('href="/live/monedas/s1"');
    expect(link?.[1]).toBe(translate('store.replayLength', { length: translate('store.minutes', { minutes: 42 }) }));
    expect(link?.[1]).toBe('Ver repetición · 42 min');
    const poster = /<a [^>]*data-testid="store-replay-poster"[^>]*>.*?<\/a>/s.exec(row ?? '')?.[0] ?? '';
    expect(poster).toContain('href="/live/monedas/s1"');
    // One way in for a screen reader and the keyboard: the title and the replay's link, not the picture.
    expect(poster).toContain('aria-hidden="true"');
    expect(poster).toContain('tabindex="-1"');
    expect(poster).toContain(`src="${posterUrl}"`);
    expect(row).not.toContain(`>${es.store.ended}<`);
  });

  it('says hours and minutes for a long show, and no length when there is none; a dark frame without a poster', async () => {
    const [long, unknown] = rows(
      await render(
        answer([past('s2', 'Largo', { durationMs: 65 * 60_000, posterUrl: null }), past('s3', 'Sin duración', { durationMs: null, posterUrl: null })]),
      ),
    );
    expect(long).toContain('Ver repetición · 1 h 5 min');
    expect(long).toContain('data-testid="store-replay-poster"');
    expect(long).not.toContain('<img');
    expect(unknown).toMatch(new RegExp(`data-testid="store-replay-link"[^>]*>${es.store.watchReplay}</a>`));
  });

  it('leaves a show without a replay as it was: its title, date and “Terminó”', async () => {
    const [row] = rows(await render(answer([past('s4', 'Sin repetición', null)])));
    expect(row).not.toContain('data-replay');
    expect(row).not.toContain(es.store.watchReplay);
    expect(row).not.toContain('store-replay-poster');
    expect(row).toContain(`>${es.store.ended}<`);
    expect(row).toContain('href="/live/monedas/s4"');
  });
});
