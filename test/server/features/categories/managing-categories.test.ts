import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '../../../../src/domain/categories.js';
import type { Role } from '../../../../src/domain/role-rules.js';
import { auctions, auditLog, users } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { signInAs } from '../../../support/actors.js';
import { buildAuction } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

let server: TestServer;
/** Cookies of each actor; `signedOut` sends none. */
const as: Record<string, string | undefined> = { signedOut: undefined };

const signIn = async (email: string, profile: { roles: Role[]; companyId: string | null }) =>
  (await signInAs(server, { email, name: 'Prueba Categorías', ...profile })).cookie;

beforeAll(async () => {
  server = await startTestServer();
  // The first account of an empty database is the platform admin.
  as.platform = await signIn('plataforma@ejemplo.mx', { roles: ['admin', 'buyer'], companyId: null });
  as.platform2 = await signIn('plataforma-2@ejemplo.mx', { roles: ['admin'], companyId: null });
  as.companyAdminA = await signIn('admin-a@ejemplo.mx', { roles: ['admin', 'seller'], companyId: 'empresa-a' });
  as.sellerA = await signIn('vendedor-a@ejemplo.mx', { roles: ['seller'], companyId: 'empresa-a' });
  as.sellerB = await signIn('vendedor-b@ejemplo.mx', { roles: ['seller'], companyId: 'empresa-b' });
  as.buyer = await signIn('comprador@ejemplo.mx', { roles: ['buyer'], companyId: null });
});
afterAll(async () => server?.close());

const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, actor = 'platform', payload?: object) =>
  server.app.inject({ method, url, headers: as[actor] ? { cookie: as[actor] as string } : {}, ...(payload ? { payload } : {}) });
const create = async (name: string, actor = 'platform') => {
  const res = await send('POST', '/api/categories', actor, { name });
  expect(res.statusCode).toBe(201);
  return res.json() as Category;
};
const list = async (actor: Parameters<typeof send>[2] = 'signedOut') => (await send('GET', '/api/categories', actor)).json() as Category[];
const audits = (entityId: string) =>
  server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'category'), eq(auditLog.entityId, entityId)))
    .orderBy(auditLog.id);

describe('categories API: who may do what', () => {
  const denied = [
    ['signedOut', 401, 'UNAUTHENTICATED'],
    ['buyer', 403, 'FORBIDDEN'],
    ['sellerA', 403, 'FORBIDDEN'],
    ['sellerB', 403, 'FORBIDDEN'],
    // Categories are shared by every company: a company's admin may not change them.
    ['companyAdminA', 403, 'FORBIDDEN'],
  ] as const;

  it.each(denied)('refuses %s adding, renaming or deleting (%i)', async (actor, status, code) => {
    const target = await create(`Intocable ${actor}`);
    for (const res of [
      await send('POST', '/api/categories', actor, { name: `Nueva ${actor}` }),
      await send('PUT', `/api/categories/${target.id}`, actor, { name: 'Renombrada' }),
      await send('DELETE', `/api/categories/${target.id}`, actor),
      // Invalid input still answers 401/403: the role is checked before the body.
      await send('POST', '/api/categories', actor, { name: '' }),
    ]) {
      expect(res.statusCode).toBe(status);
      expect(res.json().error.code).toBe(code);
    }
    expect((await list()).find((c) => c.id === target.id)?.name).toBe(`Intocable ${actor}`);
  });

  it("tells a company's admin why, in Spanish", async () => {
    const res = await send('POST', '/api/categories', 'companyAdminA', { name: 'De una empresa' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({ code: 'FORBIDDEN', message: messages.categories.platformOnly });
    expect((await list()).some((c) => c.name === 'De una empresa')).toBe(false);
  });

  it('lets a company admin read the list with counts', async () => {
    const target = await create('Leída por empresa');
    const res = await send('GET', '/api/categories', 'companyAdminA');
    expect(res.statusCode).toBe(200);
    expect((res.json() as Category[]).find((c) => c.id === target.id)?.auctionCount).toBe(0);
  });

  it.each(['platform2', 'platform'])('lets %s add, rename and delete', async (actor) => {
    const created = await send('POST', '/api/categories', actor, { name: `Muebles ${actor}` });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    const renamed = await send('PUT', `/api/categories/${id}`, actor, { name: `Muebles antiguos ${actor}` });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ id, name: `Muebles antiguos ${actor}`, auctionCount: 0 });
    const deleted = await send('DELETE', `/api/categories/${id}`, actor);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id });
  });

  it('lists categories for anyone, signed in or not', async () => {
    await create('Visible para todos');
    for (const actor of ['signedOut', 'buyer', 'sellerB']) {
      const res = await send('GET', '/api/categories', actor);
      expect(res.statusCode).toBe(200);
      expect(res.json().map((c: Category) => c.name)).toContain('Visible para todos');
    }
  });
});

