import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../src/server/messages.js';
import { type Actor, buildCategory, signInAs } from '../../support/actors.js';
import { buildAuction, buildPayment, buildSession } from '../../support/factories.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * NUL and lone UTF-16 surrogates in any text a client sends: bad input (400 naming the field),
 * never a 500 from the database. JSON's "\u0000" and "\ud800" parse to exactly those.
 */
const BAD = [
  ['a NUL', 'Reloj\u0000antiguo'],
  ['a lone high surrogate', 'Reloj \ud800antiguo'],
  ['a lone low surrogate', 'Reloj \udc00antiguo'],
  ['a reversed pair', 'Reloj \udc00\ud800'],
] as const;

let server: TestServer;
let admin: Actor;
let seller: Actor;
let categoryId: string;
let auctionId: string;
let paymentId: string;
let sessionId: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAs(server, { email: 'plataforma@ejemplo.mx', roles: ['admin', 'seller'] });
  seller = await signInAs(server, { email: 'vendedora@ejemplo.mx', roles: ['seller'], companyId: 'tienda' });
  categoryId = await buildCategory(server, 'Relojes');
  auctionId = (await buildAuction(server.ctx.db, { sellerId: seller.id, companyId: 'tienda', categoryId })).id;
  paymentId = (await buildPayment(server.ctx.db, { winnerId: admin.id, companyId: 'tienda', sellerId: seller.id })).id;
  sessionId = (await buildSession(server.ctx.db, { sellerId: seller.id, companyId: 'tienda' })).id;
});
afterAll(async () => server?.close());

interface Route {
  name: string;
  /** A URL cannot carry a lone surrogate (its WTF-8 bytes are not decoded into one): NUL only. */
  isQuery?: boolean;
  field: string;
  send: (bad: string) => { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: object; actor: () => Actor };
}

const auctionBody = (over: object) => ({ name: 'Reloj', description: 'Funciona', categoryId, startingPrice: 100, ...over });
const query = (bad: string) => encodeURIComponent(bad);

