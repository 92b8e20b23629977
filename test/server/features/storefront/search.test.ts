import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchItem } from '../../../../src/domain/storefront.js';
import { liveSessions } from '../../../../src/server/db/schema.js';
import { prefixQuery } from '../../../../src/server/features/storefront/queries.js';
import { buildCategory } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSeller, buildSession } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

const HOUR = 3_600_000;

/** GET /api/search: what is for sale, by name and description, Spanish-aware and accent-insensitive. */
describe('searching what is for sale', () => {
  let server: TestServer;
  let relojes: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ listen: false });
    const db = server.ctx.db;
    relojes = await buildCategory(server, 'Relojes');
    const otros = await buildCategory(server, 'Otros');
    const seller = await buildSeller(db, { companyId: 'relojeria' });
    const mine = { sellerId: seller.id, companyId: 'relojeria' };
    const live = await buildSession(db, { ...mine, title: 'En vivo', status: 'live', sellerSlug: 'relojeria', scheduledAt: new Date(Date.now() - HOUR) });
    const later = await buildSession(db, { ...mine, title: 'Mañana', sellerSlug: 'relojeria', scheduledAt: new Date(Date.now() + 24 * HOUR) });
    ids.live = live.id;
    ids.later = later.id;
    // A lot on the block of the live show, a lot of tomorrow's show, and an open auction on its own.
    ids.seiko = (
      await buildAuction(db, {
        ...mine,
        name: 'Relój Seiko',
        description: 'Automático, 1978',
        status: 'live',
        startingPrice: 800,
        currentPrice: 950,
        categoryId: relojes,
      })
    ).id;
    await buildLot(db, { sessionId: live.id, auctionId: ids.seiko });
    ids.casio = (
      await buildAuction(db, { ...mine, name: 'Reloj Casio', description: 'Calculadora', status: 'pending', startingPrice: 200, categoryId: relojes })
    ).id;
    await buildLot(db, { sessionId: later.id, auctionId: ids.casio });
    ids.bici = (
      await buildAuction(db, {
        ...mine,
        name: 'Bicicleta de ruta',
        description: 'Relojes no incluidos',
        status: 'active',
        endTime: new Date(Date.now() + 2 * HOUR),
        startingPrice: 3000,
        categoryId: otros,
      })
    ).id;
    // Never found: a draft, an ended auction, a sold lot of the live show, a lot of a rehearsal, a lot of an ended show.
    await buildAuction(db, { ...mine, name: 'Reloj borrador', status: 'pending' });
    await buildAuction(db, { ...mine, name: 'Reloj vendido', status: 'ended', endTime: new Date(Date.now() - HOUR) });
    const sold = await buildAuction(db, { ...mine, name: 'Reloj ya subastado', status: 'ended', endTime: new Date(Date.now() - 60_000) });
    await buildLot(db, { sessionId: live.id, auctionId: sold.id, status: 'finished' });
    const rehearsal = await buildSession(db, { ...mine, title: 'Ensayo', status: 'live', rehearsal: true });
    await buildLot(db, { sessionId: rehearsal.id, auctionId: (await buildAuction(db, { ...mine, name: 'Reloj de ensayo', status: 'live' })).id });
    const ended = await buildSession(db, { ...mine, title: 'Ayer', status: 'ended' });
    await buildLot(db, { sessionId: ended.id, auctionId: (await buildAuction(db, { ...mine, name: 'Reloj de ayer', status: 'pending' })).id });
  }, 60_000);
  afterAll(async () => server?.close());

  const search = async (query: string): Promise<SearchItem[]> => {
    const res = await server.app.inject({ method: 'GET', url: `/api/search?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items;
  };
  const names = (items: SearchItem[]) => items.map((i) => i.name);

  it('finds "Relój Seiko" by "reloj", the live show’s lot first, then the next show’s, then the auction', async () => {
    const items = await search('q=reloj');
    expect(names(items)).toEqual(['Relój Seiko', 'Reloj Casio', 'Bicicleta de ruta']);
    expect(items[0]).toEqual({
      kind: 'lot',
      auctionId: ids.seiko,
      sessionId: ids.live,
      name: 'Relój Seiko',
      imageUrl: null,
      price: 950,
      startsAt: expect.any(Number),
      endsAt: null,
      live: true,
      url: `/live/relojeria/${ids.live}?lote=${ids.seiko}`,
    });
    expect(items[1]).toMatchObject({ kind: 'lot', sessionId: ids.later, price: 200, live: false, url: `/live/relojeria/${ids.later}?lote=${ids.casio}` });
    expect(items[2]).toMatchObject({ kind: 'auction', sessionId: null, startsAt: null, endsAt: expect.any(Number), price: 3000, url: `/auctions/${ids.bici}` });
  });

  it('folds accents and case in the query too, and finds plurals and prefixes', async () => {
    expect(names(await search(`q=${encodeURIComponent('RELÓJ')}`))).toContain('Relój Seiko');
    expect(names(await search('q=relojes'))).toEqual(expect.arrayContaining(['Relój Seiko', 'Reloj Casio']));
    expect(names(await search('q=bici'))).toEqual(['Bicicleta de ruta']);
    expect(names(await search(`q=${encodeURIComponent('seiko automático')}`))).toEqual(['Relój Seiko']);
    expect(names(await search('q=seiko%20casio'))).toEqual([]);
  });

  it('never finds a draft, an ended auction, a sold lot, a rehearsal’s or an ended show’s lot', async () => {
    const found = names(await search('q=reloj'));
    for (const hidden of ['Reloj borrador', 'Reloj vendido', 'Reloj ya subastado', 'Reloj de ensayo', 'Reloj de ayer']) expect(found).not.toContain(hidden);
  });

  it('filters by category', async () => {
    expect(names(await search(`q=reloj&categoryId=${relojes}`))).toEqual(['Relój Seiko', 'Reloj Casio']);
  });

  it('drops a lot once its show ends', async () => {
    await server.ctx.db
      .update(liveSessions)
      .set({ status: 'ended' })
      .where(eq(liveSessions.id, ids.later as string));
    expect(names(await search('q=casio'))).toEqual([]);
    await server.ctx.db
      .update(liveSessions)
      .set({ status: 'scheduled' })
      .where(eq(liveSessions.id, ids.later as string));
    expect(names(await search('q=casio'))).toEqual(['Reloj Casio']);
  });

  it('refuses a query too short or too long with a Spanish 400, never a 5xx', async () => {
    const cases: [string, string][] = [
      ['q=a', 'Escribe al menos 2 letras para buscar.'],
      ['q=%20%20a%20%20', 'Escribe al menos 2 letras para buscar.'],
      [`q=${'x'.repeat(10_000)}`, 'La búsqueda puede tener hasta 100 caracteres.'],
      ['', 'Escribe qué buscas.'],
    ];
    for (const [query, message] of cases) {
      const res = await server.app.inject({ method: 'GET', url: `/api/search?${query}` });
      expect(res.statusCode, query.slice(0, 20)).toBe(400);
      expect(res.json().error.fields.q).toBe(message);
    }
  });

  it('treats text-search operators and quotes as plain text', async () => {
    for (const q of ["reloj' | '", 'reloj:* | !casio', '(&|!<->)', "'; drop table auctions; --", 'de la']) {
      const res = await server.app.inject({ method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}` });
      expect(res.statusCode, q).toBe(200);
    }
    expect(names(await search(`q=${encodeURIComponent('reloj:* | !casio')}`))).toEqual(['Reloj Casio']);
    expect(prefixQuery("Relój's & (casio)")).toBe('reloj:* & s:* & casio:*');
  });
});
