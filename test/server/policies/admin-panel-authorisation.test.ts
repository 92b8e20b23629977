import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, buildCategory, signInAs } from '../../support/actors.js';
import { buildAuction } from '../../support/factories.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * Who may call each route of the admin panel (SPEC §6), over six actors. Cross-company
 * reads and writes must fail as "not found", never leak another company's data.
 */
type ActorName = 'signedOut' | 'buyer' | 'sellerA' | 'sellerB' | 'companyAdmin' | 'platformAdmin';
const ACTORS: ActorName[] = ['signedOut', 'buyer', 'sellerA', 'sellerB', 'companyAdmin', 'platformAdmin'];

let server: TestServer;
const actors = {} as Record<Exclude<ActorName, 'signedOut'>, Actor>;
let categoryId: string;
let auctionA: string;
let auctionB: string;
let jpeg: Buffer;

beforeAll(async () => {
  server = await startTestServer({ env: { DATA_DIR: `/tmp/martillo-authz-${randomUUID()}` } });
  actors.platformAdmin = await signInAs(server, { email: 'plataforma@ejemplo.mx', roles: ['admin'] });
  actors.companyAdmin = await signInAs(server, { email: 'jefa-a@ejemplo.mx', roles: ['admin'], companyId: 'empresa-a' });
  actors.sellerA = await signInAs(server, { email: 'vende-a@ejemplo.mx', roles: ['seller'], companyId: 'empresa-a' });
  actors.sellerB = await signInAs(server, { email: 'vende-b@ejemplo.mx', roles: ['seller'], companyId: 'empresa-b' });
  actors.buyer = await signInAs(server, { email: 'compra@ejemplo.mx', roles: ['buyer'] });
  categoryId = await buildCategory(server, 'Relojes');
  jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c0392b' } })
    .jpeg()
    .toBuffer();
});
afterAll(async () => server?.close());

beforeAll(async () => {
  auctionA = (await buildAuction(server.ctx.db, { sellerId: actors.sellerA.id, companyId: 'empresa-a', categoryId })).id;
  auctionB = (await buildAuction(server.ctx.db, { sellerId: actors.sellerB.id, companyId: 'empresa-b', categoryId })).id;
});

const auctionBody = () => ({ name: 'Reloj Casio', description: 'Funciona', categoryId, startingPrice: 300 });