describe('categories API: names', () => {
  it('trims the name and collapses inner spaces', async () => {
    const category = await create('   Relojes   de   pulso  ');
    expect(category).toEqual({ id: expect.any(String), name: 'Relojes de pulso', auctionCount: 0 });
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a name of spaces', { name: '    ' }],
    ['no name', {}],
    ['a number', { name: 42 }],
  ])('rejects %s with a Spanish field error', async (_label, payload) => {
    const res = await send('POST', '/api/categories', 'platform', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION', fields: { name: messages.fields.categoryNameRequired } });
  });

  it('rejects a name that differs only in case and accents', async () => {
    await create('Electrónica');
    for (const name of ['electronica ', 'ELECTRÓNICA', ' Electronica']) {
      const res = await send('POST', '/api/categories', 'platform', { name });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({ code: 'CONFLICT', message: messages.categories.duplicate });
    }
    expect((await list()).filter((c) => c.name.toLowerCase().startsWith('electr'))).toHaveLength(1);
  });

  it('answers 409 to one of two admins adding the same name at once', async () => {
    const [a, b] = await Promise.all([
      send('POST', '/api/categories', 'platform', { name: 'Juguetes' }),
      send('POST', '/api/categories', 'platform2', { name: 'juguetes' }),
    ]);
    expect([a?.statusCode, b?.statusCode].sort()).toEqual([201, 409]);
    expect((await list()).filter((c) => c.name.toLowerCase() === 'juguetes')).toHaveLength(1);
  });

  it('renames to itself or a case change of itself, but not onto another category', async () => {
    const herramientas = await create('Herramientas');
    await create('Jardín');
    const same = await send('PUT', `/api/categories/${herramientas.id}`, 'platform', { name: 'Herramientas' });
    expect(same.statusCode).toBe(200);
    const recased = await send('PUT', `/api/categories/${herramientas.id}`, 'platform', { name: ' HERRAMIENTAS ' });
    expect(recased.statusCode).toBe(200);
    expect(recased.json().name).toBe('HERRAMIENTAS');
    const clash = await send('PUT', `/api/categories/${herramientas.id}`, 'platform', { name: 'jardin' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.message).toBe(messages.categories.duplicate);
    const empty = await send('PUT', `/api/categories/${herramientas.id}`, 'platform', { name: ' ' });
    expect(empty.statusCode).toBe(400);
    expect((await list()).find((c) => c.id === herramientas.id)?.name).toBe('HERRAMIENTAS');
  });

  it('sorts by name the Spanish way, ignoring case and accents', async () => {
    for (const name of ['Zapatos', 'árboles', 'Bicicletas', 'autos', 'Ñandú']) await create(name);
    const names = (await list()).map((c) => c.name).filter((n) => ['Zapatos', 'árboles', 'Bicicletas', 'autos', 'Ñandú'].includes(n));
    expect(names).toEqual(['árboles', 'autos', 'Bicicletas', 'Ñandú', 'Zapatos']);
  });
});

describe('categories API: auctions and audit', () => {
  it('counts auctions and refuses to delete a category in use, saying how many', async () => {
    const category = await create('Cámaras');
    await buildAuction(server.ctx.db, { categoryId: category.id });
    await buildAuction(server.ctx.db, { categoryId: category.id });
    expect((await list('platform')).find((c) => c.id === category.id)?.auctionCount).toBe(2);
    // The public list skips the count, so it stays cheap however many auctions there are.
    expect((await list()).find((c) => c.id === category.id)?.auctionCount).toBeNull();
    const res = await send('DELETE', `/api/categories/${category.id}`, 'platform');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({ code: 'CONFLICT', message: messages.categories.inUse.replace('{{count}}', '2') });
    expect(res.json().error.message).toContain('2 subastas');
    expect((await list()).some((c) => c.id === category.id)).toBe(true);
  });

  it('says "1 subasta" when one auction uses it', async () => {
    const category = await create('Libros');
    await buildAuction(server.ctx.db, { categoryId: category.id });
    const res = await send('DELETE', `/api/categories/${category.id}`, 'platform2');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(messages.categories.inUseOne);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const unknown = '3f1c2b4a-8d6e-4f7a-9b0c-1d2e3f4a5b6c';
    for (const res of [
      await send('PUT', `/api/categories/${unknown}`, 'platform', { name: 'Nada' }),
      await send('DELETE', `/api/categories/${unknown}`, 'platform'),
      await send('PUT', '/api/categories/no-es-un-uuid', 'platform', { name: 'Nada' }),
      await send('DELETE', '/api/categories/12345', 'platform'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });

  it('refreshes the search text of its auctions on rename', async () => {
    const category = await create('Relojería');
    const auction = await buildAuction(server.ctx.db, { name: 'Reloj de bolsillo', categoryId: category.id });
    const res = await send('PUT', `/api/categories/${category.id}`, 'platform', { name: 'Relojes Finos Épicos' });
    expect(res.json()).toEqual({ id: category.id, name: 'Relojes Finos Épicos', auctionCount: 1 });
    const [row] = await server.ctx.db.select({ searchText: auctions.searchText }).from(auctions).where(eq(auctions.id, auction.id));
    expect(row?.searchText).toContain('relojes finos epicos');
    expect(row?.searchText).toContain('reloj de bolsillo');
  });

  it('records who added, renamed and deleted a category, with before and after', async () => {
    const category = await create('Instrumentos', 'platform2');
    await send('PUT', `/api/categories/${category.id}`, 'platform2', { name: 'Instrumentos musicales' });
    // Saving the same name changes nothing and records nothing.
    await send('PUT', `/api/categories/${category.id}`, 'platform2', { name: 'Instrumentos musicales' });
    await send('DELETE', `/api/categories/${category.id}`, 'platform');
    const rows = await audits(category.id);
    const [secondPlatform] = await server.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, 'plataforma-2@ejemplo.mx'));
    const [platform] = await server.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, 'plataforma@ejemplo.mx'));
    expect(rows.map((r) => ({ action: r.action, actorId: r.actorId, before: r.before, after: r.after }))).toEqual([
      { action: 'category.create', actorId: secondPlatform?.id, before: null, after: { name: 'Instrumentos' } },
      { action: 'category.rename', actorId: secondPlatform?.id, before: { name: 'Instrumentos' }, after: { name: 'Instrumentos musicales' } },
      { action: 'category.delete', actorId: platform?.id, before: { name: 'Instrumentos musicales' }, after: null },
    ]);
    expect(rows.every((r) => r.ip)).toBe(true);
  });
});
