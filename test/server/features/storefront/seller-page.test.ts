import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SellerPageAnswer } from '../../../../src/domain/storefront.js';
import { companies, sellerFollows, userProfiles } from '../../../../src/server/db/schema.js';
import { buildActor } from '../../../support/actors.js';
import { buildAuction, buildCompany, buildLot, buildSession, buildUser, buildWonAuction } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

const HOUR = 3_600_000;

/** GET /api/sellers/{slug}: a seller's page, for anyone. */
describe('a seller’s page', () => {
  let server: TestServer;
  let sellerId: string;
  let oldTimerId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ listen: false });
    const db = server.ctx.db;
    const seller = await buildActor(server, { email: 'sofia@ejemplo.mx', name: 'Sofía Ruiz', roles: ['seller', 'buyer'], companyId: 'antiguedades' });
    sellerId = seller.id;
    await buildCompany(db, { id: 'antiguedades' });
    await db.update(companies).set({ name: 'Antigüedades Sofía' }).where(eq(companies.id, 'antiguedades'));
    await db.update(userProfiles).set({ storeSlug: 'antiguedades-sofia', city: 'Guadalajara' }).where(eq(userProfiles.userId, sellerId));
    const mine = { sellerId, companyId: 'antiguedades', sellerSlug: 'antiguedades' };
    ids.live = (await buildSession(db, { ...mine, title: 'Ahora', status: 'live' })).id;
    ids.next = (await buildSession(db, { ...mine, title: 'El viernes', scheduledAt: new Date(Date.now() + 24 * HOUR) })).id;
    const past = await buildSession(db, { ...mine, title: 'La semana pasada', status: 'ended', scheduledAt: new Date(Date.now() - 7 * 24 * HOUR) });
    ids.past = past.id;
    await buildLot(db, { sessionId: past.id, auctionId: (await buildWonAuction(db, { price: 700, sellerId, companyId: 'antiguedades' })).id });
    await buildLot(db, {
      sessionId: past.id,
      auctionId: (await buildAuction(db, { name: 'Sin vender', status: 'ended', sellerId, companyId: 'antiguedades' })).id,
      onBlock: true,
    });
    await buildSession(db, { ...mine, title: 'Ensayo', status: 'live', rehearsal: true });
    await buildSession(db, { ...mine, title: 'Ensayo terminado', status: 'ended', rehearsal: true });
    ids.open = (
      await buildAuction(db, {
        name: 'Espejo francés',
        status: 'active',
        endTime: new Date(Date.now() + HOUR),
        startingPrice: 900,
        sellerId,
        companyId: 'antiguedades',
      })
    ).id;
    await buildAuction(db, { name: 'Borrador', status: 'pending', sellerId, companyId: 'antiguedades' });
    // Three followers, straight in the table.
    for (let i = 0; i < 3; i++) await db.insert(sellerFollows).values({ followerId: (await buildUser(db)).id, sellerId });
    // A seller from before the pages: no store slug, found by an older show's link.
    const oldTimer = await buildUser(db, { roles: ['seller', 'buyer'], companyId: 'relojeria' });
    oldTimerId = oldTimer.id;
    await buildSession(db, { title: 'Relojes', sellerId: oldTimer.id, companyId: 'relojeria', sellerSlug: 'relojes-don-juan', status: 'ended' });
  }, 60_000);
  afterAll(async () => server?.close());

  const page = async (slug: string, cookie?: string): Promise<SellerPageAnswer> => {
    const res = await server.app.inject({ method: 'GET', url: `/api/sellers/${slug}`, ...(cookie ? { headers: { cookie } } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('answers the seller, a count of followers, and their shows and open auctions', async () => {
    const answer = await page('antiguedades-sofia');
    expect(answer.seller).toEqual({
      id: sellerId,
      slug: 'antiguedades-sofia',
      name: 'Sofía Ruiz',
      companyName: 'Antigüedades Sofía',
      city: 'Guadalajara',
      followers: 3,
      following: false,
    });
    expect(answer.live.map((s) => s.id)).toEqual([ids.live]);
    expect(answer.upcoming.map((s) => s.id)).toEqual([ids.next]);
    expect(answer.past.map((s) => s.id)).toEqual([ids.past]);
    expect(answer.past[0]).toMatchObject({ lotCount: 2, soldCount: 1, status: 'ended', sellerSlug: 'antiguedades-sofia' });
    expect(answer.auctions).toEqual([expect.objectContaining({ id: ids.open, name: 'Espejo francés', price: 900, url: `/auctions/${ids.open}` })]);
  });

  it('says whether the signed-in viewer follows the seller', async () => {
    const buyer = await buildActor(server, { email: 'fan@ejemplo.mx', name: 'Fan', roles: ['buyer'] });
    expect((await page('antiguedades-sofia', buyer.cookie)).seller.following).toBe(false);
    await server.ctx.db.insert(sellerFollows).values({ followerId: buyer.id, sellerId });
    const answer = await page('antiguedades-sofia', buyer.cookie);
    expect(answer.seller).toMatchObject({ following: true, followers: 4 });
  });

  it('finds a seller without a page slug by an older show’s link', async () => {
    const answer = await page('relojes-don-juan');
    expect(answer.seller).toMatchObject({ id: oldTimerId, slug: 'relojes-don-juan', followers: 0 });
    expect(answer.past.map((s) => s.title)).toEqual(['Relojes']);
  });

  it('answers 404 in Spanish for an unknown seller, and 400 for an absurd slug', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/sellers/nadie-se-llama-asi' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('No encontramos esa tienda. Revisa el enlace o busca al vendedor desde el inicio.');
    const long = await server.app.inject({ method: 'GET', url: `/api/sellers/${'x'.repeat(300)}` });
    expect(long.statusCode).toBeGreaterThanOrEqual(400);
    expect(long.statusCode).toBeLessThan(500);
  });

  it('never shows an e-mail, a rehearsal or a draft', async () => {
    const body = JSON.stringify(await page('antiguedades-sofia'));
    expect(body).not.toMatch(/@/);
    expect(body).not.toContain('Ensayo');
    expect(body).not.toContain('Borrador');
  });

  it('never names the seller by an e-mail, even one typed as a display name', async () => {
    await server.ctx.db
      .update(userProfiles)
      .set({ displayName: 'sofia@ejemplo.mx', firstName: 'Sofía', lastName: null })
      .where(eq(userProfiles.userId, sellerId));
    const answer = await page('antiguedades-sofia');
    expect(answer.seller.name).toBe('Sofía');
  });
});
