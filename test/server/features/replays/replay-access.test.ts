import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayChapter } from '../../../../src/domain/replays.js';
import { auditLog, replayClips, replays } from '../../../../src/server/db/schema.js';
import { createClipSigner } from '../../../../src/server/features/replays/signed-urls.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildSession } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * Who may see a show's replay and a sold lot's clip, and change the replay: the replay is
 * everyone's once ready and public; its seller, its company's admins and platform admins also see
 * it hidden or failed and may hide, delete or retry it; a clip opens for its winner, its seller and
 * its company's admins only, through a signed address that expires. The files are served with
 * HTTP Range. (Making the replay is the replays job's; here its rows are written as it leaves them.)
 */

const COMPANY = 'repeticiones';
let server: TestServer;
let work = '';
let seller: Actor;
let coSeller: Actor;
let companyAdmin: Actor;
let platform: Actor;
let otherAdmin: Actor;
let winner: Actor;
let buyer: Actor;
const call = caller(() => server);
const VIDEO = randomBytes(64 * 1024);
const POSTER = randomBytes(2048);

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  work = await mkdtemp(path.join(tmpdir(), 'martillo-replays-'));
  await writeFile(path.join(work, 'replay.mp4'), VIDEO);
  await writeFile(path.join(work, 'poster.jpg'), POSTER);
  seller = await buildActor(server, { email: 'vende@repite.mx', name: 'Rita Vendedora', roles: ['seller'], companyId: COMPANY });
  coSeller = await buildActor(server, { email: 'otra@repite.mx', name: 'Olga Colega', roles: ['seller'], companyId: COMPANY });
  companyAdmin = await buildActor(server, { email: 'jefa@repite.mx', name: 'Rosa Jefa', roles: ['admin'], companyId: COMPANY });
  platform = await buildActor(server, { email: 'plataforma@martillo.mx', name: 'Pablo Plataforma', roles: ['admin'], companyId: null });
  otherAdmin = await buildActor(server, { email: 'jefe@otra.mx', name: 'Omar Otro', roles: ['admin'], companyId: 'otra-tienda' });
  winner = await buildActor(server, { email: 'gana@ejemplo.mx', name: 'Gabriela Ganadora', roles: ['buyer'], completeProfile: true });
  buyer = await buildActor(server, { email: 'mira@ejemplo.mx', name: 'Mario Mirón', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const CHAPTERS: ReplayChapter[] = [
  { auctionId: randomUUID(), name: 'Reloj Seiko', imageUrl: null, startMs: 0, endMs: 61_000, result: 'sold', price: 1250 },
  { auctionId: randomUUID(), name: 'Cámara Zenit', imageUrl: null, startMs: 61_000, endMs: 90_000, result: 'unsold', price: null },
];

/** A show of the company's with its replay row as the job leaves it, and the files in storage when ready. */
async function showWithReplay(over: Partial<typeof replays.$inferInsert> = {}, opts: { rehearsal?: boolean } = {}) {
  const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'ended', rehearsal: opts.rehearsal ?? false });
  const videoKey = `replays/${session.id}/replay.mp4`;
  const posterKey = `replays/${session.id}/poster.jpg`;
  const ready = (over.status ?? 'ready') === 'ready';
  if (ready) {
    await server.ctx.storage.putFile(videoKey, path.join(work, 'replay.mp4'), 'video/mp4');
    await server.ctx.storage.putFile(posterKey, path.join(work, 'poster.jpg'), 'image/jpeg');
  }
  await server.ctx.db.insert(replays).values({
    sessionId: session.id,
    status: 'ready',
    progress: ready ? 100 : 0,
    ...(ready ? { videoKey, posterKey, durationMs: 90_000, chapters: CHAPTERS, readyAt: new Date() } : {}),
    ...over,
  });
  return { session, videoKey, posterKey };
}

const replayOf = async (who: Actor | null, sessionId: string) => {
  const res = await call(who, 'GET', `/api/live-sessions/${sessionId}/replay`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('a show’s replay', () => {
  it('is everyone’s once ready and public: its video, poster, duration and a chapter per lot', async () => {
    const { session } = await showWithReplay();
    for (const who of [null, buyer, coSeller]) {
      expect(await replayOf(who, session.id)).toEqual({
        status: 'ready',
        progress: 100,
        url: `/api/live-sessions/${session.id}/replay/video`,
        durationMs: 90_000,
        posterUrl: `/api/live-sessions/${session.id}/replay/poster`,
        chapters: CHAPTERS,
      });
    }
    expect(await replayOf(seller, session.id)).toMatchObject({ status: 'ready', visibility: 'public', error: null });
    const video = await call(null, 'GET', `/api/live-sessions/${session.id}/replay/video`);
    expect(video.statusCode).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
    expect(video.headers['accept-ranges']).toBe('bytes');
    expect(video.headers['cache-control']).toContain('public');
    expect(video.rawPayload.equals(VIDEO)).toBe(true);
    const poster = await call(null, 'GET', `/api/live-sessions/${session.id}/replay/poster`);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect(poster.rawPayload.equals(POSTER)).toBe(true);
  });

  it('is nobody’s once past its days, its seller’s included, even before the retention job deletes it', async () => {
    const { session } = await showWithReplay({ expiresAt: new Date(Date.now() - 1000) });
    for (const who of [null, buyer, seller, platform]) {
      expect((await replayOf(who, session.id)).status).toBe('none');
      expect((await call(who, 'GET', `/api/live-sessions/${session.id}/replay/video`)).statusCode).toBe(404);
      expect((await call(who, 'GET', `/api/live-sessions/${session.id}/replay/poster`)).statusCode).toBe(404);
    }
  });

  it('serves the bytes a player asks for (206), the last ones, and the whole file for several ranges at once', async () => {
    const { session } = await showWithReplay();
    const url = `/api/live-sessions/${session.id}/replay/video`;
    const first = await call(null, 'GET', url, undefined, { range: 'bytes=0-99' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-99/${VIDEO.length}`);
    expect(first.headers['content-length']).toBe('100');
    expect(first.rawPayload.equals(VIDEO.subarray(0, 100))).toBe(true);
    const middle = await call(null, 'GET', url, undefined, { range: 'bytes=30000-' });
    expect(middle.statusCode).toBe(206);
    expect(middle.rawPayload.equals(VIDEO.subarray(30_000))).toBe(true);
    const last = await call(null, 'GET', url, undefined, { range: 'bytes=-10' });
    expect(last.headers['content-range']).toBe(`bytes ${VIDEO.length - 10}-${VIDEO.length - 1}/${VIDEO.length}`);
    expect(last.rawPayload.equals(VIDEO.subarray(VIDEO.length - 10))).toBe(true);
    const beyond = await call(null, 'GET', url, undefined, { range: `bytes=100-${VIDEO.length + 5000}` });
    expect(beyond.statusCode).toBe(206);
    expect(beyond.headers['content-range']).toBe(`bytes 100-${VIDEO.length - 1}/${VIDEO.length}`);
    const several = await call(null, 'GET', url, undefined, { range: 'bytes=0-9,20-29' });
    expect(several.statusCode).toBe(200);
    expect(several.rawPayload.length).toBe(VIDEO.length);
  });

  it.each([[`bytes=999999999-`], ['bytes=abc'], ['bytes=50-10'], ['items=0-10'], ['bytes=-0']])(
    'answers a Range of %s with 416, the file’s size and a Spanish message',
    async (range) => {
      const { session } = await showWithReplay();
      const res = await call(null, 'GET', `/api/live-sessions/${session.id}/replay/video`, undefined, { range });
      expect(res.statusCode).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${VIDEO.length}`);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json().error.message).toBe(messages.replays.rangeInvalid);
    },
  );

  it('is hidden from everyone but its editors, who still watch it, privately', async () => {
    const { session } = await showWithReplay({ visibility: 'hidden' });
    for (const who of [null, buyer, coSeller, otherAdmin]) {
      expect(await replayOf(who, session.id)).toMatchObject({ status: 'none', url: null, chapters: [] });
      expect((await call(who, 'GET', `/api/live-sessions/${session.id}/replay/video`)).statusCode).toBe(404);
      expect((await call(who, 'GET', `/api/live-sessions/${session.id}/replay/poster`)).statusCode).toBe(404);
    }
    for (const who of [seller, companyAdmin, platform]) {
      expect(await replayOf(who, session.id)).toMatchObject({ status: 'hidden', visibility: 'hidden', chapters: CHAPTERS });
      const video = await call(who, 'GET', `/api/live-sessions/${session.id}/replay/video`, undefined, { range: 'bytes=0-0' });
      expect(video.statusCode).toBe(206);
      expect(video.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('is never published for a rehearsal', async () => {
    const { session } = await showWithReplay({}, { rehearsal: true });
    expect(await replayOf(null, session.id)).toMatchObject({ status: 'none' });
    expect((await call(buyer, 'GET', `/api/live-sessions/${session.id}/replay/video`)).statusCode).toBe(404);
    expect(await replayOf(seller, session.id)).toMatchObject({ status: 'ready' });
  });

  it('says it is coming while it is recorded or made, with its progress, and shows a failure’s reason to its editors only', async () => {
    const { session: recording } = await showWithReplay({ status: 'recording' });
    expect(await replayOf(null, recording.id)).toEqual({ status: 'recording', progress: 0, url: null, durationMs: null, posterUrl: null, chapters: [] });
    const { session: making } = await showWithReplay({ status: 'processing', progress: 40 });
    expect(await replayOf(buyer, making.id)).toMatchObject({ status: 'processing', progress: 40, url: null });
    expect((await call(buyer, 'GET', `/api/live-sessions/${making.id}/replay/video`)).statusCode).toBe(404);
    const { session: failed } = await showWithReplay({ status: 'failed', progress: 35, error: 'ffmpeg terminó con el código 1' });
    expect(await replayOf(null, failed.id)).toMatchObject({ status: 'none' });
    expect(await replayOf(companyAdmin, failed.id)).toMatchObject({ status: 'failed', progress: 35, error: 'ffmpeg terminó con el código 1' });
  });

  it('answers none for a show that was not recorded, and 404 for a missing or malformed show', async () => {
    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'ended' });
    expect(await replayOf(null, session.id)).toMatchObject({ status: 'none' });
    for (const id of [randomUUID(), 'no-es-un-id', '..%2F..%2Fetc%2Fpasswd']) {
      const res = await call(null, 'GET', `/api/live-sessions/${id}/replay`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(messages.live.sessionNotFound);
      expect((await call(null, 'GET', `/api/live-sessions/${id}/replay/video`)).statusCode).toBe(404);
    }
  });
});

describe('hiding, deleting and retrying a replay', () => {
  it('lets its seller, its company’s admins and platform admins hide it and show it again, audited; anyone else is answered 404 or 401', async () => {
    const { session } = await showWithReplay();
    const url = `/api/live-sessions/${session.id}/replay`;
    expect((await call(null, 'PUT', url, { visibility: 'hidden' })).statusCode).toBe(401);
    for (const who of [buyer, coSeller, otherAdmin]) {
      const res = await call(who, 'PUT', url, { visibility: 'hidden' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(messages.live.sessionNotFound);
    }
    expect(await replayOf(null, session.id)).toMatchObject({ status: 'ready' });
    for (const who of [seller, companyAdmin, platform]) {
      const hidden = await call(who, 'PUT', url, { visibility: 'hidden' });
      expect(hidden.statusCode, hidden.body).toBe(200);
      expect(hidden.json()).toMatchObject({ status: 'hidden', visibility: 'hidden' });
      expect(await replayOf(null, session.id)).toMatchObject({ status: 'none' });
      expect((await call(who, 'PUT', url, { visibility: 'public' })).json()).toMatchObject({ status: 'ready', visibility: 'public' });
    }
    const audits = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'replay.visibility'), eq(auditLog.entityId, session.id)));
    expect(audits).toHaveLength(6);
  });

  const VISIBILITY = messages.replays.fields.visibilityInvalid;
  it.each([
    ['an unknown visibility', { visibility: 'privada' }, 400, VISIBILITY],
    ['no visibility', {}, 400, VISIBILITY],
    ['a long string', { visibility: 'x'.repeat(500) }, 400, VISIBILITY],
    ['an unknown field', { visibility: 'hidden', extra: 1 }, 400, null],
    ['a huge body', { visibility: 'x'.repeat(5000) }, 413, null],
  ])('refuses %s with a Spanish message and changes nothing', async (_label, body, status, field) => {
    const { session } = await showWithReplay();
    const res = await call(seller, 'PUT', `/api/live-sessions/${session.id}/replay`, body);
    expect(res.statusCode).toBe(status);
    expect(res.json().error.message).toBe(status === 413 ? messages.errors.payloadTooLarge : messages.errors.validation);
    if (field) expect(res.json().error.fields.visibility).toBe(field);
    expect(await replayOf(null, session.id)).toMatchObject({ status: 'ready' });
  });

  it('deletes the video and poster from storage with the row, audited; never while the show is recorded', async () => {
    const { session, videoKey, posterKey } = await showWithReplay();
    const url = `/api/live-sessions/${session.id}/replay`;
    expect((await call(buyer, 'DELETE', url)).statusCode).toBe(404);
    expect(await server.ctx.storage.stat(videoKey)).not.toBeNull();
    expect((await call(seller, 'DELETE', url)).statusCode).toBe(204);
    expect(await server.ctx.storage.stat(videoKey)).toBeNull();
    expect(await server.ctx.storage.stat(posterKey)).toBeNull();
    expect(await replayOf(seller, session.id)).toMatchObject({ status: 'none' });
    const again = await call(seller, 'DELETE', url);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(messages.replays.notFound);
    const [audit] = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'replay.delete'), eq(auditLog.entityId, session.id)));
    expect(audit?.before).toMatchObject({ status: 'ready', visibility: 'public', durationMs: 90_000 });

    const { session: live } = await showWithReplay({ status: 'recording' });
    const refused = await call(seller, 'DELETE', `/api/live-sessions/${live.id}/replay`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(messages.replays.stillRecording);
  });

  it('makes a failed replay again on Reintentar, for its editors only, and refuses one that did not fail', async () => {
    const { session } = await showWithReplay({ status: 'failed', progress: 60, error: 'sin espacio en disco', attempts: 1 });
    const url = `/api/live-sessions/${session.id}/replay/retry`;
    expect((await call(null, 'POST', url)).statusCode).toBe(401);
    expect((await call(buyer, 'POST', url)).statusCode).toBe(404);
    const retried = await call(seller, 'POST', url);
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.json()).toMatchObject({ status: 'processing', progress: 0, error: null });
    const again = await call(companyAdmin, 'POST', url);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(messages.replays.notFailed);
  });
});

describe('a sold lot’s clip', () => {
  async function soldWithClip(over: Partial<typeof replayClips.$inferInsert> = {}) {
    const { session } = await showWithReplay();
    const auction = await buildAuction(server.ctx.db, {
      companyId: COMPANY,
      sellerId: seller.id,
      status: 'ended',
      currentWinnerId: winner.id,
      currentPrice: 1250,
    });
    const videoKey = `clips/${auction.id}.mp4`;
    await server.ctx.storage.putFile(videoKey, path.join(work, 'replay.mp4'), 'video/mp4');
    await server.ctx.db.insert(replayClips).values({
      auctionId: auction.id,
      sessionId: session.id,
      status: 'ready',
      videoKey,
      startMs: 0,
      endMs: 61_000,
      durationMs: 61_000,
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
      ...over,
    });
    return auction;
  }

  it('opens for its winner, its seller and its company’s admins through a signed address that works without a session', async () => {
    const auction = await soldWithClip();
    for (const who of [winner, seller, companyAdmin]) {
      const res = await call(who, 'GET', `/api/auctions/${auction.id}/clip`);
      expect(res.statusCode, res.body).toBe(200);
      const clip = res.json() as { url: string; durationMs: number; expiresAt: number };
      expect(clip.durationMs).toBe(61_000);
      expect(clip.expiresAt).toBeGreaterThan(Date.now());
      expect(clip.url).toMatch(new RegExp(`^/api/auctions/${auction.id}/clip/video\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`));
      const video = await call(null, 'GET', clip.url, undefined, { range: 'bytes=0-1023' });
      expect(video.statusCode).toBe(206);
      expect(video.headers['cache-control']).toBe('private, no-store');
      expect(video.rawPayload.equals(VIDEO.subarray(0, 1024))).toBe(true);
    }
  });

  it('is 404 for anyone else, platform admins included, as for a lot with no clip', async () => {
    const auction = await soldWithClip();
    for (const who of [null, buyer, coSeller, otherAdmin, platform]) {
      const res = await call(who, 'GET', `/api/auctions/${auction.id}/clip`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(messages.replays.clipNotFound);
    }
    for (const id of [randomUUID(), 'nada']) expect((await call(winner, 'GET', `/api/auctions/${id}/clip`)).statusCode).toBe(404);
  });

  it('refuses a forged address (403) and an expired one (410), and finds nothing once the clip expired', async () => {
    const auction = await soldWithClip();
    const { url } = (await call(winner, 'GET', `/api/auctions/${auction.id}/clip`)).json() as { url: string };
    const other = await soldWithClip();
    const forgeries = [
      url.replace(auction.id, other.id),
      url.replace(/expires=(\d+)/, (_m, n) => `expires=${Number(n) + 3600}`),
      url.replace(/signature=[^&]+/, `signature=${'A'.repeat(43)}`),
      url.replace(/&signature=[^&]+/, ''),
      `/api/auctions/${auction.id}/clip/video`,
      `/api/auctions/..%2F..%2Fclips%2F${auction.id}/clip/video?expires=1&signature=x`,
    ];
    for (const forged of forgeries) {
      const res = await call(null, 'GET', forged);
      expect(res.statusCode, forged).toBe(403);
      expect(res.json().error.message).toBe(messages.replays.linkForged);
    }
    const stale = createClipSigner(server.ctx.config.sessionSecret).sign(auction.id, Date.now() - 2 * 3600_000);
    const expired = await call(null, 'GET', stale.url);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.message).toBe(messages.replays.linkExpired);

    const gone = await soldWithClip({ expiresAt: new Date(Date.now() - 1000) });
    expect((await call(winner, 'GET', `/api/auctions/${gone.id}/clip`)).statusCode).toBe(404);
    const signed = createClipSigner(server.ctx.config.sessionSecret).sign(gone.id);
    expect((await call(null, 'GET', signed.url)).statusCode).toBe(404);
  });
});
