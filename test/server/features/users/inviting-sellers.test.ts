import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invitation, InvitationListResponse } from '../../../../src/domain/invitation-rules.js';
import { auditLog, invitations, userProfiles, users } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { me, signInWithGoogle } from '../../../support/google-flow.js';
import { type MockGoogle, startMockGoogle } from '../../../support/mock-google.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

let google: MockGoogle;
let server: TestServer;
const actors: Record<string, Actor | null> = { signedOut: null };

beforeAll(async () => {
  google = await startMockGoogle();
  server = await startTestServer({ env: { OIDC_ISSUER: google.issuer, GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CLIENT_SECRET: google.clientSecret } });
  const make = (email: string, roles: Parameters<typeof buildActor>[1]['roles'], companyId: string | null) =>
    buildActor(server, { email, name: email.split('@')[0] as string, roles, companyId });
  actors.platform = await make('plataforma@martillo.mx', ['admin'], null);
  actors.adminA = await make('admin.a@ejemplo.mx', ['admin', 'seller'], 'empresa-a');
  actors.adminB = await make('admin.b@ejemplo.mx', ['admin', 'seller'], 'empresa-b');
  actors.sellerA = await make('vendedor.a@ejemplo.mx', ['seller'], 'empresa-a');
  actors.buyer = await make('comprador@ejemplo.mx', ['buyer'], null);
});
afterAll(async () => {
  await server?.close();
  await google?.stop();
});

function send(method: 'GET' | 'POST' | 'DELETE', url: string, actor: string, payload?: object): Promise<LightMyRequestResponse> {
  const who = actors[actor];
  return server.app.inject({
    method,
    url,
    headers: { ...(who ? { cookie: who.cookie } : {}), ...(method === 'GET' ? {} : { origin: server.url }) },
    ...(payload ? { payload } : {}),
  });
}

async function invite(actor: string, payload: object): Promise<Invitation> {
  const res = await send('POST', '/api/invitations', actor, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Invitation;
}

async function pending(actor: string, query = ''): Promise<Invitation[]> {
  const res = await send('GET', `/api/invitations${query}`, actor);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as InvitationListResponse).items;
}

const errorOf = (res: LightMyRequestResponse) => (res.json() as { error: { code: string; message: string; fields?: Record<string, string> } }).error;

async function profileOf(email: string) {
  const [row] = await server.ctx.db
    .select({ id: users.id, roles: userProfiles.roles, companyId: userProfiles.companyId })
    .from(users)
    .innerJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.email, email));
  return row;
}

