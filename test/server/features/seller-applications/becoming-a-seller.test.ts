import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SellerApplication, SellerApplicationList } from '../../../../src/domain/seller-applications.js';
import { auditLog, companies, notifications, sellerApplications, userProfiles } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor, buildCategory } from '../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

let server: TestServer;
let platformAdmin: Actor;
let companyAdmin: Actor;
let seller: Actor;
let categoryId: string;
let people = 0;

const call = caller(() => server);
const M = messages.sellerApplications;
const errorOf = (res: LightMyRequestResponse) => (res.json() as { error: { code: string; message: string; fields?: Record<string, string> } }).error;

beforeAll(async () => {
  server = await startTestServer();
  platformAdmin = await buildActor(server, { email: 'plataforma@martillo.mx', name: 'Paula Plataforma', roles: ['admin'] });
  companyAdmin = await buildActor(server, { email: 'admin@tapatias.mx', name: 'Ana Admin', roles: ['admin', 'seller'], companyId: 'tapatias' });
  seller = await buildActor(server, { email: 'vende@tapatias.mx', name: 'Vero Vende', roles: ['seller'], companyId: 'tapatias' });
  categoryId = await buildCategory(server, 'Relojes');
});
afterAll(async () => server?.close());

/** A new buyer, with no profile beyond the sign-in (applying needs no complete profile). */
function buyer(): Promise<Actor> {
  people++;
  return buildActor(server, { email: `comprador${people}@gmail.com`, name: `Comprador${people} Prueba`, roles: ['buyer'] });
}

const form = (over: Record<string, unknown> = {}) => ({
  businessName: 'Relojes Don Chucho',
  city: 'Guadalajara',
  whatsapp: '33 1234 5678',
  description: 'Relojes antiguos y de colección, Seiko y Citizen.',
  ...over,
});

