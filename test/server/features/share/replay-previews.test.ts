import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, replays, userProfiles } from '../../../../src/server/db/schema.js';
import { liveCard } from '../../../../src/server/features/share/cards.js';
import { picturePath } from '../../../../src/server/features/share/service.js';
import { messages } from '../../../../src/server/messages.js';
import { buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession, buildWonAuction } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

/**
 * The link of an ended show whose replay anyone may watch previews as the replay: 'Repetición: …',
 * its length, lots and sales, the replay's poster with a play mark, and the MP4 in og:video. A
 * replay hidden, expired, still being made or failed, and a rehearsal's, never shows in a preview.
 */

const SITE = 'https://subastas.example.mx';
const COMPANY = 'relojeria-repite';
const SLUG = 'relojeria-repite';
const DAY = 24 * 60 * 60 * 1000;

let parent = '';
let server: TestServer;
let sellerId = '';

const html = `<!doctype html><html lang="es-MX"><head><meta charset="UTF-8" /><title>Martillo</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>`;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'martillo-share-replay-'));
  await mkdir(path.join(parent, 'assets'), { recursive: true });
  await writeFile(path.join(parent, 'index.html'), html);
  await writeFile(path.join(parent, 'assets/index-Ab12Cd34.js'), 'export {};\n');
  server = await startTestServer({ webDir: parent, listen: false, env: { PUBLIC_URL: SITE } });
  const seller = await buildActor(server, { email: 'repite@ejemplo.mx', name: 'Rita Repite', roles: ['seller', 'buyer'], companyId: COMPANY });
  sellerId = seller.id;
  await server.ctx.db
    .insert(companies)
    .values({ id: COMPANY, name: 'Relojería <Repite>' })
    .onConflictDoUpdate({ target: companies.id, set: { name: 'Relojería <Repite>' } });
  await server.ctx.db.update(userProfiles).set({ storeSlug: SLUG }).where(eq(userProfiles.userId, seller.id));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await rm(parent, { recursive: true, force: true });
});

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

const jpeg = (color: string) =>
  sharp({ create: { width: 1280, height: 720, channels: 3, background: color } })
    .jpeg()
    .toBuffer();

/** A photo as an upload leaves it, by the URL a record keeps. */
async function storedPhoto(color: string): Promise<string> {
  return (await server.ctx.storage.put(`images/2026/11/${randomUUID()}.jpg`, await jpeg(color), 'image/jpeg')).url;
}

/**
 * An ended show of the seller's (three lots, one sold), red cover, and its replay row as the replays
 * job leaves it; a ready one with a blue poster and an MP4 in storage unless told otherwise.
 */
async function endedShow(opts: { title?: string; replay?: Partial<typeof replays.$inferInsert> | null; poster?: boolean; rehearsal?: boolean } = {}) {
  const db = server.ctx.db;
  const session = await buildSession(db, {
    sellerId,
    companyId: COMPANY,
    sellerSlug: SLUG,
    title: opts.title ?? 'Relojes de bolsillo',
    status: 'ended',
    rehearsal: opts.rehearsal ?? false,
    coverImageUrl: await storedPhoto('#c0392b'),
  });
  await buildLot(db, { sessionId: session.id, auctionId: (await buildWonAuction(db, { price: 800, sellerId, companyId: COMPANY })).id });
  for (const name of ['Sin vender', 'Tampoco']) {
    await buildLot(db, {
      sessionId: session.id,
      auctionId: (await buildAuction(db, { name, status: 'ended', sellerId, companyId: COMPANY })).id,
      onBlock: true,
    });
  }
  if (opts.replay === null) return session;
  const videoKey = `replays/${session.id}/replay.mp4`;
  const posterKey = `replays/${session.id}/poster.jpg`;
  await server.ctx.storage.put(videoKey, randomBytes(4096), 'video/mp4');
  if (opts.poster !== false) await server.ctx.storage.put(posterKey, await jpeg('#1f5fbf'), 'image/jpeg');
  await db.insert(replays).values({
    sessionId: session.id,
    status: 'ready',
    progress: 100,
    videoKey,
    posterKey,
    durationMs: 42 * 60_000 + 10_000,
    chapters: [],
    readyAt: new Date(),
    expiresAt: new Date(Date.now() + 90 * DAY),
    ...opts.replay,
  });
  return session;
}