const ROUTES: Route[] = [
  {
    name: 'auction search box',
    isQuery: true,
    field: 'search',
    send: (bad) => ({ method: 'GET', url: `/api/auctions?search=${query(bad)}`, actor: () => seller }),
  },
  {
    name: 'auction counts search',
    isQuery: true,
    field: 'search',
    send: (bad) => ({ method: 'GET', url: `/api/auctions/counts?search=${query(bad)}`, actor: () => seller }),
  },
  { name: 'user search box', isQuery: true, field: 'search', send: (bad) => ({ method: 'GET', url: `/api/users?search=${query(bad)}`, actor: () => admin }) },
  { name: 'payments search box', isQuery: true, field: 'q', send: (bad) => ({ method: 'GET', url: `/api/payments?q=${query(bad)}`, actor: () => seller }) },
  { name: 'new category name', field: 'name', send: (bad) => ({ method: 'POST', url: '/api/categories', payload: { name: bad }, actor: () => admin }) },
  {
    name: 'category rename',
    field: 'name',
    send: (bad) => ({ method: 'PUT', url: `/api/categories/${categoryId}`, payload: { name: bad }, actor: () => admin }),
  },
  { name: 'auction name', field: 'name', send: (bad) => ({ method: 'POST', url: '/api/auctions', payload: auctionBody({ name: bad }), actor: () => seller }) },
  {
    name: 'auction description',
    field: 'description',
    send: (bad) => ({ method: 'PUT', url: `/api/auctions/${auctionId}`, payload: auctionBody({ description: bad }), actor: () => seller }),
  },
  {
    name: 'auction marca',
    field: 'marca',
    send: (bad) => ({ method: 'POST', url: '/api/auctions', payload: auctionBody({ marca: bad }), actor: () => seller }),
  },
  {
    name: 'auction envio',
    field: 'envio',
    send: (bad) => ({ method: 'POST', url: '/api/auctions', payload: auctionBody({ envio: bad }), actor: () => seller }),
  },
  {
    name: 'auction image URL',
    field: 'images.0',
    send: (bad) => ({ method: 'POST', url: '/api/auctions', payload: auctionBody({ images: [`/uploads/${bad}.jpg`] }), actor: () => seller }),
  },
  {
    name: 'profile last name',
    field: 'lastName',
    send: (bad) => ({
      method: 'PUT',
      url: '/api/profile',
      payload: { lastName: bad, whatsappCountryCode: '+52', whatsappLocal: '3312345678', whatsappConsentGiven: true },
      actor: () => seller,
    }),
  },
  {
    name: 'profile business name',
    field: 'companyName',
    send: (bad) => ({
      method: 'PUT',
      url: '/api/profile',
      payload: { lastName: 'Pérez', companyName: bad, whatsappCountryCode: '+52', whatsappLocal: '3312345678', whatsappConsentGiven: true },
      actor: () => seller,
    }),
  },
  {
    name: 'profile WhatsApp number',
    field: 'whatsappLocal',
    send: (bad) => ({
      method: 'PUT',
      url: '/api/profile',
      payload: { lastName: 'Pérez', whatsappCountryCode: '+52', whatsappLocal: `33123${bad}`, whatsappConsentGiven: true },
      actor: () => seller,
    }),
  },
  {
    name: 'user companyId',
    field: 'companyId',
    send: (bad) => ({ method: 'PUT', url: `/api/users/${seller.id}`, payload: { companyId: bad }, actor: () => admin }),
  },
  {
    name: 'company search box',
    isQuery: true,
    field: 'search',
    send: (bad) => ({ method: 'GET', url: `/api/companies?search=${query(bad)}`, actor: () => admin }),
  },
  { name: 'company id', isQuery: true, field: 'id', send: (bad) => ({ method: 'GET', url: `/api/companies/${query(bad)}`, actor: () => admin }) },
  { name: 'company name', field: 'name', send: (bad) => ({ method: 'PUT', url: '/api/companies/tienda', payload: { name: bad }, actor: () => admin }) },
  {
    name: 'company legal name',
    field: 'legalName',
    send: (bad) => ({ method: 'PUT', url: '/api/companies/tienda', payload: { name: 'Tienda', legalName: bad }, actor: () => admin }),
  },
  {
    name: 'shipping carrier',
    field: 'shippingCarrier',
    send: (bad) => ({
      method: 'POST',
      url: `/api/payments/${paymentId}/update-shipping`,
      payload: { shippingCarrier: bad, shippingCost: 0 },
      actor: () => seller,
    }),
  },
  // The Live Hub's routes.
  {
    name: 'live session title',
    field: 'title',
    send: (bad) => ({ method: 'POST', url: '/api/live-sessions', payload: { title: bad, scheduledAt: Date.UTC(2030, 0, 1) }, actor: () => seller }),
  },
  {
    name: 'live session slug',
    field: 'sellerSlug',
    send: (bad) => ({
      method: 'POST',
      url: '/api/live-sessions',
      payload: { title: 'Show', sellerSlug: bad, scheduledAt: Date.UTC(2030, 0, 1) },
      actor: () => seller,
    }),
  },
  {
    name: 'live session WhatsApp link',
    field: 'whatsappLink',
    send: (bad) => ({ method: 'PUT', url: `/api/live-sessions/${sessionId}`, payload: { whatsappLink: `https://wa.me/${bad}` }, actor: () => seller }),
  },
  {
    name: 'live session cover',
    field: 'coverImageUrl',
    send: (bad) => ({ method: 'PUT', url: `/api/live-sessions/${sessionId}`, payload: { coverImageUrl: `/uploads/${bad}.jpg` }, actor: () => seller }),
  },
  {
    name: 'quick auction name',
    field: 'name',
    send: (bad) => ({ method: 'POST', url: `/api/live-sessions/${sessionId}/quick-auction`, payload: { name: bad, startingPrice: 10 }, actor: () => seller }),
  },
  {
    name: 'quick auction image URL',
    field: 'images.0',
    send: (bad) => ({
      method: 'POST',
      url: `/api/live-sessions/${sessionId}/quick-auction`,
      payload: { name: 'Reloj', startingPrice: 10, images: [`/uploads/${bad}.jpg`] },
      actor: () => seller,
    }),
  },
  {
    name: 'live picker search',
    isQuery: true,
    field: 'q',
    send: (bad) => ({ method: 'GET', url: `/api/live-sessions/${sessionId}/picker?q=${query(bad)}`, actor: () => seller }),
  },
];

describe('NUL and lone surrogates are bad input, with a field message', () => {
  for (const route of ROUTES) {
    it.each(route.isQuery ? BAD.slice(0, 1) : BAD)(`${route.name}: %s`, async (_label, bad) => {
      const req = route.send(bad);
      const res = await server.app.inject({
        method: req.method,
        url: req.url,
        headers: { cookie: req.actor().cookie, origin: server.url },
        ...(req.payload ? { payload: req.payload } : {}),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION', fields: { [route.field]: messages.fields.textInvalid } });
    });
  }

  it('the development sign-in name', async () => {
    for (const [, bad] of BAD) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/auth/dev',
        headers: { origin: server.url },
        payload: { email: 'nuevo@ejemplo.mx', name: bad },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.fields).toEqual({ name: messages.fields.textInvalid });
    }
  });

  it('keeps well-formed text: emoji (surrogate pairs), accents and ñ', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/categories',
      headers: { cookie: admin.cookie, origin: server.url },
      payload: { name: 'Relojería 🕰️ Ñandú' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('Relojería 🕰️ Ñandú');
  });
});
