import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Company, CompanyListResponse } from '../../../../src/domain/companies.js';
import type { Role } from '../../../../src/domain/role-rules.js';
import { auditLog, companies, userProfiles } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, signInAs } from '../../../support/actors.js';
import { buildAuction, buildSession, buildUser } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

let server: TestServer;
const actors: Record<string, Actor> = {};
const PROFILES: Record<string, { roles: Role[]; companyId: string | null; companyName?: string }> = {
  platform: { roles: ['admin', 'buyer'], companyId: null },
  adminA: { roles: ['admin', 'seller'], companyId: 'empresa-a' },
  adminB: { roles: ['admin', 'seller'], companyId: 'empresa-b' },
  sellerA: { roles: ['seller'], companyId: 'empresa-a', companyName: 'Nombre de un vendedor' },
  solo: { roles: ['seller'], companyId: null },
  buyer: { roles: ['buyer'], companyId: null },
};

function send(method: 'GET' | 'PUT', url: string, who: string | null, payload?: object) {
  const cookie = who ? actors[who]?.cookie : undefined;
  return server.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
}
const row = async (id: string) => (await server.ctx.db.select().from(companies).where(eq(companies.id, id)))[0];

beforeAll(async () => {
  server = await startTestServer();
  for (const [key, p] of Object.entries(PROFILES)) {
    actors[key] = await signInAs(server, { email: `${key.toLowerCase()}@ejemplo.mx`, name: `Prueba ${key}`, ...p });
  }
});
afterAll(async () => server?.close());

describe('who may see and edit a company', () => {
  it.each([
    [null, 401],
    ['buyer', 403],
    ['sellerA', 404],
    ['solo', 404],
    ['adminB', 404],
    ['adminA', 200],
    ['platform', 200],
  ])('%s reading and renaming empresa-a gets %i', async (who, status) => {
    const before = await row('empresa-a');
    expect((await send('GET', '/api/companies/empresa-a', who)).statusCode).toBe(status);
    const put = await send('PUT', '/api/companies/empresa-a', who, { name: `Empresa A por ${who}` });
    expect(put.statusCode).toBe(status);
    if (status === 404) expect(put.json().error.message).toBe(messages.companies.notFound);
    if (status !== 200) expect(await row('empresa-a')).toEqual(before);
    else expect((await row('empresa-a'))?.name).toBe(`Empresa A por ${who}`);
  });

  it('answers an unknown id exactly as one out of scope', async () => {
    const unknown = await send('PUT', '/api/companies/no-existe', 'platform', { name: 'X' });
    const outOfScope = await send('PUT', '/api/companies/empresa-b', 'adminA', { name: 'X' });
    expect([unknown.statusCode, unknown.json()]).toEqual([outOfScope.statusCode, outOfScope.json()]);
    expect(await row('no-existe')).toBeUndefined();
  });

  it('lets a seller who is its own company name that company, created on first use', async () => {
    const solo = actors.solo as Actor;
    expect((await send('GET', `/api/companies/${solo.id}`, 'solo')).json()).toMatchObject({ id: solo.id, name: 'Prueba solo' });
    const res = await send('PUT', `/api/companies/${solo.id}`, 'solo', { name: 'Antigüedades Solís' });
    expect(res.json()).toMatchObject({ id: solo.id, name: 'Antigüedades Solís' });
    expect((await send('GET', '/api/me', 'solo')).json().companyName).toBe('Antigüedades Solís');
    // 'Mi perfil' shows it as the business name, and names the one-person company from there too.
    expect((await send('GET', '/api/profile', 'solo')).json().companyName).toBe('Antigüedades Solís');
    const profile = { lastName: 'Solís', companyName: 'Bazar Solís', whatsappCountryCode: '+52', whatsappLocal: '3312345678', whatsappConsentGiven: true };
    expect((await send('PUT', '/api/profile', 'solo', profile)).statusCode).toBe(200);
    expect((await send('GET', '/api/me', 'solo')).json().companyName).toBe('Bazar Solís');
    // A buyer's business name makes no company.
    expect((await send('PUT', '/api/profile', 'buyer', profile)).statusCode).toBe(200);
    expect(await row((actors.buyer as Actor).id)).toBeUndefined();
    // Another user's one-person company stays out of reach.
    expect((await send('GET', `/api/companies/${(actors.buyer as Actor).id}`, 'solo')).statusCode).toBe(404);
  });

  it('lists every company for a platform admin (searchable, paged), only its own for a company admin', async () => {
    const all = (await send('GET', '/api/companies?search=EMPRESA-&pageSize=1', 'platform')).json() as CompanyListResponse;
    expect([all.total, all.items.length]).toEqual([2, 1]);
    const own = (await send('GET', '/api/companies', 'adminA')).json() as CompanyListResponse;
    expect(own.items.map((c) => c.id)).toEqual(['empresa-a']);
    expect((await send('GET', '/api/companies', 'sellerA')).json().items).toEqual([]);
    expect((await send('GET', '/api/companies', 'buyer')).statusCode).toBe(403);
  });
});

