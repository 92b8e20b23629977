import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuctionDetail } from '../../src/domain/auctions.js';
import { buildCategory } from '../../test/support/actors.js';
import { setupAppAndBrowser } from '../support/app.js';
import { createAuctionAs, uploadPhotoAs } from '../support/auctions.js';
import { newPage } from '../support/browser.js';
import { t } from '../support/catalogue.js';
import { prepareUser, signInPage } from '../support/session.js';

/**
 * A link shared in WhatsApp: the page's HTML carries the preview (og: tags and the card picture)
 * without any JavaScript, and Compartir on a phone without a share sheet offers the WhatsApp link.
 */

const ctx = setupAppAndBrowser();
let auction: AuctionDetail;

beforeAll(async () => {
  const seller = await prepareUser(ctx.app, {
    email: 'vendedora.comparte@ejemplo.mx',
    name: 'Sara Comparte',
    roles: ['seller'],
    companyId: 'tienda-comparte',
    companyName: 'Tienda Comparte',
  });
  const categoryId = await buildCategory(ctx.app, 'Relojes de bolsillo');
  const page = await newPage(ctx.browser);
  await signInPage(page, ctx.app, seller);
  const photo = await uploadPhotoAs(page, ctx.app, { name: 'reloj.jpg', color: { r: 30, g: 90, b: 200 }, width: 1600, height: 1200 });
  auction = await createAuctionAs(page, ctx.app, { name: 'Reloj de bolsillo 1920', categoryId, images: [photo] });
  await page.context().close();
});

describe('a shared auction link', () => {
  it('carries its preview in the HTML, and the card picture is a 1200×630 JPEG', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    const res = await page.request.get(`${ctx.app.url}/auctions/${auction.id}`);
    const html = await res.text();
    expect(html).toContain('<meta property="og:title" content="Reloj de bolsillo 1920">');
    const image = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1] ?? '';
    expect(image).toMatch(new RegExp(`^${ctx.app.url}/og/auction/${auction.id}-[a-z0-9]{10}\\.jpg$`));
    const picture = await page.request.get(image);
    expect(picture.status()).toBe(200);
    expect(picture.headers()['content-type']).toBe('image/jpeg');
    const body = await picture.body();
    expect(body.length).toBeLessThan(300 * 1024);
    expect(await sharp(body).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
    await page.context().close();
  });

  it('Compartir on a phone without a share sheet offers WhatsApp with the link, and Copiar enlace', async () => {
    const page = await newPage(ctx.browser, { mobile: true });
    // A browser with no Web Share (most desktops, some Android browsers).
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
    });
    await page.goto(`${ctx.app.url}/auctions/${auction.id}`);
    await page.getByRole('button', { name: t.share.label.replace('{{title}}', 'Reloj de bolsillo 1920') }).click();
    const whatsapp = page.getByRole('link', { name: t.share.whatsapp });
    await whatsapp.waitFor();
    const href = (await whatsapp.getAttribute('href')) ?? '';
    expect(href.startsWith('https://wa.me/?text=')).toBe(true);
    expect(new URL(href).searchParams.get('text')).toBe(`Reloj de bolsillo 1920\n${ctx.app.url}/auctions/${auction.id}`);
    await expect(page.getByRole('button', { name: t.share.copy }).isVisible()).resolves.toBe(true);
    await page.context().close();
  });
});
