import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../../src/domain/role-rules.js';
import type { UserListItem, UserListResponse } from '../../../../src/domain/users.js';
import { auctions, auditLog, userProfiles } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { signInAs } from '../../../support/actors.js';
import { buildAuction, buildUser } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

const UNKNOWN_ID = '3f1c2b4a-8d6e-4f7a-9b0c-1d2e3f4a5b6c';

/** One server with a set of signed-in actors; `signedOut` sends no cookie. */
function useServer() {
  const ctx = {
    server: undefined as unknown as TestServer,
    cookies: { signedOut: undefined } as Record<string, string | undefined>,
    ids: {} as Record<string, string>,
  };
  beforeAll(async () => {
    ctx.server = await startTestServer();
  });
  afterAll(async () => ctx.server?.close());
  return {
    get server() {
      return ctx.server;
    },
    ids: ctx.ids,
    /** Signs in through the development form (the first account becomes admin), then sets roles and company. */
    async actor(key: string, profile: { roles: Role[]; companyId: string | null }) {
      const signed = await signInAs(ctx.server, {
        email: `${key.toLowerCase()}@ejemplo.mx`,
        name: `Prueba ${key}`,
        roles: profile.roles,
        companyId: profile.companyId,
      });
      const userId = signed.id;
      ctx.cookies[key] = signed.cookie;
      ctx.ids[key] = userId;
      return userId;
    },
    send(method: 'GET' | 'PUT', url: string, actor: string, payload?: object) {
      const cookie = ctx.cookies[actor];
      return ctx.server.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
    },
    async profile(userId: string) {
      const [row] = await ctx.server.ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, userId));
      return row;
    },
    audits(userId: string, action: string) {
      return ctx.server.ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityType, 'user'), eq(auditLog.entityId, userId), eq(auditLog.action, action)))
        .orderBy(auditLog.id);
    },
  };
}

