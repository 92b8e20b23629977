import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invitation } from '../../../../src/domain/invitation-rules.js';
import { userProfiles } from '../../../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { signInWithGoogle } from '../../../support/google-flow.js';
import { type MockGoogle, startMockGoogle } from '../../../support/mock-google.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * A company admin's invitation answers the same whoever holds the address: a stranger, a buyer, a
 * platform admin, a member of the company, another company's seller or admin, a seller who is a
 * company of their own, or an address another company already invited. Nothing the admin receives
 * says which, nor carries anything from that person's profile.
 */
let google: MockGoogle;
let server: TestServer;
let adminA: Actor;
let adminB: Actor;

/** Everything in these profiles is private to their owners: none of it may reach company A's admin. */
const PROFILES = {
  buyer: { email: 'pedro.privado@gmail.com', firstName: 'Pedrito', lastName: 'Zubiaurre', whatsapp: '+523398765432', companyName: 'Tienda Pedrito' },
  platform: { email: 'plata.forma@martillo.mx', firstName: 'Plácido', lastName: 'Fontanarrosa', whatsapp: '+525511112222', companyName: null },
  member: { email: 'miembro@ejemplo.mx', firstName: 'Mireya', lastName: 'Echeverría', whatsapp: '+525533334444', companyName: null },
  otherSeller: { email: 'vende.b@ejemplo.mx', firstName: 'Valeriano', lastName: 'Berrocal', whatsapp: '+528155556666', companyName: null },
  otherAdmin: { email: 'jefe.b@ejemplo.mx', firstName: 'Jacinto', lastName: 'Bocanegra', whatsapp: '+523377778888', companyName: null },
  soloSeller: { email: 'solo@ejemplo.mx', firstName: 'Solomon', lastName: 'Iturbide', whatsapp: '+526699990000', companyName: 'Solo Subastas' },
} as const;
type Kind = keyof typeof PROFILES | 'stranger' | 'invitedElsewhere';
const ADDRESSES: Record<Kind, string> = {
  ...Object.fromEntries(Object.entries(PROFILES).map(([k, p]) => [k, p.email])),
  stranger: 'nadie.todavia@gmail.com',
  invitedElsewhere: 'invitada.por.b@gmail.com',
} as Record<Kind, string>;
const KINDS = Object.keys(ADDRESSES) as Kind[];
const ROLES: Record<keyof typeof PROFILES, { roles: ('admin' | 'seller' | 'buyer')[]; companyId: string | null }> = {
  buyer: { roles: ['buyer'], companyId: null },
  platform: { roles: ['admin'], companyId: null },
  member: { roles: ['buyer', 'seller'], companyId: 'empresa-a' },
  otherSeller: { roles: ['seller'], companyId: 'empresa-b' },
  otherAdmin: { roles: ['admin', 'seller'], companyId: 'empresa-b' },
  soloSeller: { roles: ['seller'], companyId: null },
};
const accounts: Partial<Record<keyof typeof PROFILES, string>> = {};

beforeAll(async () => {
  google = await startMockGoogle();
  server = await startTestServer({ env: { OIDC_ISSUER: google.issuer, GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CLIENT_SECRET: google.clientSecret } });
  adminA = await buildActor(server, { email: 'admin.a@ejemplo.mx', name: 'Ana Admin', roles: ['admin', 'seller'], companyId: 'empresa-a' });
  adminB = await buildActor(server, { email: 'admin.b@ejemplo.mx', name: 'Beto Admin', roles: ['admin', 'seller'], companyId: 'empresa-b' });
  for (const [kind, p] of Object.entries(PROFILES) as [keyof typeof PROFILES, (typeof PROFILES)[keyof typeof PROFILES]][]) {
    const actor = await buildActor(server, {
      email: p.email,
      name: `${p.firstName} ${p.lastName}`,
      ...ROLES[kind],
      completeProfile: true,
      whatsapp: p.whatsapp,
    });
    await server.ctx.db
      .update(userProfiles)
      .set({ firstName: p.firstName, lastName: p.lastName, companyName: p.companyName })
      .where(eq(userProfiles.userId, actor.id));
    accounts[kind] = actor.id;
  }
  expect((await injectAs(server, adminB, 'POST', '/api/invitations', { email: ADDRESSES.invitedElsewhere })).statusCode).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await google?.stop();
});

