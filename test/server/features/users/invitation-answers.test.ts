import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invitation, InvitationAnswer, InvitationListResponse, ReceivedInvitationList } from '../../../../src/domain/invitation-rules.js';
import { auditLog, invitations, userProfiles, users } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { me, signInWithGoogle } from '../../../support/google-flow.js';
import { type MockGoogle, startMockGoogle } from '../../../support/mock-google.js';
import { injectAs, startTestServer, type TestServer } from '../../../support/server.js';

let google: MockGoogle;
let server: TestServer;
let adminA: Actor;
let adminB: Actor;

beforeAll(async () => {
  google = await startMockGoogle();
  server = await startTestServer({
    env: { OIDC_ISSUER: google.issuer, GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CLIENT_SECRET: google.clientSecret, ADMIN_EMAILS: 'duena@martillo.mx' },
  });
  adminA = await buildActor(server, { email: 'admin.a@ejemplo.mx', name: 'Ana Admin', roles: ['admin', 'seller'], companyId: 'empresa-a' });
  adminB = await buildActor(server, { email: 'admin.b@ejemplo.mx', name: 'Beto Admin', roles: ['admin', 'seller'], companyId: 'empresa-b' });
});
afterAll(async () => {
  await server?.close();
  await google?.stop();
});

/** Signs in through the Google flow (a verified address: Google refuses others) and returns the session. */
async function signIn(email: string, name = email.split('@')[0] as string): Promise<Actor> {
  const flow = await signInWithGoogle(server.url, google, { identity: { email, name } });
  if (!flow.sessionCookie) throw new Error(`sign-in failed for ${email}`);
  const [row] = await server.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { id: row?.id as string, email, cookie: flow.sessionCookie };
}

async function invite(admin: Actor, email: string): Promise<Invitation> {
  const res = await injectAs(server, admin, 'POST', '/api/invitations', { email });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Invitation;
}

const answer = (actor: Actor | null, id: string, choice: 'accept' | 'decline') => injectAs(server, actor, 'POST', `/api/invitations/${id}/${choice}`, {});
const errorOf = (res: LightMyRequestResponse) => (res.json() as { error: { code: string; message: string } }).error;

async function received(actor: Actor): Promise<ReceivedInvitationList['items']> {
  const res = await injectAs(server, actor, 'GET', '/api/me/invitations');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ReceivedInvitationList).items;
}

async function account(id: string) {
  const [row] = await server.ctx.db
    .select({ roles: userProfiles.roles, companyId: userProfiles.companyId })
    .from(userProfiles)
    .where(eq(userProfiles.userId, id));
  return row;
}

async function auditsOf(action: string, entityId: string) {
  return server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)));
}

async function adminList(admin: Actor): Promise<Invitation[]> {
  const res = await injectAs(server, admin, 'GET', '/api/invitations');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as InvitationListResponse).items;
}

describe('signing in changes nothing', () => {
  it('an existing buyer who is invited stays a buyer at their next sign-in, and finds the invitation waiting', async () => {
    const buyer = await signIn('pedro.comprador@gmail.com', 'Pedro Ruiz');
    const sent = await invite(adminA, 'pedro.comprador@gmail.com');
    const again = await signIn('pedro.comprador@gmail.com', 'Pedro Ruiz');
    expect(await account(buyer.id)).toEqual({ roles: ['buyer'], companyId: null });
    const body = await (await me(server.url, again.cookie)).json();
    expect(body.roles).toEqual(['buyer']);
    expect(body.profile.companyId).toBeNull();
    const items = await received(again);
    expect(items).toEqual([
      {
        id: sent.id,
        companyId: 'empresa-a',
        companyName: 'empresa-a',
        invitedByName: 'Ana',
        role: 'seller',
        createdAt: sent.createdAt,
        expiresAt: sent.expiresAt,
      },
    ]);
    expect(await auditsOf('invitation.accept', buyer.id)).toHaveLength(0);
  });

  it('a new account is not made a seller at sign-up either: it is a buyer holding an invitation', async () => {
    await invite(adminA, 'nueva.cuenta@gmail.com');
    const fresh = await signIn('nueva.cuenta@gmail.com', 'Nora Nueva');
    expect(await account(fresh.id)).toEqual({ roles: ['buyer'], companyId: null });
    expect((await received(fresh)).map((i) => i.companyId)).toEqual(['empresa-a']);
  });

  it('an account whose address was never verified (no Google sign-in yet) sees no invitation and cannot take one up', async () => {
    const sent = await invite(adminA, 'sin.verificar@ejemplo.mx');
    // Google refuses unverified addresses at sign-in; an account made otherwise has email_verified false.
    const unverified = await buildActor(server, { email: 'sin.verificar@ejemplo.mx', name: 'Sin Verificar', roles: ['buyer'] });
    expect(await received(unverified)).toEqual([]);
    const res = await answer(unverified, sent.id, 'accept');
    expect(res.statusCode).toBe(404);
    expect(await account(unverified.id)).toEqual({ roles: ['buyer'], companyId: null });
  });
});

