import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userProfiles } from '../../../../src/server/db/schema.js';
import { ensureStoreSlug } from '../../../../src/server/reads/store-slugs.js';
import { buildActor } from '../../../support/actors.js';
import { buildAuction, buildUser } from '../../../support/factories.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

/** A seller's page slug: given once, unique, and named in the public answers of their shows and auctions. */
describe('sellers’ page slugs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: false });
  }, 60_000);
  afterAll(async () => server?.close());

  const slugOf = async (userId: string) =>
    (await server.ctx.db.select({ slug: userProfiles.storeSlug }).from(userProfiles).where(eq(userProfiles.userId, userId)))[0]?.slug ?? null;

  it('gives two sellers of the same name `x` and `x-2`, and keeps a slug once given', async () => {
    const a = await buildUser(server.ctx.db, { roles: ['seller'] });
    const b = await buildUser(server.ctx.db, { roles: ['seller'] });
    expect(await ensureStoreSlug(server.ctx.db, a.id, 'Relojería Sofía')).toBe('relojeria-sofia');
    expect(await ensureStoreSlug(server.ctx.db, b.id, 'Relojería Sofía')).toBe('relojeria-sofia-2');
    expect(await ensureStoreSlug(server.ctx.db, a.id, 'Otro nombre')).toBe('relojeria-sofia');
  });

  it('gives a concurrent pair of sellers two different slugs, and one seller asked twice at once one slug', async () => {
    const [a, b] = [await buildUser(server.ctx.db, { roles: ['seller'] }), await buildUser(server.ctx.db, { roles: ['seller'] })];
    const pair = await Promise.all([ensureStoreSlug(server.ctx.db, a.id, 'Casa Azul'), ensureStoreSlug(server.ctx.db, b.id, 'Casa Azul')]);
    expect(pair.sort()).toEqual(['casa-azul', 'casa-azul-2']);
    const c = await buildUser(server.ctx.db, { roles: ['seller'] });
    const twice = await Promise.all([ensureStoreSlug(server.ctx.db, c.id, 'Casa Roja'), ensureStoreSlug(server.ctx.db, c.id, 'Casa Roja')]);
    expect(twice).toEqual(['casa-roja', 'casa-roja']);
    expect(await slugOf(c.id)).toBe('casa-roja');
  });

  it('gives a seller a page with their first show, named as the show’s link, and the show and its lots link to it', async () => {
    const seller = await buildActor(server, { email: 'lucia@ejemplo.mx', name: 'Lucía Méndez', roles: ['seller', 'buyer'], companyId: 'lucia' });
    expect(await slugOf(seller.id)).toBeNull();
    const created = await injectAs(server, seller, 'POST', '/api/live-sessions', {
      title: 'Relojes del viernes',
      scheduledAt: Date.now() + 3_600_000,
      sellerSlug: 'Tienda Lucía',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await slugOf(seller.id)).toBe('tienda-lucia');
    const sessionId = created.json().session.id as string;
    const publicView = await server.app.inject({ method: 'GET', url: `/api/live-sessions/${sessionId}` });
    expect(publicView.json().session.store).toEqual({ slug: 'tienda-lucia', name: 'Lucía Méndez' });
    const auction = await buildAuction(server.ctx.db, { status: 'active', endTime: new Date(Date.now() + 3_600_000), sellerId: seller.id, companyId: 'lucia' });
    const auctionView = await server.app.inject({ method: 'GET', url: `/api/auctions/${auction.id}` });
    expect(auctionView.json().store).toEqual({ slug: 'tienda-lucia', name: 'Lucía Méndez' });
    const page = await server.app.inject({ method: 'GET', url: '/api/sellers/tienda-lucia' });
    expect(page.json().upcoming.map((s: { id: string }) => s.id)).toEqual([sessionId]);
  });

  it('gives no page for a rehearsal, and names no page for a seller without one', async () => {
    const seller = await buildActor(server, { email: 'ensayo@ejemplo.mx', name: 'Solo Ensayo', roles: ['seller', 'buyer'], companyId: 'ensayos' });
    const created = await injectAs(server, seller, 'POST', '/api/live-sessions', { title: 'Práctica', scheduledAt: Date.now() + 3_600_000, rehearsal: true });
    expect(created.statusCode, created.body).toBe(201);
    expect(await slugOf(seller.id)).toBeNull();
    expect(created.json().session.store).toBeNull();
  });
});