const pageOf = async (sessionId: string) => {
  const res = await server.app.inject({ method: 'GET', url: `/live/${SLUG}/${sessionId}` });
  expect(res.statusCode).toBe(200);
  return res.body;
};

/** Whether the picture's left side, away from the play mark and the text, is bluer than it is red. */
async function leftIsBlue(picture: Buffer): Promise<boolean> {
  const { channels } = await sharp(picture).extract({ left: 80, top: 160, width: 300, height: 100 }).stats();
  return (channels[2]?.mean ?? 0) > (channels[0]?.mean ?? 0);
}

const pictureOf = async (body: string) => {
  const res = await server.app.inject({ method: 'GET', url: new URL(meta(body, 'og:image') ?? '').pathname });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/jpeg');
  return res.rawPayload;
};

describe('an ended show with a public replay', () => {
  it('previews as the replay: its title, length, lots and sales, and the MP4 as og:video', async () => {
    const session = await endedShow();
    const body = await pageOf(session.id);
    expect(meta(body, 'og:title')).toBe('Repetición: Relojes de bolsillo');
    expect(meta(body, 'twitter:title')).toBe('Repetición: Relojes de bolsillo');
    expect(body).toContain('<title>Repetición: Relojes de bolsillo · Martillo</title>');
    expect(meta(body, 'og:description')).toBe('Repetición · 42 min · de Relojería <Repite> · 3 lotes, 1 vendido');
    expect(meta(body, 'description')).toBe(meta(body, 'og:description'));
    const video = `${SITE}/api/live-sessions/${session.id}/replay/video`;
    expect(meta(body, 'og:type')).toBe('video.other');
    expect(meta(body, 'og:video')).toBe(video);
    expect(meta(body, 'og:video:secure_url')).toBe(video);
    expect(meta(body, 'og:video:type')).toBe('video/mp4');
    // The picture stays the large card (X's player card needs a page of its own, not an MP4).
    expect(meta(body, 'twitter:card')).toBe('summary_large_image');
    expect(meta(body, 'og:url')).toBe(`${SITE}/live/${SLUG}/${session.id}`);
    // og:video is the MP4 itself, served to anyone.
    const mp4 = await server.app.inject({ method: 'GET', url: new URL(video).pathname });
    expect(mp4.statusCode).toBe(200);
    expect(mp4.headers['content-type']).toBe('video/mp4');
  });

  it('draws the replay’s poster, and says Repetición and its length under the seller', async () => {
    const session = await endedShow();
    const card = await liveCard(server.ctx.db, session.id);
    expect(card).toMatchObject({ detail: 'Repetición · 42 min', drawnTitle: 'Relojes de bolsillo', live: false });
    const picture = await pictureOf(await pageOf(session.id));
    expect(await leftIsBlue(picture)).toBe(true);
  });

  it('draws the cover when the poster cannot be read', async () => {
    const session = await endedShow({ poster: false });
    const picture = await pictureOf(await pageOf(session.id));
    expect(await leftIsBlue(picture)).toBe(false);
  });

  it('says hours and minutes for a long show, and no length when the replay has none', async () => {
    const long = await liveCard(server.ctx.db, (await endedShow({ replay: { durationMs: 65 * 60_000 } })).id);
    expect(long?.detail).toBe('Repetición · 1 h 5 min');
    const unknown = await liveCard(server.ctx.db, (await endedShow({ replay: { durationMs: null } })).id);
    expect(unknown?.detail).toBe(messages.share.replay);
    expect(unknown?.description).toBe('Repetición · de Relojería <Repite> · 3 lotes, 1 vendido');
  });

  it('escapes the show’s title in every tag', async () => {
    const session = await endedShow({ title: 'Relojes "<script>alert(1)</script>' });
    const body = await pageOf(session.id);
    expect(body).not.toContain('<script>alert(1)');
    expect(meta(body, 'og:title')).toBe('Repetición: Relojes "<script>alert(1)</script>');
    expect(body).toContain('<title>Repetición: Relojes &quot;&lt;script&gt;alert(1)&lt;/script&gt; · Martillo</title>');
  });
});