describe('users API', () => {
  const t = useServer();
  const list = async (query: string, actor = 'platform') => {
    const res = await t.send('GET', `/api/users${query}`, actor);
    expect(res.statusCode).toBe(200);
    return res.json() as UserListResponse;
  };
  const uids = (body: UserListResponse) => body.items.map((u) => u.uid);

  beforeAll(async () => {
    await t.actor('platform', { roles: ['admin', 'buyer'], companyId: null });
    await t.actor('companyAdminA', { roles: ['admin', 'seller'], companyId: 'empresa-a' });
    await t.actor('sellerA', { roles: ['seller'], companyId: 'empresa-a' });
    await t.actor('sellerB', { roles: ['seller'], companyId: 'empresa-b' });
    await t.actor('buyer', { roles: ['buyer'], companyId: null });
  });

  describe('who may do what', () => {
    it.each([
      ['signedOut', 401, 'UNAUTHENTICATED'],
      ['buyer', 403, 'FORBIDDEN'],
      ['sellerA', 403, 'FORBIDDEN'],
      ['sellerB', 403, 'FORBIDDEN'],
    ] as const)('refuses %s every users route (%i)', async (actor, status, code) => {
      const target = t.ids.sellerA as string;
      for (const res of [
        await t.send('GET', '/api/users', actor),
        await t.send('PUT', `/api/users/${target}/roles`, actor, { roles: ['admin'] }),
        await t.send('PUT', `/api/users/${target}`, actor, { companyId: 'empresa-b' }),
        // Invalid input still answers 401/403: the role is checked before the body.
        await t.send('PUT', `/api/users/${target}/roles`, actor, { roles: 'x' }),
      ]) {
        expect(res.statusCode).toBe(status);
        expect(res.json().error.code).toBe(code);
      }
      expect(await t.profile(target)).toMatchObject({ roles: ['seller'], companyId: 'empresa-a' });
    });

    it('shows a company admin only the users of its company, itself included', async () => {
      const body = await list('?pageSize=100', 'companyAdminA');
      expect(uids(body).sort()).toEqual([t.ids.companyAdminA, t.ids.sellerA].sort());
      expect(body.total).toBe(2);
      expect(body.items.every((u) => u.companyId === 'empresa-a')).toBe(true);
      expect((await list('?search=sellerb', 'companyAdminA')).total).toBe(0);
    });

    it('shows a platform admin every user', async () => {
      const [{ n } = { n: 0 }] = await t.server.ctx.db.select({ n: sql<number>`count(*)::int` }).from(userProfiles);
      const body = await list('?pageSize=100');
      expect(body.total).toBe(n);
      expect(uids(body)).toEqual(expect.arrayContaining(Object.values(t.ids)));
    });

    it('lets a company admin change roles in its company, and nowhere else (404, as for an unknown id)', async () => {
      const ok = await t.send('PUT', `/api/users/${t.ids.sellerA}/roles`, 'companyAdminA', { roles: ['seller', 'buyer'] });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ uid: t.ids.sellerA, roles: ['seller', 'buyer'], companyId: 'empresa-a' });
      const unknown = await t.send('PUT', `/api/users/${UNKNOWN_ID}/roles`, 'companyAdminA', { roles: ['buyer'] });
      expect(unknown.statusCode).toBe(404);
      for (const target of [t.ids.sellerB, t.ids.platform, t.ids.buyer]) {
        const res = await t.send('PUT', `/api/users/${target}/roles`, 'companyAdminA', { roles: ['buyer'] });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(unknown.json());
      }
      expect((await t.profile(t.ids.sellerB as string))?.roles).toEqual(['seller']);
      expect((await t.profile(t.ids.platform as string))?.roles).toEqual(['admin', 'buyer']);
    });

    it('never lets a company admin change a companyId (403)', async () => {
      for (const target of [t.ids.sellerA, t.ids.sellerB, t.ids.companyAdminA]) {
        const res = await t.send('PUT', `/api/users/${target}`, 'companyAdminA', { companyId: 'empresa-b' });
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toEqual({ code: 'FORBIDDEN', message: messages.users.platformOnly });
      }
      expect((await t.profile(t.ids.sellerA as string))?.companyId).toBe('empresa-a');
    });

    it('lets a platform admin change anyone', async () => {
      const roles = await t.send('PUT', `/api/users/${t.ids.sellerB}/roles`, 'platform', { roles: ['seller', 'buyer'] });
      expect(roles.statusCode).toBe(200);
      const company = await t.send('PUT', `/api/users/${t.ids.sellerB}`, 'platform', { companyId: 'empresa-b2' });
      expect(company.statusCode).toBe(200);
      expect(company.json()).toMatchObject({ uid: t.ids.sellerB, roles: ['seller', 'buyer'], companyId: 'empresa-b2' });
      await t.send('PUT', `/api/users/${t.ids.sellerB}`, 'platform', { companyId: 'empresa-b' });
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const res of [
        await t.send('PUT', `/api/users/${UNKNOWN_ID}/roles`, 'platform', { roles: ['buyer'] }),
        await t.send('PUT', `/api/users/${UNKNOWN_ID}`, 'platform', { companyId: 'x' }),
        await t.send('PUT', '/api/users/no-es-un-uuid/roles', 'platform', { roles: ['buyer'] }),
        await t.send('PUT', '/api/users/123', 'platform', { companyId: null }),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('NOT_FOUND');
      }
    });
  });

  describe('list', () => {
    it('filters by role', async () => {
      const db = t.server.ctx.db;
      const [seller, admin, buyer, both] = [
        await buildUser(db, { email: 'filtro-1@ejemplo.mx', roles: ['seller'] }),
        await buildUser(db, { email: 'filtro-2@ejemplo.mx', roles: ['admin'], companyId: 'empresa-filtro' }),
        await buildUser(db, { email: 'filtro-3@ejemplo.mx', roles: ['buyer'] }),
        await buildUser(db, { email: 'filtro-4@ejemplo.mx', roles: ['seller', 'buyer'] }),
      ].map((u) => u.id);
      const ids = async (role: string) => uids(await list(`?search=filtro-&role=${role}`)).sort();
      expect(await ids('seller')).toEqual([seller, both].sort());
      expect(await ids('admin')).toEqual([admin]);
      expect(await ids('buyer')).toEqual([buyer, both].sort());
      expect(await ids('all')).toEqual([seller, admin, buyer, both].sort());
      expect((await t.send('GET', '/api/users?role=root', 'platform')).statusCode).toBe(400);
    });

    it('searches email, names, company and WhatsApp, ignoring case and accents', async () => {
      const user = await buildUser(t.server.ctx.db, { email: 'jose.hdz@ejemplo.mx', companyId: 'acme-mx' });
      await t.server.ctx.db
        .update(userProfiles)
        .set({ firstName: 'José', lastName: 'Hernández', displayName: 'Pepe Subastero', companyName: 'Antigüedades Ñuñoa', whatsapp: '+523312345678' })
        .where(eq(userProfiles.userId, user.id));
      for (const search of [
        'hernandez',
        'HERNÁNDEZ',
        'jose hernandez',
        'pepe subastero',
        'antiguedades nunoa',
        'ÑUÑOA',
        'ACME-MX',
        'jose.hdz@',
        '33 1234 5678',
        '+52 331',
      ]) {
        const body = await list(`?search=${encodeURIComponent(search)}`);
        expect(uids(body), search).toEqual([user.id]);
      }
      expect((await list(`?search=${encodeURIComponent('%')}`)).total).toBe(0);
      expect((await list(`?search=${encodeURIComponent('jose_hdz')}`)).total).toBe(0);
    });

    it('pages newest first', async () => {
      const made: string[] = [];
      for (let i = 1; i <= 5; i++) made.push((await buildUser(t.server.ctx.db, { email: `pagina-${i}@ejemplo.mx` })).id);
      const newestFirst = [...made].reverse();
      const pages = [
        await list('?search=pagina-&pageSize=2&page=1'),
        await list('?search=pagina-&pageSize=2&page=2'),
        await list('?search=pagina-&pageSize=2&page=3'),
      ];
      expect(pages.map((p) => [p.total, p.page, p.pageSize])).toEqual([
        [5, 1, 2],
        [5, 2, 2],
        [5, 3, 2],
      ]);
      expect(pages.flatMap(uids)).toEqual(newestFirst);
      expect((await list('?search=pagina-&pageSize=2&page=4')).items).toEqual([]);
      expect((await t.send('GET', '/api/users?pageSize=0', 'platform')).statusCode).toBe(400);
    });

    it('answers SPEC user list items', async () => {
      const [item] = (await list(`?search=${encodeURIComponent('companyadmina@')}`)).items as UserListItem[];
      expect(item).toEqual({
        uid: t.ids.companyAdminA,
        displayName: 'Prueba companyAdminA',
        firstName: 'Prueba',
        lastName: 'companyAdminA',
        email: 'companyadmina@ejemplo.mx',
        whatsapp: null,
        whatsappConsentGiven: false,
        roles: ['admin', 'seller'],
        companyId: 'empresa-a',
        // Its company's record, created with the id as name when the id was first seen.
        companyName: 'empresa-a',
        createdAt: expect.any(Number),
      });
    });
  });

  describe('roles', () => {
    it('saves roles once each, in a fixed order, and audits the change', async () => {
      const user = await buildUser(t.server.ctx.db, { roles: ['buyer'] });
      const res = await t.send('PUT', `/api/users/${user.id}/roles`, 'platform', { roles: ['buyer', 'seller', 'seller'] });
      expect(res.statusCode).toBe(200);
      expect(res.json().roles).toEqual(['seller', 'buyer']);
      // The same roles again change nothing and record nothing.
      const again = await t.send('PUT', `/api/users/${user.id}/roles`, 'platform', { roles: ['seller', 'buyer'] });
      expect(again.statusCode).toBe(200);
      const rows = await t.audits(user.id, 'user.roles');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actorId: t.ids.platform, before: { roles: ['buyer'] }, after: { roles: ['seller', 'buyer'] }, ip: expect.any(String) });
    });

    it('allows no roles at all, which means no access', async () => {
      const userId = await t.actor('sinRoles', { roles: ['seller'], companyId: null });
      const res = await t.send('PUT', `/api/users/${userId}/roles`, 'platform', { roles: [] });
      expect(res.statusCode).toBe(200);
      expect(res.json().roles).toEqual([]);
      expect((await t.send('GET', '/api/me', 'sinRoles')).json().roles).toEqual([]);
    });

    it('applies new roles to the user’s very next request', async () => {
      const userId = await t.actor('promovido', { roles: ['buyer'], companyId: null });
      expect((await t.send('GET', '/api/users', 'promovido')).statusCode).toBe(403);
      await t.send('PUT', `/api/users/${userId}/roles`, 'platform', { roles: ['admin', 'buyer'] });
      expect((await t.send('GET', '/api/users', 'promovido')).statusCode).toBe(200);
      await t.send('PUT', `/api/users/${userId}/roles`, 'platform', { roles: ['buyer'] });
      expect((await t.send('GET', '/api/users', 'promovido')).statusCode).toBe(403);
    });

    it.each([
      ['an unknown role', { roles: ['root'] }],
      ['a string', { roles: 'admin' }],
      ['no roles field', {}],
    ])('rejects %s', async (_label, payload) => {
      const res = await t.send('PUT', `/api/users/${t.ids.buyer}/roles`, 'platform', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION');
    });

    it('names the roles field in Spanish', async () => {
      const res = await t.send('PUT', `/api/users/${t.ids.buyer}/roles`, 'platform', { roles: 'admin' });
      expect(res.json().error.fields).toEqual({ roles: messages.fields.rolesInvalid });
    });
  });

  describe('company', () => {
    it('sets, trims and clears a companyId, auditing each change', async () => {
      const user = await buildUser(t.server.ctx.db);
      const set = await t.send('PUT', `/api/users/${user.id}`, 'platform', { companyId: '  empresa-c  ' });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({ uid: user.id, companyId: 'empresa-c' });
      const cleared = await t.send('PUT', `/api/users/${user.id}`, 'platform', { companyId: '' });
      expect(cleared.json().companyId).toBeNull();
      const unchanged = await t.send('PUT', `/api/users/${user.id}`, 'platform', { companyId: null });
      expect(unchanged.statusCode).toBe(200);
      const rows = await t.audits(user.id, 'user.company');
      expect(rows.map((r) => [r.actorId, r.before, r.after])).toEqual([
        [t.ids.platform, { companyId: null }, { companyId: 'empresa-c' }],
        [t.ids.platform, { companyId: 'empresa-c' }, { companyId: null }],
      ]);
    });

    it.each([
      ['spaces inside', 'empresa c', messages.fields.companyIdInvalid],
      ['a slash', 'a/b', messages.fields.companyIdInvalid],
      ['a number', 7, messages.fields.companyIdInvalid],
      ['a very long id', 'x'.repeat(65), messages.fields.tooLong],
    ])('rejects %s', async (_label, companyId, message) => {
      const res = await t.send('PUT', `/api/users/${t.ids.buyer}`, 'platform', { companyId });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({ companyId: message });
    });

    it('does not let a joining user’s business name rename an existing company (its record is the company’s name)', async () => {
      const user = await buildUser(t.server.ctx.db);
      await t.server.ctx.db.update(userProfiles).set({ companyName: 'Subastas Rosa' }).where(eq(userProfiles.userId, user.id));
      const auction = await buildAuction(t.server.ctx.db, { name: 'Lámpara', companyId: 'empresa-rosa' });
      const res = await t.send('PUT', `/api/users/${user.id}`, 'platform', { companyId: 'empresa-rosa' });
      expect(res.json().companyName).toBe('empresa-rosa');
      const [row] = await t.server.ctx.db.select({ searchText: auctions.searchText }).from(auctions).where(eq(auctions.id, auction.id));
      expect(row?.searchText).not.toContain('subastas rosa');
    });

    it('takes effect on the user’s next request', async () => {
      const userId = await t.actor('adminMovido', { roles: ['admin'], companyId: null });
      expect((await list('?pageSize=100', 'adminMovido')).total).toBeGreaterThan(3);
      await t.send('PUT', `/api/users/${userId}`, 'platform', { companyId: 'empresa-b' });
      expect(uids(await list('?pageSize=100', 'adminMovido')).sort()).toEqual([t.ids.sellerB, userId].sort());
      expect((await t.send('PUT', `/api/users/${userId}`, 'adminMovido', { companyId: null })).statusCode).toBe(403);
    });
  });
});