describe('inviting a seller', () => {
  it('a company admin invites into its own company: the address is normalised and the invitation listed as pending', async () => {
    const created = await invite('adminA', { email: '  Nuevo.Vendedor@Gmail.COM ' });
    expect(created).toMatchObject({ email: 'nuevo.vendedor@gmail.com', companyId: 'empresa-a', companyName: 'empresa-a', status: 'pending' });
    expect(created.invitedByName).toBe('admin.a');
    expect(created.expiresAt - created.createdAt).toBe(7 * 24 * 60 * 60 * 1000);
    expect((await pending('adminA')).map((i) => i.email)).toContain('nuevo.vendedor@gmail.com');
    const audits = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'invitation'), eq(auditLog.entityId, created.id)));
    expect(audits.map((a) => a.action)).toEqual(['invitation.create']);
  });

  it('the invited person joins only by accepting, and a used invitation does not bring them back', async () => {
    const sent = await invite('adminA', { email: 'lucia.gomez@gmail.com' });
    const flow = await signInWithGoogle(server.url, google, { identity: { email: 'Lucia.Gomez@gmail.com', name: 'Lucía Gómez' } });
    expect((await (await me(server.url, flow.sessionCookie)).json()).roles).toEqual(['buyer']);
    const accepted = await server.app.inject({
      method: 'POST',
      url: `/api/invitations/${sent.id}/accept`,
      headers: { cookie: flow.sessionCookie as string, origin: server.url },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const body = await (await me(server.url, flow.sessionCookie)).json();
    expect(body.roles).toEqual(['buyer', 'seller']);
    expect(body.profile.companyId).toBe('empresa-a');
    expect((await pending('adminA')).map((i) => i.email)).not.toContain('lucia.gomez@gmail.com');
    const [row] = await server.ctx.db.select().from(invitations).where(eq(invitations.email, 'lucia.gomez@gmail.com'));
    expect(row?.acceptedBy).toBe(body.user.id);
    // A platform admin moving her out does not let the used invitation bring her back at the next sign-in.
    await server.ctx.db
      .update(userProfiles)
      .set({ companyId: null, roles: ['buyer'] })
      .where(eq(userProfiles.userId, body.user.id));
    const next = await signInWithGoogle(server.url, google, { identity: { email: 'lucia.gomez@gmail.com', name: 'Lucía Gómez' } });
    expect((await (await me(server.url, next.sessionCookie)).json()).roles).toEqual(['buyer']);
  });

  it('a revoked invitation is not offered at sign-in, and revoking twice is harmless', async () => {
    const created = await invite('adminA', { email: 'revocada@gmail.com' });
    expect((await send('DELETE', `/api/invitations/${created.id}`, 'adminA')).statusCode).toBe(204);
    expect((await pending('adminA')).map((i) => i.id)).not.toContain(created.id);
    const flow = await signInWithGoogle(server.url, google, { identity: { email: 'revocada@gmail.com', name: 'Rosa Vega' } });
    const body = await (await me(server.url, flow.sessionCookie)).json();
    expect(body.roles).toEqual(['buyer']);
    expect(body.profile.companyId).toBeNull();
    const offered = await server.app.inject({ method: 'GET', url: '/api/me/invitations', headers: { cookie: flow.sessionCookie as string } });
    expect(offered.json()).toEqual({ items: [] });
    expect((await send('DELETE', `/api/invitations/${created.id}`, 'adminA')).statusCode).toBe(204);
  });

  it('an expired invitation is listed as expired and may be sent again', async () => {
    const created = await invite('adminA', { email: 'vencida@gmail.com' });
    await server.ctx.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, created.id));
    expect((await pending('adminA')).find((i) => i.id === created.id)?.status).toBe('expired');
    const res = await send('POST', '/api/invitations', 'adminA', { email: 'vencida@gmail.com' });
    expect(res.statusCode).toBe(201);
    const list = await pending('adminA');
    expect(list.filter((i) => i.email === 'vencida@gmail.com').map((i) => i.status)).toEqual(['pending']);
  });

  it('a platform admin invites into any existing company, and must name one', async () => {
    const created = await invite('platform', { email: 'para.b@gmail.com', companyId: 'empresa-b' });
    expect(created.companyId).toBe('empresa-b');
    const missing = await send('POST', '/api/invitations', 'platform', { email: 'sin.empresa@gmail.com' });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).fields?.companyId).toBe(messages.fields.invitationCompanyRequired);
    const unknown = await send('POST', '/api/invitations', 'platform', { email: 'sin.empresa@gmail.com', companyId: 'no-existe' });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown).message).toBe(messages.invitations.companyNotFound);
    expect((await pending('platform', '?companyId=empresa-b')).map((i) => i.email)).toContain('para.b@gmail.com');
    expect((await pending('platform', '?companyId=empresa-b')).every((i) => i.companyId === 'empresa-b')).toBe(true);
  });
});

describe('bad input', () => {
  it.each([
    [{ email: 'no-es-correo' }, messages.fields.email],
    [{ email: 'ana@' }, messages.fields.email],
    [{ email: '   ' }, messages.fields.emailRequired],
    [{}, messages.fields.emailRequired],
    [{ email: `${'a'.repeat(250)}@x.mx` }, messages.fields.email],
    [{ email: 'ana\u0000@x.mx' }, messages.fields.textInvalid],
  ])('refuses %j with a Spanish message on the field', async (payload, message) => {
    const res = await send('POST', '/api/invitations', 'adminA', payload);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).fields?.email).toBe(message);
  });

  it('refuses a duplicate invitation, naming the address; another company invites the same address on its own', async () => {
    await invite('adminA', { email: 'doble@gmail.com' });
    const res = await send('POST', '/api/invitations', 'adminA', { email: 'DOBLE@gmail.com ' });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe(messages.invitations.duplicate.replace('{{email}}', 'doble@gmail.com'));
    // Another company learns nothing of A's invitation: its own is sent as any other.
    const other = await invite('adminB', { email: 'doble@gmail.com' });
    expect(other).toMatchObject({ email: 'doble@gmail.com', companyId: 'empresa-b', status: 'pending' });
    expect((await pending('adminA')).filter((i) => i.email === 'doble@gmail.com')).toHaveLength(1);
  });
});