async function apply(actor: Actor, over: Record<string, unknown> = {}): Promise<SellerApplication> {
  const res = await call(actor, 'POST', '/api/seller-applications', form(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as SellerApplication;
}

async function list(actor: Actor, query = ''): Promise<SellerApplicationList> {
  const res = await call(actor, 'GET', `/api/seller-applications${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SellerApplicationList;
}

async function profileOf(id: string) {
  const [row] = await server.ctx.db
    .select({ roles: userProfiles.roles, companyId: userProfiles.companyId, storeSlug: userProfiles.storeSlug, city: userProfiles.city })
    .from(userProfiles)
    .where(eq(userProfiles.userId, id));
  return row;
}

const audits = (action: string, entityId: string) =>
  server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)));

describe('applying', () => {
  it('a signed-in buyer sends the form and gets 201 with a pending request, the number kept in E.164, audited', async () => {
    const me = await buyer();
    const sent = await apply(me, { rfc: 'eku-900317 3c9' });
    expect(sent).toMatchObject({
      userId: me.id,
      businessName: 'Relojes Don Chucho',
      city: 'Guadalajara',
      whatsapp: '+523312345678',
      rfc: 'EKU9003173C9',
      status: 'pending',
      declineReason: null,
      reapplyAt: null,
    });
    expect(await audits('seller_application.create', sent.id)).toHaveLength(1);
    expect((await list(me)).items.map((a) => a.id)).toEqual([sent.id]);
  });

  it('takes a number with its own country code', async () => {
    const sent = await apply(await buyer(), { whatsapp: '+1 (415) 555-2671' });
    expect(sent.whatsapp).toBe('+14155552671');
  });

  it('refuses a signed-out visitor with 401', async () => {
    const res = await call(null, 'POST', '/api/seller-applications', form());
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['a missing business name', { businessName: undefined }, 'businessName', M.fields.businessNameRequired],
    ['a blank business name', { businessName: '   ' }, 'businessName', M.fields.businessNameRequired],
    ['a business name of 121 characters', { businessName: 'x'.repeat(121) }, 'businessName', M.fields.businessNameTooLong],
    ['a one-letter city', { city: 'G' }, 'city', M.fields.cityTooShort],
    ['a missing WhatsApp', { whatsapp: '' }, 'whatsapp', M.fields.applicantWhatsappRequired],
    ['a WhatsApp of 8 digits', { whatsapp: '1234 5678' }, 'whatsapp', M.fields.applicantWhatsappInvalid],
    ['the old 044 mobile prefix', { whatsapp: '044 33 1234 5678' }, 'whatsapp', M.fields.applicantWhatsappInvalid],
    ['a short description', { description: 'relojes' }, 'description', M.fields.sellDescriptionTooShort],
    ['a description of 1001 characters', { description: 'r'.repeat(1001) }, 'description', M.fields.sellDescriptionTooLong],
    ['an RFC of the wrong shape', { rfc: 'ABC123' }, 'rfc', messages.fields.rfcFormat],
    ['an RFC whose check digit is wrong', { rfc: 'EKU9003173C8' }, 'rfc', messages.fields.rfcCheckDigit],
  ])('refuses %s with a Spanish message on that field', async (_name, over, field, message) => {
    const me = await buyer();
    const res = await call(me, 'POST', '/api/seller-applications', form(over));
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res).fields?.[field]).toBe(message);
    expect((await list(me)).items).toEqual([]);
  });

  it('shows every bad field at once', async () => {
    const res = await call(await buyer(), 'POST', '/api/seller-applications', { businessName: '', city: '', whatsapp: 'abc', description: '' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(errorOf(res).fields ?? {}).sort()).toEqual(['businessName', 'city', 'description', 'whatsapp']);
  });

  it('refuses a huge body with 413 in Spanish, before reading it', async () => {
    const res = await call(await buyer(), 'POST', '/api/seller-applications', form({ description: 'r'.repeat(100_000) }));
    expect(res.statusCode).toBe(413);
    expect(errorOf(res).message).toBe(messages.errors.payloadTooLarge);
  });

  it('refuses an account that already sells (seller or admin) with 409', async () => {
    for (const actor of [seller, companyAdmin, platformAdmin]) {
      const res = await call(actor, 'POST', '/api/seller-applications', form());
      expect(res.statusCode, res.body).toBe(409);
      expect(errorOf(res).message).toBe(M.alreadySeller);
    }
  });

  it('refuses a second request while the first is in review, and two sent at once make one', async () => {
    const me = await buyer();
    const both = await Promise.all([call(me, 'POST', '/api/seller-applications', form()), call(me, 'POST', '/api/seller-applications', form())]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const again = await call(me, 'POST', '/api/seller-applications', form());
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(M.pending);
    expect((await list(me)).items).toHaveLength(1);
  });
});

describe('who sees the requests', () => {
  it('a platform admin sees all, pending first and newest first, filterable by status, with the pending count', async () => {
    const older = await apply(await buyer(), { businessName: 'Monedas La Antigua' });
    const decided = await apply(await buyer(), { businessName: 'Juguetes Retro' });
    const newer = await apply(await buyer(), { businessName: 'Vinilos del Centro' });
    expect((await call(platformAdmin, 'POST', `/api/seller-applications/${decided.id}/decline`, { reason: 'No vendemos réplicas.' })).statusCode).toBe(200);
    const all = await list(platformAdmin);
    const ids = all.items.map((a) => a.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids.indexOf(older.id)).toBeLessThan(ids.indexOf(decided.id));
    expect(all.items.find((a) => a.id === older.id)?.applicantEmail).toMatch(/@gmail\.com$/);
    const pending = await list(platformAdmin, '?status=pending');
    expect(pending.items.every((a) => a.status === 'pending')).toBe(true);
    expect(pending.pending).toBe(pending.items.length);
    expect((await list(platformAdmin, '?status=declined')).items.map((a) => a.id)).toContain(decided.id);
    const bad = await call(platformAdmin, 'GET', '/api/seller-applications?status=borrado');
    expect(bad.statusCode).toBe(400);
  });

  it('a buyer and a company admin see only their own, and cannot decide anyone else’s', async () => {
    const someone = await apply(await buyer(), { businessName: 'Arte Huichol' });
    const stranger = await buyer();
    expect((await list(stranger)).items).toEqual([]);
    expect((await list(companyAdmin)).items).toEqual([]);
    for (const actor of [stranger, companyAdmin, seller]) {
      for (const verb of ['approve', 'decline']) {
        const res = await call(actor, 'POST', `/api/seller-applications/${someone.id}/${verb}`, { reason: 'Porque sí, sin más.' });
        expect(res.statusCode, `${verb} ${res.body}`).toBe(403);
      }
    }
    const [row] = await server.ctx.db.select({ status: sellerApplications.status }).from(sellerApplications).where(eq(sellerApplications.id, someone.id));
    expect(row?.status).toBe('pending');
  });

  it('an unknown or malformed id is 404 in Spanish', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'no-es-un-id']) {
      const res = await call(platformAdmin, 'POST', `/api/seller-applications/${id}/approve`);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).message).toBe(M.notFound);
    }
  });
});

describe('approving', () => {
  it('makes the company, the roles, the city and the store slug in one go, tells the applicant, and audits', async () => {
    const me = await buyer();
    const sent = await apply(me, { businessName: 'Relojería Martínez', city: 'Zapopan', rfc: 'EKU9003173C9' });
    const res = await call(platformAdmin, 'POST', `/api/seller-applications/${sent.id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    const approved = res.json() as SellerApplication;
    expect(approved).toMatchObject({ status: 'approved', companyId: 'relojeria-martinez' });
    const [company] = await server.ctx.db.select().from(companies).where(eq(companies.id, 'relojeria-martinez'));
    expect(company).toMatchObject({ name: 'Relojería Martínez', rfc: 'EKU9003173C9' });
    expect(await profileOf(me.id)).toEqual({
      roles: ['admin', 'seller', 'buyer'],
      companyId: 'relojeria-martinez',
      storeSlug: 'relojeria-martinez',
      city: 'Zapopan',
    });
    const told = await server.ctx.db.select().from(notifications).where(eq(notifications.userId, me.id));
    expect(told).toMatchObject([{ kind: 'application_approved', title: M.approvedTitle, url: '/admin' }]);
    const [audit] = await audits('seller_application.approve', sent.id);
    expect(audit?.after).toMatchObject({ status: 'approved', companyId: 'relojeria-martinez', roles: ['admin', 'seller', 'buyer'] });
    expect(audit?.actorId).toBe(platformAdmin.id);
  });

  it('the applicant’s open session sees the new roles at once, and may then create an auction in its company', async () => {
    const me = await buyer();
    // The session is cached by this request, as a signed-in browser's would be.
    const before = await call(me, 'GET', '/api/me');
    expect(before.json().roles).toEqual(['buyer']);
    expect((await call(me, 'GET', '/api/auctions')).statusCode).toBe(403);
    const sent = await apply(me, { businessName: 'Bicis Usadas GDL' });
    expect((await call(platformAdmin, 'POST', `/api/seller-applications/${sent.id}/approve`)).statusCode).toBe(200);
    const after = await call(me, 'GET', '/api/me');
    expect(after.json().roles).toEqual(['admin', 'seller', 'buyer']);
    const created = await call(me, 'POST', '/api/auctions', {
      name: 'Reloj Seiko 5 automático',
      description: 'Funciona perfecto, con caja.',
      categoryId,
      startingPrice: 800,
      endTime: Date.now() + 3_600_000,
      images: [],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().companyId).toBe('bicis-usadas-gdl');
  });

  it('a business name another company has gets the next free id', async () => {
    const first = await apply(await buyer(), { businessName: 'Tapatías' });
    const res = await call(platformAdmin, 'POST', `/api/seller-applications/${first.id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as SellerApplication).companyId).toBe('tapatias-2');
  });

  it('approving twice, or approving a declined request, is 409 and changes nothing', async () => {
    const sent = await apply(await buyer(), { businessName: 'Cámaras Vintage' });
    expect((await call(platformAdmin, 'POST', `/api/seller-applications/${sent.id}/approve`)).statusCode).toBe(200);
    const again = await call(platformAdmin, 'POST', `/api/seller-applications/${sent.id}/approve`);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toBe(M.alreadyDecided.replace('{{status}}', M.approvedWord));
    const decline = await call(platformAdmin, 'POST', `/api/seller-applications/${sent.id}/decline`, { reason: 'Ya no, gracias.' });
    expect(decline.statusCode).toBe(409);
    expect(await server.ctx.db.select().from(companies).where(eq(companies.id, 'camaras-vintage-2'))).toEqual([]);
  });

  it('an applicant who became a seller meanwhile is not moved to a new company', async () => {
    const me = await buyer();
    const sent = await apply(me, { businessName: 'Discos Raros' });
    await server.ctx.db
      .update(userProfiles)
      .set({ roles: ['seller', 'buyer'], companyId: 'tapatias' })
      .where(eq(userProfiles.userId, me.id));
    const res = await call(platformAdmin, 'POST', `/api/seller-applications/${sent.id}/approve`);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe(M.applicantSells);
    expect((await profileOf(me.id))?.companyId).toBe('tapatias');
  });
});

describe('declining', () => {
  it('keeps the reason, tells the applicant, who reads it with the date they may apply again', async () => {
    const me = await buyer();
    const sent = await apply(me);
    const res = await call(platformAdmin, 'POST', `/api/seller-applications/${sent.id}/decline`, { reason: '  Necesitamos fotos de tu inventario.  ' });
    expect(res.statusCode, res.body).toBe(200);
    const mine = (await list(me)).items[0];
    expect(mine).toMatchObject({ status: 'declined', declineReason: 'Necesitamos fotos de tu inventario.' });
    expect(mine?.reapplyAt).toBe((mine?.decidedAt ?? 0) + 30 * 24 * 3600_000);
    const told = await server.ctx.db.select().from(notifications).where(eq(notifications.userId, me.id));
    expect(told).toMatchObject([{ kind: 'application_declined', url: '/vender' }]);
    expect(await audits('seller_application.decline', sent.id)).toHaveLength(1);
    expect(await profileOf(me.id)).toMatchObject({ roles: ['buyer'], companyId: null });
  });

  it.each([
    ['no reason', {}, M.fields.reasonRequired],
    ['a reason of 4 characters', { reason: 'malo' }, M.fields.reasonTooShort],
    ['a reason of 501 characters', { reason: 'x'.repeat(501) }, M.fields.reasonTooLong],
  ])('refuses %s with a Spanish field message', async (_name, body, message) => {
    const sent = await apply(await buyer());
    const res = await call(platformAdmin, 'POST', `/api/seller-applications/${sent.id}/decline`, body);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields?.reason).toBe(message);
  });

  it('a declined applicant may apply again only 30 days after the decision, and is told the date', async () => {
    const me = await buyer();
    const sent = await apply(me);
    expect((await call(platformAdmin, 'POST', `/api/seller-applications/${sent.id}/decline`, { reason: 'Faltan datos del negocio.' })).statusCode).toBe(200);
    const soon = await call(me, 'POST', '/api/seller-applications', form());
    expect(soon.statusCode).toBe(409);
    expect(errorOf(soon).message).toMatch(/^Tu solicitud anterior fue rechazada\. Podrás enviar una nueva a partir del \d{1,2} de \p{L}+ de \d{4}\.$/u);
    // 29 days later: still too soon.
    await server.ctx.db
      .update(sellerApplications)
      .set({ decidedAt: new Date(Date.now() - 29 * 24 * 3600_000) })
      .where(eq(sellerApplications.id, sent.id));
    expect((await call(me, 'POST', '/api/seller-applications', form())).statusCode).toBe(409);
    await server.ctx.db
      .update(sellerApplications)
      .set({ decidedAt: new Date(Date.now() - 31 * 24 * 3600_000) })
      .where(eq(sellerApplications.id, sent.id));
    const later = await apply(me, { businessName: 'Relojes Don Chucho e Hijos' });
    expect(later.status).toBe('pending');
    expect((await list(me)).items.map((a) => a.status)).toEqual(['pending', 'declined']);
  });
});