describe('a replay nobody may watch', () => {
  const cases: [string, Parameters<typeof endedShow>[0]][] = [
    ['hidden by its seller', { replay: { visibility: 'hidden' } }],
    ['past its days', { replay: { expiresAt: new Date(Date.now() - 60_000) } }],
    ['still being made', { replay: { status: 'processing', progress: 40, videoKey: null, posterKey: null, durationMs: null, readyAt: null } }],
    ['still being recorded', { replay: { status: 'recording', progress: 0, videoKey: null, posterKey: null, durationMs: null, readyAt: null } }],
    ['failed', { replay: { status: 'failed', error: 'ffmpeg', videoKey: null, posterKey: null, readyAt: null } }],
    ['deleted', { replay: null }],
  ];

  it.each(cases)('is not in the preview when %s: the ended show’s own card instead', async (_, opts) => {
    const session = await endedShow(opts);
    const body = await pageOf(session.id);
    expect(meta(body, 'og:title')).toBe('Relojes de bolsillo');
    expect(meta(body, 'og:type')).toBe('website');
    expect(body).not.toContain('og:video');
    expect(meta(body, 'og:description')).toContain(messages.share.ended);
    expect(meta(body, 'og:description')).not.toContain(messages.share.replay);
    const picture = await pictureOf(body);
    expect(await leftIsBlue(picture)).toBe(false);
  });

  it('is not in a rehearsal’s preview, which is the site’s own', async () => {
    const session = await endedShow({ rehearsal: true });
    const body = await pageOf(session.id);
    expect(meta(body, 'og:title')).toBe(messages.share.siteTitle);
    expect(body).not.toContain('og:video');
    expect(body).not.toContain(messages.share.replay);
  });
});

describe('the picture’s address', () => {
  it('changes when the replay becomes public, and again when it is hidden', async () => {
    const session = await endedShow({ replay: { status: 'processing', videoKey: null, posterKey: null, durationMs: null, readyAt: null } });
    const db = server.ctx.db;
    const before = picturePath(await liveCard(db, session.id));
    await db
      .update(replays)
      .set({
        status: 'ready',
        videoKey: `replays/${session.id}/replay.mp4`,
        posterKey: `replays/${session.id}/poster.jpg`,
        durationMs: 30 * 60_000,
        readyAt: new Date(),
      })
      .where(eq(replays.sessionId, session.id));
    const ready = picturePath(await liveCard(db, session.id));
    await db.update(replays).set({ visibility: 'hidden' }).where(eq(replays.sessionId, session.id));
    const hidden = picturePath(await liveCard(db, session.id));
    expect(ready).not.toBe(before);
    expect(hidden).not.toBe(ready);
    // Hidden again, it is the ended show's own picture, at its own address.
    expect(hidden).toBe(before);
  });

  it('changes when the replay is made again (a new poster under the same key)', async () => {
    const session = await endedShow();
    const db = server.ctx.db;
    const first = picturePath(await liveCard(db, session.id));
    await db
      .update(replays)
      .set({ readyAt: new Date(Date.now() + 60_000) })
      .where(eq(replays.sessionId, session.id));
    expect(picturePath(await liveCard(db, session.id))).not.toBe(first);
  });
});
