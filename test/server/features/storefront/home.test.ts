import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeAnswer, StorefrontShow } from '../../../../src/domain/storefront.js';
import { liveSessions, sessionReminders, userProfiles } from '../../../../src/server/db/schema.js';
import { buildActor, buildCategory, buildUpload } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSeller, buildSession } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

const HOUR = 3_600_000;

/** GET /api/home: the buyers' home, for anyone. */
describe('the buyers’ home', () => {
  let server: TestServer;
  let relojes: string;
  let juguetes: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ listen: false });
    const db = server.ctx.db;
    relojes = await buildCategory(server, 'Relojes');
    juguetes = await buildCategory(server, 'Juguetes');
    await buildCategory(server, 'Vacía');
    const seller = await buildSeller(db, { companyId: 'relojeria' });
    await db.update(userProfiles).set({ storeSlug: 'relojeria-sofia', displayName: 'Sofía Ruiz' }).where(eq(userProfiles.userId, seller.id));
    const photo = await buildUpload(server, { ownerId: seller.id, companyId: 'relojeria', name: 'seiko' });

    // Two live shows: the quiet one started first, the busy one later.
    const quiet = await buildSession(db, {
      title: 'Show tranquilo',
      status: 'live',
      sellerId: seller.id,
      companyId: 'relojeria',
      sellerSlug: 'relojeria',
      scheduledAt: new Date(Date.now() - 2 * HOUR),
    });
    const busy = await buildSession(db, {
      title: 'Show lleno',
      status: 'live',
      sellerId: seller.id,
      companyId: 'relojeria',
      sellerSlug: 'relojeria',
      scheduledAt: new Date(Date.now() - HOUR),
    });
    ids.quiet = quiet.id;
    ids.busy = busy.id;
    const onBlock = await buildAuction(db, {
      name: 'Relój Seiko',
      images: [photo],
      startingPrice: 800,
      currentPrice: 950,
      status: 'live',
      categoryId: relojes,
      sellerId: seller.id,
      companyId: 'relojeria',
    });
    const current = await buildLot(db, { sessionId: busy.id, auctionId: onBlock.id, onBlock: true });
    await db.update(liveSessions).set({ currentLotId: current.id }).where(eq(liveSessions.id, busy.id));
    for (let i = 1; i <= 5; i++)
      await buildLot(db, {
        sessionId: busy.id,
        auctionId: (
          await buildAuction(db, {
            name: `Lote ${i}`,
            startingPrice: 100 * i,
            status: 'pending',
            categoryId: juguetes,
            sellerId: seller.id,
            companyId: 'relojeria',
          })
        ).id,
      });
    server.ctx.realtime.setSimulatedViewers(busy.id, 40);
    server.ctx.realtime.setSimulatedViewers(quiet.id, 3);

    // Scheduled: tomorrow, in an hour, one late by an hour (still listed), one late by a day (not), and one without lots.
    const tomorrow = await buildSession(db, { title: 'Mañana', sellerId: seller.id, companyId: 'relojeria', scheduledAt: new Date(Date.now() + 24 * HOUR) });
    const soon = await buildSession(db, { title: 'En una hora', sellerId: seller.id, companyId: 'relojeria', scheduledAt: new Date(Date.now() + HOUR) });
    const late = await buildSession(db, { title: 'Retrasado', sellerId: seller.id, companyId: 'relojeria', scheduledAt: new Date(Date.now() - HOUR) });
    await buildSession(db, { title: 'Olvidado', sellerId: seller.id, companyId: 'relojeria', scheduledAt: new Date(Date.now() - 24 * HOUR) });
    ids.tomorrow = tomorrow.id;
    ids.soon = soon.id;
    ids.late = late.id;
    await buildLot(db, {
      sessionId: soon.id,
      auctionId: (
        await buildAuction(db, {
          name: 'Reloj de bolsillo',
          images: [photo],
          startingPrice: 300,
          status: 'pending',
          categoryId: relojes,
          sellerId: seller.id,
          companyId: 'relojeria',
        })
      ).id,
    });

    // Never on the home: a rehearsal (live and scheduled), an ended show, and a draft auction's category.
    ids.rehearsal = (await buildSession(db, { title: 'Ensayo', status: 'live', rehearsal: true, sellerId: seller.id, companyId: 'relojeria' })).id;
    ids.rehearsalLater = (
      await buildSession(db, { title: 'Ensayo futuro', rehearsal: true, sellerId: seller.id, companyId: 'relojeria', scheduledAt: new Date(Date.now() + HOUR) })
    ).id;
    ids.ended = (await buildSession(db, { title: 'Terminado', status: 'ended', sellerId: seller.id, companyId: 'relojeria' })).id;
    // A draft auction's category is not offered; an open auction's is.
    const drafts = await buildCategory(server, 'Borradores');
    await buildAuction(db, { name: 'Borrador', status: 'pending', categoryId: drafts, sellerId: seller.id, companyId: 'relojeria' });
    const camaras = await buildCategory(server, 'Cámaras');
    await buildAuction(db, {
      name: 'Cámara Canon',
      status: 'active',
      endTime: new Date(Date.now() + HOUR),
      categoryId: camaras,
      sellerId: seller.id,
      companyId: 'relojeria',
    });
  }, 60_000);
  afterAll(async () => server?.close());

  const home = async (query = '', cookie?: string): Promise<HomeAnswer> => {
    const res = await server.app.inject({ method: 'GET', url: `/api/home${query}`, ...(cookie ? { headers: { cookie } } : {}) });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const titles = (shows: StorefrontShow[]) => shows.map((s) => s.title);

  it('lists the live shows busiest first, with the lot on the block and the next lots', async () => {
    const answer = await home();
    expect(titles(answer.live)).toEqual(['Show lleno', 'Show tranquilo']);
    const busy = answer.live[0] as StorefrontShow;
    expect(busy).toMatchObject({
      id: ids.busy,
      url: `/live/relojeria/${ids.busy}`,
      sellerName: 'Empresa relojeria',
      sellerSlug: 'relojeria-sofia',
      status: 'live',
      viewerCount: 40,
      currentLot: { name: 'Relój Seiko', price: 950, imageUrl: '/uploads/images/test/seiko-thumb.jpg' },
    });
    expect(busy.lots.map((l) => l.name)).toEqual(['Lote 1', 'Lote 2', 'Lote 3', 'Lote 4']);
    expect(busy.lots[0]?.startingPrice).toBe(100);
    expect(busy.categoryIds).toEqual([relojes, juguetes].sort());
  });

  it('lists the scheduled shows soonest first, a late one still, one with no lots too', async () => {
    const answer = await home();
    expect(titles(answer.upcoming)).toEqual(['Retrasado', 'En una hora', 'Mañana']);
    const soon = answer.upcoming.find((s) => s.id === ids.soon);
    expect(soon?.lots).toEqual([expect.objectContaining({ name: 'Reloj de bolsillo', startingPrice: 300, imageUrl: '/uploads/images/test/seiko-thumb.jpg' })]);
    expect(answer.upcoming.find((s) => s.id === ids.tomorrow)?.lots).toEqual([]);
    expect(answer.upcoming.every((s) => s.reminded === false && s.currentLot === null)).toBe(true);
  });

  it('never shows a rehearsal, an ended show, or a show long past its time', async () => {
    const answer = await home();
    const all = [...answer.live, ...answer.upcoming].map((s) => s.id);
    for (const hidden of [ids.rehearsal, ids.rehearsalLater, ids.ended]) expect(all).not.toContain(hidden);
    expect(titles(answer.upcoming)).not.toContain('Olvidado');
  });

  it('offers only the categories with something for sale', async () => {
    const answer = await home();
    expect(answer.categories.map((c) => c.name)).toEqual(['Cámaras', 'Juguetes', 'Relojes']);
  });

  it('filters both lists by category', async () => {
    const answer = await home(`?categoryId=${juguetes}`);
    expect(titles(answer.live)).toEqual(['Show lleno']);
    expect(answer.upcoming).toEqual([]);
    expect(answer.categories.map((c) => c.name)).toEqual(['Cámaras', 'Juguetes', 'Relojes']);
    const byRelojes = await home(`?categoryId=${relojes}`);
    expect(titles(byRelojes.upcoming)).toEqual(['En una hora']);
  });

  it('refuses a malformed category in Spanish', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/home?categoryId=nada' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.categoryId).toBe('La categoría no es válida.');
  });

  it('tells a signed-in buyer which shows they asked to be told about', async () => {
    const buyer = await buildActor(server, { email: 'compradora@ejemplo.mx', name: 'Compradora', roles: ['buyer'] });
    await server.ctx.db.insert(sessionReminders).values({ userId: buyer.id, sessionId: ids.soon as string });
    const answer = await home('', buyer.cookie);
    expect(answer.upcoming.filter((s) => s.reminded).map((s) => s.id)).toEqual([ids.soon]);
  });

  it('carries no e-mail anywhere', async () => {
    const body = JSON.stringify(await home());
    expect(body).not.toMatch(/@/);
  });
});
