import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PurchaseBill } from '../../../src/domain/purchases';
import { createQueryClient } from '../../../src/web/api/query-client';
import { type ClipLink, clipQueryOptions } from '../../../src/web/api/replay-viewing';
import es from '../../../src/web/i18n/es-MX.json';
import { BillCard } from '../../../src/web/public/purchases/bill-card';
import { clipToOpen, VideoReceiptButton } from '../../../src/web/public/purchases/video-receipt';
import { VideoReceiptDialog } from '../../../src/web/public/purchases/video-receipt-dialog';
import { theme } from '../../../src/web/theme';

/**
 * 'Video de tu compra' under a bought lot: asked once of GET /api/auctions/{id}/clip (the answers
 * come from a fake fetch giving real Responses), hidden on a 404, 'Reintentar' on a network error,
 * and its clip played in a dialog.
 */

const BOUGHT = '00000000-0000-4000-9000-000000000001';
const NOT_MINE = '00000000-0000-4000-9000-000000000002';
const CLIP: ClipLink = { url: `/api/auctions/${BOUGHT}/clip/video?expires=1&signature=abc`, durationMs: 95_000, expiresAt: Date.now() + 3_600_000 };

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The server: the bought lot's clip, 404 for any other. */
function serveClips() {
  const fetchMock = vi.fn(async (path: string) =>
    path === `/api/auctions/${BOUGHT}/clip`
      ? new Response(JSON.stringify(CLIP), { status: 200 })
      : new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Video no encontrado' } }), { status: 404 }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Asks each clip as the rows do when they render, then renders `node` with those answers. */
async function renderAsked(node: ReactNode, auctionIds: string[], retry?: false): Promise<string> {
  const queryClient = createQueryClient();
  // A failed ask is shown as failed: the row rendered after it, not a new mount that asks again.
  if (retry === false) queryClient.setQueryDefaults(['replay-viewing'], { retryOnMount: false });
  for (const id of auctionIds) await queryClient.fetchQuery({ ...clipQueryOptions(id), ...(retry === false ? { retry } : {}) }).catch(() => undefined);
  const { prelude } = await prerender(createElement(MantineProvider, { theme }, createElement(QueryClientProvider, { client: queryClient }, node)));
  return new Response(prelude).text();
}

function bill(): PurchaseBill {
  return {
    paymentId: 'p1',
    status: 'toPay',
    items: [
      { auctionId: BOUGHT, auctionName: 'Reloj Omega', amount: 1250 },
      { auctionId: NOT_MINE, auctionName: 'Reloj Seiko', amount: 300 },
    ],
    totalAmount: 1550,
    shippingCarrier: null,
    shippingCost: 0,
    grandTotal: 1550,
    deadlineAt: null,
    paidAt: null,
    payLink: null,
  };
}

describe("'Video de tu compra'", () => {
  it('shows under the bought lot that has a clip, and nowhere the server answers 404, asking each once', async () => {
    const fetchMock = serveClips();
    const html = await renderAsked(createElement(BillCard, { bill: bill() }), [BOUGHT, NOT_MINE]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const buttons = [...html.matchAll(/data-testid="video-receipt"/g)];
    expect(buttons).toHaveLength(1);
    const omega = html.indexOf('Reloj Omega');
    const seiko = html.indexOf('Reloj Seiko');
    const button = html.indexOf('data-testid="video-receipt"');
    expect(omega).toBeLessThan(button);
    expect(button).toBeLessThan(seiko);
    expect(html).toContain(es.purchases.videoReceipt.button);
  });

  it('is not shown on a 404', async () => {
    serveClips();
    const html = await renderAsked(createElement(VideoReceiptButton, { auctionId: NOT_MINE, name: 'Reloj Seiko' }), [NOT_MINE]);
    expect(html).not.toContain('data-testid="video-receipt"');
    expect(html).not.toContain(es.purchases.videoReceipt.loadFailed);
  });

  it("says 'No se pudo cargar el video.' with 'Reintentar' when the network fails", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const html = await renderAsked(createElement(VideoReceiptButton, { auctionId: BOUGHT, name: 'Reloj Omega' }), [BOUGHT], false);
    expect(html).toContain(es.purchases.videoReceipt.loadFailed);
    expect(html).toContain(es.common.retry);
    expect(html).not.toContain('data-testid="video-receipt"');
  });

  it('opens the clip in a dialog, playing with its sound', async () => {
    const html = await renderAsked(createElement(VideoReceiptDialog, { clip: CLIP, name: 'Reloj Omega', onClose: () => undefined }), []);
    expect(html).toMatch(/<dialog[^>]*>/);
    expect(html).toContain(es.purchases.videoReceipt.title);
    const video = (/<video [^>]*>/.exec(html)?.[0] ?? '').toLowerCase();
    expect(video).toContain(`src="${CLIP.url.replace('&', '&amp;').toLowerCase()}"`);
    expect(video).toContain('controls=""');
    expect(video).toContain('playsinline=""');
    expect(video).toContain('autoplay=""');
    expect(video).not.toContain('muted');
  });
});

describe('the clip opened', () => {
  it('is the one held while its address lasts', async () => {
    const refetch = vi.fn();
    await expect(clipToOpen(CLIP, refetch, Date.now())).resolves.toBe(CLIP);
    expect(refetch).not.toHaveBeenCalled();
  });

  it('is asked again once its address expired', async () => {
    const spent = { ...CLIP, expiresAt: Date.now() - 1 };
    const fresh = { ...CLIP, url: `${CLIP.url}&new=1` };
    const refetch = vi.fn(async () => ({ data: fresh }));
    await expect(clipToOpen(spent, refetch, Date.now())).resolves.toBe(fresh);
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('is none when the new address did not come (the refetch failed and kept the spent one)', async () => {
    const spent = { ...CLIP, expiresAt: Date.now() - 1 };
    await expect(clipToOpen(spent, async () => ({ data: spent }), Date.now())).resolves.toBeNull();
  });
});