/** The answer with what differs by nature (its id, the address typed, the clock) replaced by placeholders. */
function shape(res: LightMyRequestResponse, email: string): unknown {
  const body = res.json() as Record<string, unknown>;
  const text = JSON.stringify(body).replaceAll(email, '<email>');
  const out = JSON.parse(text) as Record<string, unknown>;
  if (typeof out.id === 'string') out.id = '<id>';
  if (typeof out.createdAt === 'number' && typeof out.expiresAt === 'number') {
    out.expiresAt = out.expiresAt - out.createdAt;
    out.createdAt = '<now>';
  }
  return { status: res.statusCode, contentType: res.headers['content-type'], body: out };
}

/** Every value of the private profiles, and the ids and companies the admin has no business learning. */
function privateValues(): string[] {
  const values: string[] = [];
  for (const [kind, p] of Object.entries(PROFILES)) {
    values.push(p.firstName, p.lastName, p.whatsapp, p.whatsapp.slice(3), accounts[kind as keyof typeof PROFILES] as string);
    if (p.companyName) values.push(p.companyName);
  }
  return [...values, 'empresa-b', 'Beto'];
}

describe('inviting an address', () => {
  it('answers the same, status and body, whoever holds it', async () => {
    const first = new Map<Kind, unknown>();
    const raw: string[] = [];
    for (const kind of KINDS) {
      const res = await injectAs(server, adminA, 'POST', '/api/invitations', { email: ADDRESSES[kind] });
      raw.push(res.body);
      first.set(kind, shape(res, ADDRESSES[kind]));
    }
    const expected = {
      status: 201,
      contentType: 'application/json; charset=utf-8',
      body: {
        id: '<id>',
        email: '<email>',
        companyId: 'empresa-a',
        companyName: 'empresa-a',
        invitedByName: 'Ana',
        createdAt: '<now>',
        expiresAt: 7 * 24 * 60 * 60 * 1000,
        status: 'pending',
      },
    };
    for (const kind of KINDS) expect(first.get(kind), kind).toEqual(expected);

    // Inviting again is refused the same way for every one of them: only A's own invitation counts.
    const again = new Map<Kind, unknown>();
    for (const kind of KINDS) {
      const res = await injectAs(server, adminA, 'POST', '/api/invitations', { email: ADDRESSES[kind] });
      raw.push(res.body);
      again.set(kind, shape(res, ADDRESSES[kind]));
    }
    for (const kind of KINDS) expect(again.get(kind), kind).toEqual(again.get('stranger'));
    expect((again.get('stranger') as { status: number }).status).toBe(409);

    // The list shows each the same way too, and nothing private anywhere in what the admin got.
    const list = await injectAs(server, adminA, 'GET', '/api/invitations');
    raw.push(list.body);
    const rows = (list.json() as { items: Invitation[] }).items;
    expect(rows.map((r) => r.email).sort()).toEqual(Object.values(ADDRESSES).sort());
    const rowShapes = rows.map((r) => {
      const { id: _id, email: _email, createdAt, expiresAt, ...rest } = r;
      return { ...rest, ttl: expiresAt - createdAt };
    });
    for (const s of rowShapes) expect(s).toEqual(rowShapes[0]);
    for (const value of privateValues()) {
      for (const body of raw) expect(body, `"${value}" reached company A's admin`).not.toContain(value);
    }
  });

  it("keeps an invited person out of the company's users until they accept, whatever they do at sign-in", async () => {
    const email = 'firma.sin.aceptar@gmail.com';
    expect((await injectAs(server, adminA, 'POST', '/api/invitations', { email })).statusCode).toBe(201);
    const flow = await signInWithGoogle(server.url, google, { identity: { email, name: 'Fermín Reservado', given_name: 'Fermín', family_name: 'Reservado' } });
    expect(flow.sessionCookie).toBeDefined();
    await server.ctx.db
      .update(userProfiles)
      .set({ lastName: 'Reservado', whatsapp: '+523312121212', whatsappConsentGiven: true })
      .where(eq(userProfiles.email, email));
    const usersList = await injectAs(server, adminA, 'GET', '/api/users?pageSize=100');
    const invitations = await injectAs(server, adminA, 'GET', '/api/invitations');
    for (const body of [usersList.body, invitations.body]) {
      for (const value of ['Fermín', 'Reservado', '+523312121212', '3312121212']) expect(body).not.toContain(value);
    }
    expect(usersList.body).not.toContain(email);
    expect((invitations.json() as { items: Invitation[] }).items.find((i) => i.email === email)?.status).toBe('pending');
    // Nor is anyone else's: only A's own people are in A's list.
    for (const kind of ['buyer', 'platform', 'otherSeller', 'otherAdmin', 'soloSeller'] as const) {
      expect(usersList.body).not.toContain(PROFILES[kind].email);
    }
  });
});
