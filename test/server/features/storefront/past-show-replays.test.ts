import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SellerPageAnswer } from '../../../../src/domain/storefront.js';
import { replays, userProfiles } from '../../../../src/server/db/schema.js';
import { buildActor } from '../../../support/actors.js';
import { buildCompany, buildSession } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const COMPANY = 'monedas-repite';
const POSTER = randomBytes(1024);

/**
 * GET /api/sellers/{slug}: the seller's past shows say which have a replay anyone may watch (its
 * length and poster), so a buyer can watch it from the seller's page. A replay hidden, expired,
 * still being made or failed, and a rehearsal's, is not there.
 */
describe('the replays on a seller’s page', () => {
  let server: TestServer;
  let sellerId: string;
  const ids: Record<string, string> = {};

  /** An ended show of the seller's, `daysAgo`, with its replay row as the replays job leaves it (ready and public unless told). */
  async function pastShow(title: string, daysAgo: number, replay: Partial<typeof replays.$inferInsert> | null, opts: { rehearsal?: boolean } = {}) {
    const db = server.ctx.db;
    const session = await buildSession(db, {
      sellerId,
      companyId: COMPANY,
      sellerSlug: 'monedas',
      title,
      status: 'ended',
      rehearsal: opts.rehearsal ?? false,
      scheduledAt: new Date(Date.now() - daysAgo * DAY),
    });
    if (replay) {
      const posterKey = `replays/${session.id}/poster.jpg`;
      await server.ctx.storage.put(posterKey, POSTER, 'image/jpeg');
      await server.ctx.storage.put(`replays/${session.id}/replay.mp4`, randomBytes(2048), 'video/mp4');
      await db.insert(replays).values({
        sessionId: session.id,
        status: 'ready',
        progress: 100,
        videoKey: `replays/${session.id}/replay.mp4`,
        posterKey,
        durationMs: 42 * 60_000,
        chapters: [],
        readyAt: new Date(),
        expiresAt: new Date(Date.now() + 90 * DAY),
        ...replay,
      });
    }
    ids[title] = session.id;
    return session;
  }

  beforeAll(async () => {
    server = await startTestServer({ listen: false });
    const db = server.ctx.db;
    const seller = await buildActor(server, { email: 'monedas@ejemplo.mx', name: 'Mónica Monedas', roles: ['seller', 'buyer'], companyId: COMPANY });
    sellerId = seller.id;
    await buildCompany(db, { id: COMPANY });
    await db.update(userProfiles).set({ storeSlug: 'monedas-monica' }).where(eq(userProfiles.userId, sellerId));
    await pastShow('Con repetición', 1, {});
    await pastShow('Sin póster', 2, { posterKey: null });
    await pastShow('Oculta', 3, { visibility: 'hidden' });
    await pastShow('Vencida', 4, { expiresAt: new Date(Date.now() - 60_000) });
    await pastShow('Preparándose', 5, { status: 'processing', progress: 40, videoKey: null, posterKey: null, durationMs: null, readyAt: null });
    await pastShow('Falló', 6, { status: 'failed', error: 'ffmpeg', videoKey: null, posterKey: null, readyAt: null });
    await pastShow('Sin grabar', 7, null);
    await pastShow('Ensayo grabado', 8, {}, { rehearsal: true });
    ids.next = (await buildSession(db, { sellerId, companyId: COMPANY, sellerSlug: 'monedas', title: 'Próximo', scheduledAt: new Date(Date.now() + DAY) })).id;
  }, 60_000);
  afterAll(async () => server?.close());

  const page = async (): Promise<SellerPageAnswer> => {
    const res = await server.app.inject({ method: 'GET', url: '/api/sellers/monedas-monica' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('gives a past show with a public replay its length and poster', async () => {
    const answer = await page();
    const replayOf = Object.fromEntries(answer.past.map((s) => [s.title, s.replay]));
    expect(replayOf['Con repetición']).toEqual({ durationMs: 42 * 60_000, posterUrl: `/api/live-sessions/${ids['Con repetición']}/replay/poster` });
    expect(replayOf['Sin póster']).toEqual({ durationMs: 42 * 60_000, posterUrl: null });
  });

  it('leaves out a replay that is hidden, expired, still being made, failed or never recorded', async () => {
    const answer = await page();
    const withReplay = answer.past.filter((s) => s.replay !== null).map((s) => s.title);
    expect(withReplay).toEqual(['Con repetición', 'Sin póster']);
    expect(answer.past.map((s) => s.title)).toEqual(['Con repetición', 'Sin póster', 'Oculta', 'Vencida', 'Preparándose', 'Falló', 'Sin grabar']);
  });

  it('never lists a rehearsal, recorded or not', async () => {
    expect(JSON.stringify(await page())).not.toContain('Ensayo');
  });

  it('has no replay on a show still to come', async () => {
    const answer = await page();
    expect(answer.upcoming.map((s) => [s.id, s.replay])).toEqual([[ids.next, null]]);
  });

  it('names a poster anyone may load: the replay’s own', async () => {
    const posterUrl = (await page()).past[0]?.replay?.posterUrl ?? '';
    const res = await server.app.inject({ method: 'GET', url: posterUrl });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(POSTER)).toBe(true);
  });

  it('drops the replay as soon as its seller hides it', async () => {
    const id = ids['Sin póster'] ?? '';
    await server.ctx.db.update(replays).set({ visibility: 'hidden' }).where(eq(replays.sessionId, id));
    const answer = await page();
    expect(answer.past.find((s) => s.id === id)?.replay).toBeNull();
    await server.ctx.db.update(replays).set({ visibility: 'public' }).where(eq(replays.sessionId, id));
  });
});