describe('users API: the last admin', () => {
  const t = useServer();
  const admins = async () =>
    (await t.server.ctx.db.select({ id: userProfiles.userId }).from(userProfiles).where(sql`'admin' = any(${userProfiles.roles})`)).map((r) => r.id);

  it('refuses to remove the admin role from the only admin', async () => {
    const id = await t.actor('unico', { roles: ['admin', 'buyer'], companyId: null });
    const res = await t.send('PUT', `/api/users/${id}/roles`, 'unico', { roles: ['buyer'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({ code: 'CONFLICT', message: messages.users.lastAdmin });
    expect((await t.profile(id))?.roles).toEqual(['admin', 'buyer']);
    expect(await t.audits(id, 'user.roles')).toHaveLength(0);
  });

  it('lets exactly one of two admins demote the other when both try at once', async () => {
    const first = t.ids.unico as string;
    const second = await t.actor('segundo', { roles: ['admin'], companyId: null });
    const results = await Promise.all([
      t.send('PUT', `/api/users/${second}/roles`, 'unico', { roles: ['buyer'] }),
      t.send('PUT', `/api/users/${first}/roles`, 'segundo', { roles: ['buyer'] }),
    ]);
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The loser was still an admin when its request began (409), or already was not (403).
    expect(statuses.filter((s) => s !== 200).every((s) => s === 409 || s === 403)).toBe(true);
    expect(await admins()).toHaveLength(1);
  });

  it('keeps the last platform admin even while a company admin exists, who may step down', async () => {
    const [remaining] = await admins();
    const actor = remaining === t.ids.unico ? 'unico' : 'segundo';
    const companyAdmin = await t.actor('empresa', { roles: ['admin'], companyId: 'empresa-a' });
    const res = await t.send('PUT', `/api/users/${remaining}/roles`, actor, { roles: ['buyer'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(messages.users.lastPlatformAdminRole);
    const stepDown = await t.send('PUT', `/api/users/${companyAdmin}/roles`, 'empresa', { roles: ['seller'] });
    expect(stepDown.statusCode).toBe(200);
    expect(await admins()).toEqual([remaining]);
  });
});

describe('users API: the last platform admin', () => {
  const t = useServer();

  beforeAll(async () => {
    await t.actor('plataforma', { roles: ['admin', 'buyer'], companyId: null });
    await t.actor('adminEmpresa', { roles: ['admin', 'seller'], companyId: 'empresa-a' });
  });

  it('refuses to give the only platform admin a company, or to take its admin role', async () => {
    const id = t.ids.plataforma as string;
    const company = await t.send('PUT', `/api/users/${id}`, 'plataforma', { companyId: 'empresa-a' });
    expect(company.statusCode).toBe(409);
    expect(company.json().error).toEqual({ code: 'CONFLICT', message: messages.users.lastPlatformAdminCompany });
    const roles = await t.send('PUT', `/api/users/${id}/roles`, 'plataforma', { roles: ['buyer'] });
    expect(roles.statusCode).toBe(409);
    expect(roles.json().error.message).toBe(messages.users.lastPlatformAdminRole);
    expect(await t.profile(id)).toMatchObject({ roles: ['admin', 'buyer'], companyId: null });
  });

  it('lets a company admin move to another company or lose the role', async () => {
    const id = t.ids.adminEmpresa as string;
    expect((await t.send('PUT', `/api/users/${id}`, 'plataforma', { companyId: 'empresa-b' })).statusCode).toBe(200);
    expect((await t.send('PUT', `/api/users/${id}/roles`, 'plataforma', { roles: ['seller'] })).statusCode).toBe(200);
  });

  it('lets exactly one of two platform admins give the other a company when both try at once', async () => {
    const first = t.ids.plataforma as string;
    const second = await t.actor('plataforma2', { roles: ['admin'], companyId: null });
    const results = await Promise.all([
      t.send('PUT', `/api/users/${second}`, 'plataforma', { companyId: 'empresa-x' }),
      t.send('PUT', `/api/users/${first}`, 'plataforma2', { companyId: 'empresa-y' }),
    ]);
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 409 || s === 403)).toBe(true);
    const platformAdmins = await t.server.ctx.db
      .select({ id: userProfiles.userId })
      .from(userProfiles)
      .where(sql`'admin' = any(${userProfiles.roles}) and ${userProfiles.companyId} is null`);
    expect(platformAdmins).toHaveLength(1);
  });
});