describe('who may do what', () => {
  it.each([
    ['signedOut', 401],
    ['buyer', 403],
    ['sellerA', 403],
  ])('%s may not list, invite or revoke', async (actor, status) => {
    const target = await invite('adminA', { email: `objetivo.${actor}@gmail.com` });
    expect((await send('GET', '/api/invitations', actor)).statusCode).toBe(status);
    expect((await send('POST', '/api/invitations', actor, { email: `intruso.${actor}@gmail.com` })).statusCode).toBe(status);
    expect((await send('DELETE', `/api/invitations/${target.id}`, actor)).statusCode).toBe(status);
    expect((await pending('adminA')).map((i) => i.id)).toContain(target.id);
  });

  it("a company admin neither sees nor revokes another company's invitations (no IDOR)", async () => {
    const ofA = await invite('adminA', { email: 'solo.de.a@gmail.com' });
    const listB = await pending('adminB');
    expect(listB.every((i) => i.companyId === 'empresa-b')).toBe(true);
    expect(listB.map((i) => i.id)).not.toContain(ofA.id);
    // A query for another company is ignored: the scope is the admin's own company.
    expect((await pending('adminB', '?companyId=empresa-a')).map((i) => i.id)).not.toContain(ofA.id);
    const revoke = await send('DELETE', `/api/invitations/${ofA.id}`, 'adminB');
    expect(revoke.statusCode).toBe(404);
    expect(errorOf(revoke).message).toBe(messages.invitations.notFound);
    // Same answer as an id that does not exist, or is not an id at all.
    expect((await send('DELETE', '/api/invitations/3f1c2b4a-8d6e-4f7a-9b0c-1d2e3f4a5b6c', 'adminB')).statusCode).toBe(404);
    expect((await send('DELETE', '/api/invitations/nada', 'adminB')).statusCode).toBe(404);
    expect((await pending('adminA')).map((i) => i.id)).toContain(ofA.id);
  });

  it('a company admin cannot invite into another company', async () => {
    const res = await send('POST', '/api/invitations', 'adminB', { email: 'colado@gmail.com', companyId: 'empresa-a' });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).message).toBe(messages.invitations.ownCompanyOnly);
    // Naming its own company is the same as naming none.
    expect((await invite('adminB', { email: 'propio@gmail.com', companyId: 'empresa-b' })).companyId).toBe('empresa-b');
  });

  it('a platform admin sees and revokes any company', async () => {
    const ofB = await invite('adminB', { email: 'revoca.plataforma@gmail.com' });
    const all = await pending('platform');
    expect(new Set(all.map((i) => i.companyId))).toEqual(new Set(['empresa-a', 'empresa-b']));
    expect((await send('DELETE', `/api/invitations/${ofB.id}`, 'platform')).statusCode).toBe(204);
    expect((await pending('adminB')).map((i) => i.id)).not.toContain(ofB.id);
  });

  it('a used invitation cannot be revoked', async () => {
    const created = await invite('adminA', { email: 'usada@gmail.com' });
    const flow = await signInWithGoogle(server.url, google, { identity: { email: 'usada@gmail.com', name: 'Úrsula' } });
    const accepted = await server.app.inject({
      method: 'POST',
      url: `/api/invitations/${created.id}/accept`,
      headers: { cookie: flow.sessionCookie as string, origin: server.url },
    });
    expect(accepted.statusCode).toBe(200);
    const res = await send('DELETE', `/api/invitations/${created.id}`, 'adminA');
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe(messages.invitations.alreadyUsed);
    expect(await profileOf('usada@gmail.com')).toMatchObject({ companyId: 'empresa-a', roles: ['buyer', 'seller'] });
  });
});
