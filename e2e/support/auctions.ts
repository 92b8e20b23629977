import type { Page } from 'playwright-core';
import sharp from 'sharp';
import type { AuctionDetail, AuctionInput } from '../../src/domain/auctions.js';
import type { E2eApp } from './app.js';

/**
 * Creates an auction through POST /api/auctions from a seller's signed-in page, as the panel's form
 * would (same validation, same events). Active by default, ending in an hour.
 */
export async function createAuctionAs(
  page: Page,
  app: E2eApp,
  input: Partial<AuctionInput> & { name: string; categoryId: string; endTime?: number },
): Promise<AuctionDetail> {
  const res = await page.request.post(`${app.url}/api/auctions`, {
    data: {
      description: 'Artículo de prueba, en buen estado.',
      startingPrice: 500,
      status: 'active',
      endTime: Date.now() + 3_600_000,
      ...input,
    },
    headers: { origin: app.url },
  });
  if (res.status() >= 300) throw new Error(`auction create failed: ${res.status()} ${await res.text()}`);
  return (await res.json()) as AuctionDetail;
}

/**
 * Moves a bid-less auction's end through PUT /api/auctions/:id, as the panel's form would (its
 * viewers hear auctionUpdated and refetch). A test that needs an auction near its end opens its
 * pages on one that ends in an hour and only then brings the end close: on a loaded machine, opening
 * two signed-in pages has taken longer than a short auction's whole life.
 */
export async function moveEndAs(page: Page, app: E2eApp, auction: AuctionDetail, endTime: number): Promise<AuctionDetail> {
  const { name, description, categoryId, startingPrice, buyNowPrice, condicion, marca, envio, images } = auction;
  const res = await page.request.put(`${app.url}/api/auctions/${auction.id}`, {
    data: { name, description, categoryId: categoryId ?? '', startingPrice, buyNowPrice, condicion, marca, envio, images, endTime } satisfies AuctionInput,
    headers: { origin: app.url },
  });
  if (res.status() >= 300) throw new Error(`auction update failed: ${res.status()} ${await res.text()}`);
  return (await res.json()) as AuctionDetail;
}

/** A small JPEG of one colour uploaded through POST /api/uploads from a signed-in page, as the panel's forms do; answers its URL. */
export async function uploadPhotoAs(
  page: Page,
  app: E2eApp,
  opts: { name: string; color: { r: number; g: number; b: number }; width?: number; height?: number },
): Promise<string> {
  const buffer = await sharp({ create: { width: opts.width ?? 160, height: opts.height ?? 120, channels: 3, background: opts.color } })
    .jpeg()
    .toBuffer();
  const res = await page.request.post(`${app.url}/api/uploads`, {
    multipart: { file: { name: opts.name, mimeType: 'image/jpeg', buffer } },
    headers: { origin: app.url },
  });
  if (res.status() >= 300) throw new Error(`upload failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { url: string }).url;
}