describe('accepting and declining', () => {
  it('accepting makes the account a seller of the company, logs it, and its open sessions follow', async () => {
    const person = await signIn('lucia.acepta@gmail.com', 'Lucía Gómez');
    const sent = await invite(adminA, 'lucia.acepta@gmail.com');
    expect((await (await me(server.url, person.cookie)).json()).roles).toEqual(['buyer']);

    const res = await answer(person, sent.id, 'accept');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: sent.id, companyId: 'empresa-a', companyName: 'empresa-a', status: 'accepted' } satisfies InvitationAnswer);
    expect(await account(person.id)).toEqual({ roles: ['buyer', 'seller'], companyId: 'empresa-a' });
    // The same session, without signing in again, now has the panel.
    const after = await (await me(server.url, person.cookie)).json();
    expect(after.roles).toEqual(['buyer', 'seller']);
    expect(after.companyId).toBe('empresa-a');

    const [audit] = await auditsOf('invitation.accept', person.id);
    expect(audit).toMatchObject({
      actorId: person.id,
      entityType: 'user',
      before: { roles: ['buyer'], companyId: null },
      after: { roles: ['buyer', 'seller'], companyId: 'empresa-a', invitationId: sent.id },
    });
    const [row] = await server.ctx.db.select().from(invitations).where(eq(invitations.id, sent.id));
    expect(row?.acceptedBy).toBe(person.id);
    // The admin's list lets it go; the users list has the person now.
    expect((await adminList(adminA)).map((i) => i.id)).not.toContain(sent.id);
    const usersRes = await injectAs(server, adminA, 'GET', '/api/users?search=lucia.acepta');
    expect(usersRes.json().items.map((u: { email: string }) => u.email)).toEqual(['lucia.acepta@gmail.com']);
    // A used invitation cannot be revoked, and gone from the person's list.
    const revoke = await server.app.inject({ method: 'DELETE', url: `/api/invitations/${sent.id}`, headers: { cookie: adminA.cookie, origin: server.url } });
    expect(revoke.statusCode).toBe(409);
    expect(errorOf(revoke).message).toBe(messages.invitations.alreadyUsed);
    expect(await received(person)).toEqual([]);
  });

  it('declining leaves the account as it was; the admin sees it declined; answering again says so', async () => {
    const person = await signIn('rosa.declina@gmail.com', 'Rosa Vega');
    const sent = await invite(adminA, 'rosa.declina@gmail.com');
    const res = await answer(person, sent.id, 'decline');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: sent.id, companyId: 'empresa-a', companyName: 'empresa-a', status: 'declined' } satisfies InvitationAnswer);
    expect(await account(person.id)).toEqual({ roles: ['buyer'], companyId: null });
    expect((await (await me(server.url, person.cookie)).json()).roles).toEqual(['buyer']);
    expect(await received(person)).toEqual([]);
    expect((await adminList(adminA)).find((i) => i.id === sent.id)?.status).toBe('declined');

    // A second click on Rechazar is the same answer; Aceptar afterwards is refused and changes nothing.
    const twice = await answer(person, sent.id, 'decline');
    expect(twice.statusCode).toBe(200);
    expect(twice.json()).toEqual(res.json());
    const late = await answer(person, sent.id, 'accept');
    expect(late.statusCode).toBe(409);
    expect(errorOf(late).message).toBe(messages.invitations.alreadyDeclined);
    expect(await account(person.id)).toEqual({ roles: ['buyer'], companyId: null });
    expect(await auditsOf('invitation.decline', sent.id)).toHaveLength(1);

    // The admin may invite again: the declined one leaves the list for the new one.
    const renewed = await invite(adminA, 'rosa.declina@gmail.com');
    expect((await adminList(adminA)).filter((i) => i.email === 'rosa.declina@gmail.com').map((i) => [i.id, i.status])).toEqual([[renewed.id, 'pending']]);
    expect((await received(person)).map((i) => i.id)).toEqual([renewed.id]);
  });

  it('a double click on Aceptar is one change: both answers agree, one audit row, the role once', async () => {
    const person = await signIn('doble.clic@gmail.com', 'Diego Doble');
    const sent = await invite(adminA, 'doble.clic@gmail.com');
    const [first, second] = await Promise.all([answer(person, sent.id, 'accept'), answer(person, sent.id, 'accept')]);
    expect([first?.statusCode, second?.statusCode]).toEqual([200, 200]);
    expect(first?.json()).toEqual(second?.json());
    const third = await answer(person, sent.id, 'accept');
    expect(third.statusCode).toBe(200);
    expect(third.json()).toEqual(first?.json());
    expect(await account(person.id)).toEqual({ roles: ['buyer', 'seller'], companyId: 'empresa-a' });
    expect(await auditsOf('invitation.accept', person.id)).toHaveLength(1);
    // Declining what was accepted says so.
    const decline = await answer(person, sent.id, 'decline');
    expect(decline.statusCode).toBe(409);
    expect(errorOf(decline).message).toBe(messages.invitations.alreadyAccepted);
  });

  it('an expired or revoked invitation says so, and is not offered', async () => {
    const person = await signIn('tarde@gmail.com', 'Tomás Tarde');
    const expired = await invite(adminA, 'tarde@gmail.com');
    await server.ctx.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, expired.id));
    expect(await received(person)).toEqual([]);
    for (const choice of ['accept', 'decline'] as const) {
      const res = await answer(person, expired.id, choice);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).message).toBe(messages.invitations.expired);
    }
    const revoked = await invite(adminB, 'tarde@gmail.com');
    const del = await server.app.inject({ method: 'DELETE', url: `/api/invitations/${revoked.id}`, headers: { cookie: adminB.cookie, origin: server.url } });
    expect(del.statusCode).toBe(204);
    const res = await answer(person, revoked.id, 'accept');
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toBe(messages.invitations.revoked);
    expect(await account(person.id)).toEqual({ roles: ['buyer'], companyId: null });
  });
});

