import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../../src/domain/money.js';
import { auctions, companies, liveSessions, sellerFollows, userProfiles } from '../../../../src/server/db/schema.js';
import { liveCard } from '../../../../src/server/features/share/cards.js';
import { picturePath } from '../../../../src/server/features/share/service.js';
import { messages } from '../../../../src/server/messages.js';
import { buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession, buildUser } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

/**
 * A shared link's preview: WhatsApp, Facebook and X read the page's own HTML (no JavaScript), so
 * each show's, auction's and seller's page is served with its og: tags, and the card picture they
 * point to is a 1200×630 JPEG whose address changes with what it draws.
 */

const SITE = 'https://subastas.example.mx';
const HOSTILE = 'Relojes "<script>alert(1)</script> & más';

let parent = '';
let server: TestServer;
let sellerId = '';

const html = `<!doctype html><html lang="es-MX"><head><meta charset="UTF-8" /><meta name="description" content="Martillo: subastas en vivo para México." /><title>Martillo</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>`;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'martillo-share-'));
  await mkdir(path.join(parent, 'assets'), { recursive: true });
  await writeFile(path.join(parent, 'index.html'), html);
  await writeFile(path.join(parent, 'assets/index-Ab12Cd34.js'), 'export {};\n');
  server = await startTestServer({ webDir: parent, listen: false, env: { PUBLIC_URL: SITE } });
  const seller = await buildActor(server, {
    email: `vende-${randomUUID().slice(0, 6)}@ejemplo.mx`,
    name: 'Juana Vende',
    roles: ['seller', 'buyer'],
    companyId: 'relojeria',
  });
  sellerId = seller.id;
  // A profile's company gets its record by a trigger: named here with markup to be escaped.
  await server.ctx.db
    .insert(companies)
    .values({ id: 'relojeria', name: 'Relojería "La <b>Hora</b>"' })
    .onConflictDoUpdate({ target: companies.id, set: { name: 'Relojería "La <b>Hora</b>"' } });
  await server.ctx.db.update(userProfiles).set({ storeSlug: 'relojeria-la-hora', city: 'Guadalajara' }).where(eq(userProfiles.userId, seller.id));
});
afterAll(async () => {
  await server?.close();
  await rm(parent, { recursive: true, force: true });
});

const page = async (url: string, cookie?: string) => {
  const res = await server.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  return res;
};