describe('editing a company', () => {
  const put = (payload: object) => send('PUT', '/api/companies/empresa-b', 'adminB', payload);

  it.each([
    ['an empty name', { name: '   ' }, { name: messages.fields.companyNameRequired }],
    ['no name', { rfc: 'EKU9003173C9' }, { name: messages.fields.companyNameRequired }],
    ['a long name', { name: 'x'.repeat(121) }, { name: messages.fields.tooLong }],
    ['an RFC of the wrong length', { name: 'B', rfc: 'EKU9003173' }, { rfc: messages.fields.rfcFormat }],
    ['an RFC with an impossible date', { name: 'B', rfc: 'EKU9013173C9' }, { rfc: messages.fields.rfcFormat }],
    ['an RFC with a wrong check digit', { name: 'B', rfc: 'GODE561231GR9' }, { rfc: messages.fields.rfcCheckDigit }],
    ['a long razón social', { name: 'B', legalName: 'x'.repeat(251) }, { legalName: messages.fields.tooLong }],
  ])('rejects %s in Spanish and changes nothing', async (_label, payload, fields) => {
    const before = await row('empresa-b');
    const res = await put(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual(fields);
    expect(await row('empresa-b')).toEqual(before);
  });

  it('trims, upper-cases the RFC, accepts personas morales and físicas, and audits each change', async () => {
    const moral = await put({ name: '  Remates B  ', rfc: 'eku-900317 3c9', legalName: '  Remates B, S.A. de C.V. ' });
    expect(moral.json()).toMatchObject({
      id: 'empresa-b',
      name: 'Remates B',
      rfc: 'EKU9003173C9',
      legalName: 'Remates B, S.A. de C.V.',
    } satisfies Partial<Company>);
    const fisica = await put({ name: 'Remates B', rfc: 'GODE561231GR8', legalName: null });
    expect(fisica.json()).toMatchObject({ rfc: 'GODE561231GR8', legalName: null });
    await put({ name: 'Remates B', rfc: 'GODE561231GR8', legalName: null });
    const audits = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'company'), eq(auditLog.entityId, 'empresa-b')))
      .orderBy(auditLog.id);
    // The repeated save changed nothing, so it left no row.
    expect(audits.map((a) => [a.action, a.actorId, a.after])).toEqual([
      ['company.update', (actors.adminB as Actor).id, { name: 'Remates B', rfc: 'EKU9003173C9', legalName: 'Remates B, S.A. de C.V.' }],
      ['company.update', (actors.adminB as Actor).id, { name: 'Remates B', rfc: 'GODE561231GR8', legalName: null }],
    ]);
    expect(audits[1]?.before).toEqual({ name: 'Remates B', rfc: 'EKU9003173C9', legalName: 'Remates B, S.A. de C.V.' });
  });
});

describe('the one source of a company’s name', () => {
  it('PUT /api/users {companyId} creates an unseen company’s record (named by the user’s business name) and keeps SPEC’s answer', async () => {
    const user = await buildUser(server.ctx.db);
    await server.ctx.db.update(userProfiles).set({ companyName: 'Casa Ríos' }).where(eq(userProfiles.userId, user.id));
    const res = await send('PUT', `/api/users/${user.id}`, 'platform', { companyId: 'casa-rios' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ uid: user.id, companyId: 'casa-rios', companyName: 'Casa Ríos' });
    expect(await row('casa-rios')).toMatchObject({ name: 'Casa Ríos', rfc: null, legalName: null });
    // A member joining later, with another business name, does not rename it.
    const other = await buildUser(server.ctx.db);
    await server.ctx.db.update(userProfiles).set({ companyName: 'Otro nombre' }).where(eq(userProfiles.userId, other.id));
    await send('PUT', `/api/users/${other.id}`, 'platform', { companyId: 'casa-rios' });
    const unnamed = await buildUser(server.ctx.db);
    await send('PUT', `/api/users/${unnamed.id}`, 'platform', { companyId: 'sin-nombre' });
    expect([(await row('casa-rios'))?.name, (await row('sin-nombre'))?.name]).toEqual(['Casa Ríos', 'sin-nombre']);
  });

  it('a member editing its profile no longer renames its company', async () => {
    await send('PUT', '/api/companies/empresa-a', 'adminA', { name: 'Empresa A' });
    const profile = { lastName: 'Pérez', companyName: 'Mi propio nombre', whatsappCountryCode: '+52', whatsappLocal: '3312345678', whatsappConsentGiven: true };
    expect((await send('PUT', '/api/profile', 'sellerA', profile)).statusCode).toBe(200);
    expect((await send('GET', '/api/me', 'sellerA')).json().companyName).toBe('Empresa A');
  });

  it('a rename reaches /api/me, the auction list, its search and the public auction page', async () => {
    const auction = await buildAuction(server.ctx.db, { name: 'Reloj de bolsillo', companyId: 'empresa-a' });
    await send('PUT', '/api/companies/empresa-a', 'adminA', { name: 'Relojería Azul' });
    expect((await send('GET', '/api/me', 'sellerA')).json()).toMatchObject({ companyId: 'empresa-a', companyName: 'Relojería Azul' });
    const found = (await send('GET', `/api/auctions?search=${encodeURIComponent('relojeria azul')}`, 'adminA')).json();
    expect(found.items.map((i: { id: string; companyName: string }) => [i.id, i.companyName])).toEqual([[auction.id, 'Relojería Azul']]);
    expect((await send('GET', `/api/auctions/${auction.id}`, null)).json().companyName).toBe('Relojería Azul');
  });

  it('a solo seller’s first live session creates its company, named by its display name', async () => {
    const seller = await buildUser(server.ctx.db, { roles: ['seller'] });
    await server.ctx.db.update(userProfiles).set({ displayName: 'Lupita Ramos' }).where(eq(userProfiles.userId, seller.id));
    await buildSession(server.ctx.db, { sellerId: seller.id, companyId: seller.id });
    expect((await row(seller.id))?.name).toBe('Lupita Ramos');
  });
});