function multipart(file: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----martillo${randomUUID()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="reloj.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

interface Case {
  route: string;
  /** Builds the request for this actor (fresh ids where a success would consume the target). */
  request: (actor: ActorName) => Promise<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: unknown; headers?: Record<string, string> }>;
  expect: Record<ActorName, number>;
}

const freshAuction = async (owner: 'A' | 'B') =>
  (
    await buildAuction(server.ctx.db, {
      sellerId: owner === 'A' ? actors.sellerA.id : actors.sellerB.id,
      companyId: owner === 'A' ? 'empresa-a' : 'empresa-b',
      categoryId,
    })
  ).id;

const CASES: Case[] = [
  {
    route: 'GET /api/categories',
    request: async () => ({ method: 'GET', url: '/api/categories' }),
    expect: { signedOut: 200, buyer: 200, sellerA: 200, sellerB: 200, companyAdmin: 200, platformAdmin: 200 },
  },
  {
    route: 'POST /api/categories',
    request: async () => ({ method: 'POST', url: '/api/categories', payload: { name: `Cat ${randomUUID()}` } }),
    expect: { signedOut: 401, buyer: 403, sellerA: 403, sellerB: 403, companyAdmin: 403, platformAdmin: 201 },
  },
  {
    route: 'PUT /api/categories/{id}',
    request: async () => ({
      method: 'PUT',
      url: `/api/categories/${await buildCategory(server, `Vieja ${randomUUID()}`)}`,
      payload: { name: `Nueva ${randomUUID()}` },
    }),
    expect: { signedOut: 401, buyer: 403, sellerA: 403, sellerB: 403, companyAdmin: 403, platformAdmin: 200 },
  },
  {
    route: 'DELETE /api/categories/{id}',
    request: async () => ({ method: 'DELETE', url: `/api/categories/${await buildCategory(server, `Borrar ${randomUUID()}`)}` }),
    expect: { signedOut: 401, buyer: 403, sellerA: 403, sellerB: 403, companyAdmin: 403, platformAdmin: 200 },
  },
  {
    route: 'GET /api/users',
    request: async () => ({ method: 'GET', url: '/api/users' }),
    expect: { signedOut: 401, buyer: 403, sellerA: 403, sellerB: 403, companyAdmin: 200, platformAdmin: 200 },
  },
  {
    route: 'PUT /api/users/{id}/roles (a seller of company A)',
    request: async () => ({ method: 'PUT', url: `/api/users/${actors.sellerA.id}/roles`, payload: { roles: ['seller'] } }),
    expect: { signedOut: 401, buyer: 403, sellerA: 403, sellerB: 403, companyAdmin: 200, platformAdmin: 200 },
  },
  {
    route: 'PUT /api/users/{id}/roles (a seller of company B)',
    request: async () => ({ method: 'PUT', url: `/api/users/${actors.sellerB.id}/roles`, payload: { roles: ['seller'] } }),
    expect: { signedOut: 401, buyer: 403, sellerA: 403, sellerB: 403, companyAdmin: 404, platformAdmin: 200 },
  },
  {
    route: 'PUT /api/users/{id} (companyId)',
    request: async () => ({ method: 'PUT', url: `/api/users/${actors.buyer.id}`, payload: { companyId: null } }),
    expect: { signedOut: 401, buyer: 403, sellerA: 403, sellerB: 403, companyAdmin: 403, platformAdmin: 200 },
  },
  {
    route: 'GET /api/auctions',
    request: async () => ({ method: 'GET', url: '/api/auctions' }),
    expect: { signedOut: 401, buyer: 403, sellerA: 200, sellerB: 200, companyAdmin: 200, platformAdmin: 200 },
  },
  {
    route: 'GET /api/auctions/counts',
    request: async () => ({ method: 'GET', url: '/api/auctions/counts' }),
    expect: { signedOut: 401, buyer: 403, sellerA: 200, sellerB: 200, companyAdmin: 200, platformAdmin: 200 },
  },
  {
    route: 'POST /api/auctions',
    request: async () => ({ method: 'POST', url: '/api/auctions', payload: auctionBody() }),
    expect: { signedOut: 401, buyer: 403, sellerA: 201, sellerB: 201, companyAdmin: 201, platformAdmin: 201 },
  },
  {
    route: 'GET /api/auctions/{id}',
    request: async () => ({ method: 'GET', url: `/api/auctions/${auctionA}` }),
    expect: { signedOut: 200, buyer: 200, sellerA: 200, sellerB: 200, companyAdmin: 200, platformAdmin: 200 },
  },
  {
    route: 'PUT /api/auctions/{id} (company A)',
    request: async () => ({ method: 'PUT', url: `/api/auctions/${auctionA}`, payload: auctionBody() }),
    expect: { signedOut: 401, buyer: 403, sellerA: 200, sellerB: 404, companyAdmin: 200, platformAdmin: 200 },
  },
  {
    route: 'PUT /api/auctions/{id} (company B)',
    request: async () => ({ method: 'PUT', url: `/api/auctions/${auctionB}`, payload: auctionBody() }),
    expect: { signedOut: 401, buyer: 403, sellerA: 404, sellerB: 200, companyAdmin: 404, platformAdmin: 200 },
  },
  {
    route: 'DELETE /api/auctions/{id} (company A)',
    request: async () => ({ method: 'DELETE', url: `/api/auctions/${await freshAuction('A')}` }),
    expect: { signedOut: 401, buyer: 403, sellerA: 200, sellerB: 404, companyAdmin: 200, platformAdmin: 200 },
  },
  {
    route: 'DELETE /api/auctions/{id} (company B)',
    request: async () => ({ method: 'DELETE', url: `/api/auctions/${await freshAuction('B')}` }),
    expect: { signedOut: 401, buyer: 403, sellerA: 404, sellerB: 200, companyAdmin: 404, platformAdmin: 200 },
  },
  {
    route: 'POST /api/uploads',
    request: async () => ({ method: 'POST', url: '/api/uploads', ...multipart(jpeg) }),
    expect: { signedOut: 401, buyer: 403, sellerA: 201, sellerB: 201, companyAdmin: 201, platformAdmin: 201 },
  },
];

describe('authorisation matrix of the admin panel routes', () => {
  for (const testCase of CASES) {
    it(testCase.route, async () => {
      const got: Record<string, number> = {};
      for (const actor of ACTORS) {
        const req = await testCase.request(actor);
        const cookie = actor === 'signedOut' ? undefined : actors[actor].cookie;
        const res = await server.app.inject({
          method: req.method,
          url: req.url,
          headers: { ...(cookie ? { cookie } : {}), ...req.headers },
          ...(req.payload !== undefined ? { payload: req.payload as Buffer } : {}),
        });
        got[actor] = res.statusCode;
        // A refused cross-company request says nothing about the other company's auction.
        if (res.statusCode === 404) expect(res.body).not.toContain('empresa-b');
      }
      expect(got).toEqual(testCase.expect);
    });
  }

  it("never lists another company's auctions", async () => {
    const list = async (actor: Exclude<ActorName, 'signedOut'>) =>
      (await server.app.inject({ method: 'GET', url: '/api/auctions?pageSize=100', headers: { cookie: actors[actor].cookie } })).json().items as {
        id: string;
        companyId: string;
        sellerId: string | null;
      }[];
    expect((await list('sellerA')).every((a) => a.sellerId === actors.sellerA.id)).toBe(true);
    expect((await list('sellerB')).every((a) => a.sellerId === actors.sellerB.id)).toBe(true);
    expect((await list('companyAdmin')).every((a) => a.companyId === 'empresa-a' || a.sellerId === actors.companyAdmin.id)).toBe(true);
    expect((await list('companyAdmin')).map((a) => a.id)).not.toContain(auctionB);
    expect((await list('platformAdmin')).map((a) => a.id)).toEqual(expect.arrayContaining([auctionA, auctionB]));
    const users = (await server.app.inject({ method: 'GET', url: '/api/users', headers: { cookie: actors.companyAdmin.cookie } })).json().items as {
      companyId: string | null;
    }[];
    expect(users.every((u) => u.companyId === 'empresa-a')).toBe(true);
  });

  it('refuses a state change from another site', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auctions',
      headers: { cookie: actors.sellerA.cookie, origin: 'https://evil.example' },
      payload: auctionBody(),
    });
    expect(res.statusCode).toBe(403);
  });
});