/** The value of one meta tag (property= or name=), unescaped as a crawler reads it. */
function meta(body: string, key: string): string | undefined {
  const found = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`).exec(body)?.[1];
  return found
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A photo in the storage provider, as an upload leaves it; its URL as a record keeps it. */
async function storedPhoto(color: string): Promise<string> {
  const bytes = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
  const { url } = await server.ctx.storage.put(`images/2026/11/${randomUUID()}.jpg`, bytes, 'image/jpeg');
  return url;
}

/** Whether the picture's middle band (above the text) is bluer than it is red. */
async function middleColour(jpeg: Buffer): Promise<{ blueOverRed: boolean }> {
  const { channels } = await sharp(jpeg).extract({ left: 300, top: 180, width: 600, height: 80 }).stats();
  return { blueOverRed: (channels[2]?.mean ?? 0) > (channels[0]?.mean ?? 0) };
}

async function picture(url: string) {
  const res = await server.app.inject({ method: 'GET', url: new URL(url).pathname });
  return res;
}

describe("a show's page", () => {
  it('carries its title, seller, time and picture in og: tags, escaped, with absolute addresses', async () => {
    const cover = await storedPhoto('#2a6f97');
    const session = await buildSession(server.ctx.db, {
      sellerId,
      companyId: 'relojeria',
      sellerSlug: 'relojeria-la-hora',
      title: HOSTILE,
      status: 'scheduled',
      scheduledAt: new Date('2026-12-06T02:00:00Z'),
      coverImageUrl: cover,
    });
    const res = await page(`/live/relojeria-la-hora/${session.id}`);
    const body = res.body;
    expect(body).not.toContain('<script>alert(1)');
    expect(meta(body, 'og:title')).toBe(HOSTILE);
    expect(meta(body, 'twitter:title')).toBe(HOSTILE);
    expect(meta(body, 'og:description')).toContain('sábado 5 de diciembre, 8:00 p.m.');
    expect(meta(body, 'og:description')).toContain('Relojería "La <b>Hora</b>"');
    expect(meta(body, 'og:url')).toBe(`${SITE}/live/relojeria-la-hora/${session.id}`);
    expect(meta(body, 'og:image')).toMatch(new RegExp(`^${SITE}/og/live/${session.id}-[a-z0-9]{10}\\.jpg$`));
    expect(meta(body, 'og:image:width')).toBe('1200');
    expect(meta(body, 'og:image:height')).toBe('630');
    expect(meta(body, 'og:image:type')).toBe('image/jpeg');
    expect(meta(body, 'og:type')).toBe('website');
    expect(meta(body, 'og:site_name')).toBe('Martillo');
    expect(meta(body, 'og:locale')).toBe('es_MX');
    expect(meta(body, 'twitter:card')).toBe('summary_large_image');
    // One title and one description: the page's own replace index.html's.
    expect(body.match(/<title>/g)).toHaveLength(1);
    expect(body).toContain(`<title>Relojes &quot;&lt;script&gt;alert(1)&lt;/script&gt; &amp; más · Martillo</title>`);
    expect(body.match(/<meta name="description"/g)).toHaveLength(1);
    expect(meta(body, 'description')).toBe(meta(body, 'og:description'));
  });

  it('says EN VIVO when the show is live, and draws the lot on the block', async () => {
    const session = await buildSession(server.ctx.db, {
      sellerId,
      companyId: 'relojeria',
      sellerSlug: 'relojeria-la-hora',
      title: 'Relojes en vivo',
      status: 'live',
    });
    const photo = await storedPhoto('#7a1f5c');
    const auction = await buildAuction(server.ctx.db, { companyId: 'relojeria', sellerId, status: 'live', images: [photo] });
    const lot = await buildLot(server.ctx.db, { sessionId: session.id, auctionId: auction.id });
    await server.ctx.db.update(liveSessions).set({ currentLotId: lot.id }).where(eq(liveSessions.id, session.id));
    const body = (await page(`/live/relojeria-la-hora/${session.id}`)).body;
    expect(meta(body, 'og:description')).toContain(messages.share.liveNow);
    const card = await liveCard(server.ctx.db, session.id);
    expect(card?.live).toBe(true);
    expect(card?.photoUrl).toBe(photo);
  });
});

describe("a show's lot (the link search results give, ?lote=)", () => {
  it("carries the lot's name, price, show and photo, with the link to that lot; a lot not in the show gets the show's card", async () => {
    const session = await buildSession(server.ctx.db, {
      sellerId,
      companyId: 'relojeria',
      sellerSlug: 'relojeria-la-hora',
      title: 'Relojes de colección',
      status: 'scheduled',
      scheduledAt: new Date('2026-12-06T02:00:00Z'),
    });
    const photo = await storedPhoto('#1b4f8a');
    const auction = await buildAuction(server.ctx.db, {
      companyId: 'relojeria',
      sellerId,
      status: 'active',
      name: 'Relój Seiko 5 <automático>',
      startingPrice: 1250,
      images: [photo],
    });
    await buildLot(server.ctx.db, { sessionId: session.id, auctionId: auction.id });
    const body = (await page(`/live/relojeria-la-hora/${session.id}?lote=${auction.id}`)).body;
    expect(meta(body, 'og:title')).toBe('Relój Seiko 5 <automático>');
    expect(meta(body, 'og:description')).toContain(messages.share.startingPrice.replace('{price}', formatMoney(1250)));
    expect(meta(body, 'og:description')).toContain('«Relojes de colección»');
    expect(meta(body, 'og:description')).toContain('sábado 5 de diciembre, 8:00 p.m.');
    expect(meta(body, 'og:url')).toBe(`${SITE}/live/relojeria-la-hora/${session.id}?lote=${auction.id}`);
    const image = meta(body, 'og:image') ?? '';
    expect(image).toMatch(new RegExp(`^${SITE}/og/lote/${session.id}_${auction.id}-[a-z0-9]{10}\\.jpg$`));
    const res = await picture(image);
    expect(res.statusCode).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
    expect(await middleColour(res.rawPayload)).toMatchObject({ blueOverRed: true });

    // Another show's auction, or no id at all: the show's own card, never the stranger's lot.
    const elsewhere = await buildAuction(server.ctx.db, { companyId: 'relojeria', sellerId, status: 'active', name: 'De otro show' });
    for (const lote of [elsewhere.id, 'no-es-un-id', `${auction.id}_${auction.id}`]) {
      const other = (await page(`/live/relojeria-la-hora/${session.id}?lote=${encodeURIComponent(lote)}`)).body;
      expect(meta(other, 'og:title')).toBe('Relojes de colección');
      expect(meta(other, 'og:url')).toBe(`${SITE}/live/relojeria-la-hora/${session.id}`);
    }
  });

  it('says what the lot sold for once the hammer fell', async () => {
    const session = await buildSession(server.ctx.db, {
      sellerId,
      companyId: 'relojeria',
      sellerSlug: 'relojeria-la-hora',
      title: 'Ya vendido',
      status: 'ended',
    });
    const buyer = await buildUser(server.ctx.db);
    const auction = await buildAuction(server.ctx.db, {
      companyId: 'relojeria',
      sellerId,
      status: 'ended',
      name: 'Casio vintage',
      currentPrice: 980,
      currentWinnerId: buyer.id,
    });
    await buildLot(server.ctx.db, { sessionId: session.id, auctionId: auction.id, status: 'finished' });
    const body = (await page(`/live/relojeria-la-hora/${session.id}?lote=${auction.id}`)).body;
    expect(meta(body, 'og:description')).toContain(messages.share.soldFor.replace('{price}', formatMoney(980)));
    expect(meta(body, 'og:description')).toContain(messages.share.ended);
  });
});

describe("an auction's page", () => {
  it('carries its name, price and seller', async () => {
    const auction = await buildAuction(server.ctx.db, {
      companyId: 'relojeria',
      sellerId,
      name: 'Seiko 5 de 1970',
      status: 'active',
      startingPrice: 800,
      currentPrice: 1234,
    });
    const body = (await page(`/auctions/${auction.id}`)).body;
    expect(meta(body, 'og:title')).toBe('Seiko 5 de 1970');
    expect(meta(body, 'og:description')).toContain(formatMoney(1234));
    expect(meta(body, 'og:description')).toContain('Relojería');
    expect(meta(body, 'og:url')).toBe(`${SITE}/auctions/${auction.id}`);
    expect(meta(body, 'og:image')).toMatch(new RegExp(`^${SITE}/og/auction/${auction.id}-[a-z0-9]{10}\\.jpg$`));
  });
});

describe("a seller's page", () => {
  it('carries the seller, their city and followers', async () => {
    for (let i = 0; i < 2; i++) {
      const buyer = await buildUser(server.ctx.db);
      await server.ctx.db.insert(sellerFollows).values({ followerId: buyer.id, sellerId });
    }
    const body = (await page('/tienda/relojeria-la-hora')).body;
    expect(meta(body, 'og:title')).toBe('Relojería "La <b>Hora</b>"');
    expect(meta(body, 'og:description')).toContain('Guadalajara');
    expect(meta(body, 'og:description')).toContain(messages.share.followers.replace('{n}', '2'));
    expect(meta(body, 'og:url')).toBe(`${SITE}/tienda/relojeria-la-hora`);
    expect(meta(body, 'og:image')).toMatch(new RegExp(`^${SITE}/og/tienda/relojeria-la-hora-[a-z0-9]{10}\\.jpg$`));
  });
});

describe('what is not public gets the generic preview', () => {
  const expectGeneric = (body: string) => {
    expect(meta(body, 'og:title')).toBe(messages.share.siteTitle);
    expect(meta(body, 'og:description')).toBe(messages.share.siteDescription);
    expect(meta(body, 'og:image')).toMatch(new RegExp(`^${SITE}/og/martillo-[a-z0-9]{10}\\.jpg$`));
    expect(meta(body, 'twitter:card')).toBe('summary_large_image');
  };

  it('a rehearsal show', async () => {
    const session = await buildSession(server.ctx.db, { sellerId, companyId: 'relojeria', title: 'Ensayo secreto', rehearsal: true, status: 'live' });
    const body = (await page(`/live/relojeria-la-hora/${session.id}`)).body;
    expectGeneric(body);
    expect(body).not.toContain('Ensayo secreto');
    const direct = await server.app.inject({ method: 'GET', url: `/og/live/${session.id}-abcdefghij.jpg` });
    expect(direct.statusCode).toBe(404);
  });

  it('a pending (draft) auction', async () => {
    const auction = await buildAuction(server.ctx.db, { companyId: 'relojeria', name: 'Borrador privado', status: 'pending' });
    const body = (await page(`/auctions/${auction.id}`)).body;
    expectGeneric(body);
    expect(body).not.toContain('Borrador privado');
  });

  it('an auction a running rehearsal holds', async () => {
    const session = await buildSession(server.ctx.db, { sellerId, companyId: 'relojeria', rehearsal: true, status: 'live' });
    const auction = await buildAuction(server.ctx.db, { companyId: 'relojeria', name: 'Lote de ensayo', status: 'live' });
    await buildLot(server.ctx.db, { sessionId: session.id, auctionId: auction.id });
    expectGeneric((await page(`/auctions/${auction.id}`)).body);
  });

  it('an unknown show, auction or seller: still the app, with the generic tags', async () => {
    expectGeneric((await page(`/live/nadie/${randomUUID()}`)).body);
    expectGeneric((await page(`/auctions/${randomUUID()}`)).body);
    expectGeneric((await page('/auctions/no-es-un-id')).body);
    expectGeneric((await page('/tienda/no-existe')).body);
    const body = (await page('/tienda/no-existe')).body;
    expect(meta(body, 'og:url')).toBe(`${SITE}/`);
  });
});

describe('the card picture', () => {
  it('is a 1200×630 JPEG under 300 KB, cached for good under its hash', async () => {
    const photo = await storedPhoto('#3a7bd5');
    const session = await buildSession(server.ctx.db, {
      sellerId,
      companyId: 'relojeria',
      sellerSlug: 'relojeria-la-hora',
      title: HOSTILE,
      status: 'live',
      coverImageUrl: photo,
    });
    const image = meta((await page(`/live/relojeria-la-hora/${session.id}`)).body, 'og:image') ?? '';
    const res = await picture(image);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(300 * 1024);
    const info = await sharp(res.rawPayload).metadata();
    expect(info).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
    // The stored photo (blue), read through storage, is behind the text: not the brand's red.
    expect(await middleColour(res.rawPayload)).toMatchObject({ blueOverRed: true });
  });

  it('without a photo is drawn on the brand background, as is the site’s own', async () => {
    const auction = await buildAuction(server.ctx.db, { companyId: 'relojeria', name: 'Sin foto', status: 'active' });
    for (const url of [`/auctions/${auction.id}`, '/tienda/no-existe']) {
      const image = meta((await page(url)).body, 'og:image') ?? '';
      const res = await picture(image);
      expect(res.statusCode).toBe(200);
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
      expect(await middleColour(res.rawPayload)).toMatchObject({ blueOverRed: false });
    }
  });

  it('changes its address when the title or the status changes; an older address leads to the current one', async () => {
    const session = await buildSession(server.ctx.db, {
      sellerId,
      companyId: 'relojeria',
      sellerSlug: 'relojeria-la-hora',
      title: 'Antes',
      status: 'scheduled',
    });
    const first = picturePath(await liveCard(server.ctx.db, session.id));
    await server.ctx.db.update(liveSessions).set({ title: 'Después' }).where(eq(liveSessions.id, session.id));
    const renamed = picturePath(await liveCard(server.ctx.db, session.id));
    await server.ctx.db.update(liveSessions).set({ status: 'live' }).where(eq(liveSessions.id, session.id));
    const live = picturePath(await liveCard(server.ctx.db, session.id));
    expect(new Set([first, renamed, live]).size).toBe(3);
    // The page's card is kept a few seconds; the picture's route reads it the same way, so the old address moves on.
    const current = meta((await page(`/live/relojeria-la-hora/${session.id}`)).body, 'og:image') ?? '';
    const old = current.replace(/-[a-z0-9]{10}\.jpg$/, '-zzzzzzzzzz.jpg');
    const moved = await picture(old);
    expect(moved.statusCode).toBe(302);
    expect(moved.headers.location).toBe(new URL(current).pathname);
  });

  it('refuses an address that is not a card, in Spanish', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/og/live/../../etc-passwd.jpg' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const bad = await server.app.inject({ method: 'GET', url: `/og/otro/${randomUUID()}-abcdefghij.jpg` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(messages.errors.validation);
  });
});

describe('a photo is read through storage, never from an address', () => {
  it('an outside URL is not fetched: the card is drawn on the brand background', async () => {
    let asked = 0;
    const outside = createServer((_req, res) => {
      asked++;
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end();
    });
    await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = outside.address() as AddressInfo;
      const auction = await buildAuction(server.ctx.db, {
        companyId: 'relojeria',
        status: 'active',
        images: [`http://127.0.0.1:${port}/uploads/images/a.jpg`],
      });
      const image = meta((await page(`/auctions/${auction.id}`)).body, 'og:image') ?? '';
      const res = await picture(image);
      expect(res.statusCode).toBe(200);
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 1200, height: 630 });
      expect(asked).toBe(0);
      await server.ctx.db.delete(auctions).where(eq(auctions.id, auction.id));
    } finally {
      await new Promise((resolve) => outside.close(resolve));
    }
  });
});