describe('who may answer', () => {
  it("another account neither sees nor answers someone else's invitation (404, as for an unknown id)", async () => {
    const owner = await signIn('duena.real@gmail.com', 'Dora Dueña');
    const intruder = await signIn('intruso@gmail.com', 'Iván Intruso');
    const sent = await invite(adminA, 'duena.real@gmail.com');
    expect(await received(intruder)).toEqual([]);
    for (const choice of ['accept', 'decline'] as const) {
      const res = await answer(intruder, sent.id, choice);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).message).toBe(messages.invitations.notYours);
    }
    // The inviting admin cannot answer for the person either.
    expect((await answer(adminA, sent.id, 'accept')).statusCode).toBe(404);
    for (const id of ['3f1c2b4a-8d6e-4f7a-9b0c-1d2e3f4a5b6c', 'nada']) {
      const res = await answer(intruder, id, 'accept');
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).message).toBe(messages.invitations.notYours);
    }
    expect(await account(intruder.id)).toEqual({ roles: ['buyer'], companyId: null });
    expect((await received(owner)).map((i) => i.id)).toEqual([sent.id]);
    // Signed out: 401; from another site: refused before anything happens.
    expect((await answer(null, sent.id, 'accept')).statusCode).toBe(401);
    expect((await injectAs(server, null, 'GET', '/api/me/invitations')).statusCode).toBe(401);
    const csrf = await injectAs(server, owner, 'POST', `/api/invitations/${sent.id}/accept`, {}, { origin: 'https://otro.example' });
    expect(csrf.statusCode).toBe(403);
    expect(await account(owner.id)).toEqual({ roles: ['buyer'], companyId: null });
  });

  it('a platform admin (ADMIN_EMAILS too) and another company admin cannot accept a seller seat', async () => {
    const owner = await signIn('duena@martillo.mx', 'Dueña Plataforma');
    expect(await account(owner.id)).toEqual({ roles: ['buyer', 'admin'], companyId: null });
    const toOwner = await invite(adminA, 'duena@martillo.mx');
    expect((await received(owner)).map((i) => i.id)).toEqual([toOwner.id]);
    const refused = await answer(owner, toOwner.id, 'accept');
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(messages.invitations.adminBlocked);
    expect(await account(owner.id)).toEqual({ roles: ['buyer', 'admin'], companyId: null });

    const otherAdmin = await signIn('admin.c@gmail.com', 'Carla Admin');
    await server.ctx.db
      .update(userProfiles)
      .set({ roles: ['admin', 'seller'], companyId: 'empresa-c' })
      .where(eq(userProfiles.userId, otherAdmin.id));
    const toOther = await invite(adminA, 'admin.c@gmail.com');
    expect((await answer(otherAdmin, toOther.id, 'accept')).statusCode).toBe(409);
    expect(await account(otherAdmin.id)).toEqual({ roles: ['admin', 'seller'], companyId: 'empresa-c' });
    // Declining is always possible.
    expect((await answer(otherAdmin, toOther.id, 'decline')).statusCode).toBe(200);
  });

  it("another company's seller is moved only by accepting; an invitation from each company stands on its own", async () => {
    const seller = await signIn('vendedor.b@gmail.com', 'Víctor Vendedor');
    await server.ctx.db
      .update(userProfiles)
      .set({ roles: ['buyer', 'seller'], companyId: 'empresa-b' })
      .where(eq(userProfiles.userId, seller.id));
    const fromA = await invite(adminA, 'vendedor.b@gmail.com');
    const fromB = await invite(adminB, 'vendedor.b@gmail.com');
    await signIn('vendedor.b@gmail.com', 'Víctor Vendedor');
    expect(await account(seller.id)).toEqual({ roles: ['buyer', 'seller'], companyId: 'empresa-b' });
    expect(new Set((await received(seller)).map((i) => i.id))).toEqual(new Set([fromA.id, fromB.id]));

    expect((await answer(seller, fromA.id, 'accept')).statusCode).toBe(200);
    expect(await account(seller.id)).toEqual({ roles: ['buyer', 'seller'], companyId: 'empresa-a' });
    // B's invitation is still B's own business: pending on its list and on the person's.
    expect((await adminList(adminB)).find((i) => i.id === fromB.id)?.status).toBe('pending');
    expect((await received(seller)).map((i) => i.id)).toEqual([fromB.id]);
  });

  it('answers are rate-limited per account with a Spanish message', async () => {
    const person = await signIn('prisas@gmail.com', 'Pablo Prisas');
    const statuses: number[] = [];
    let last: LightMyRequestResponse | null = null;
    for (let i = 0; i < 31; i++) {
      last = await answer(person, '3f1c2b4a-8d6e-4f7a-9b0c-1d2e3f4a5b6c', 'decline');
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(last?.statusCode).toBe(429);
    expect(errorOf(last as LightMyRequestResponse).message).toBe(messages.errors.rateLimited);
  });
});
