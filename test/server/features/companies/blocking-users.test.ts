import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyBlock } from '../../../../src/domain/chat.js';
import type { ChatStandingEvent, SessionStatusEvent } from '../../../../src/domain/realtime.js';
import type { Role } from '../../../../src/domain/role-rules.js';
import { auditLog, companyBlocks, sessionModerators, userProfiles } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildCompany, buildSession } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../../support/sockets.js';

let server: TestServer;
const call = caller(() => server);
const open: Socket[] = [];
let people = 0;

/** Who acts: the company's panel users, another company's admin, a platform admin, moderators of shows, a buyer. */
const who = {} as Record<'platform' | 'adminA' | 'sellerA' | 'soloSeller' | 'adminB' | 'modA' | 'modEndedA' | 'modB' | 'buyer', Actor>;

function person(roles: Role[], companyId: string | null, name = `Persona${++people} Prueba`): Promise<Actor> {
  return buildActor(server, { email: `persona-${++people}-${randomUUID().slice(0, 6)}@ejemplo.mx`, name, roles, companyId });
}
const buyer = (name?: string) => person(['buyer'], null, name);

async function appoint(moderator: Actor, companyId: string, status: 'scheduled' | 'live' | 'paused' | 'ended') {
  const session = await buildSession(server.ctx.db, { companyId, status });
  await server.ctx.db.insert(sessionModerators).values({ sessionId: session.id, userId: moderator.id });
}

const blocksOf = async (companyId: string) => server.ctx.db.select().from(companyBlocks).where(eq(companyBlocks.companyId, companyId));
const audits = (companyId: string, action: 'company.block' | 'company.unblock') =>
  server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, companyId), eq(auditLog.action, action)));

async function socketOf(actor: Actor): Promise<Socket> {
  const socket = connectSocket(server.url, { cookie: actor.cookie });
  open.push(socket);
  await connected(socket);
  return socket;
}

let markers = 0;
/** Resolves once a marker sent after everything before it has reached the user's socket (one instance keeps order). */
async function drained(socket: Socket, userId: string): Promise<void> {
  const marker: SessionStatusEvent = { sessionId: `marker-${++markers}`, status: 'scheduled', version: 0 };
  const arrived = eventMatching<SessionStatusEvent>(socket, 'sessionStatusUpdate', (e) => e.sessionId === marker.sessionId);
  server.ctx.realtime.toUser(userId, 'sessionStatusUpdate', marker);
  await arrived;
}

beforeAll(async () => {
  server = await startTestServer();
  await buildCompany(server.ctx.db, { id: 'empresa-a' });
  await buildCompany(server.ctx.db, { id: 'empresa-b' });
  who.platform = await person(['admin'], null);
  who.adminA = await person(['admin', 'seller'], 'empresa-a');
  who.sellerA = await person(['seller'], 'empresa-a');
  who.soloSeller = await person(['seller'], null);
  who.adminB = await person(['admin'], 'empresa-b');
  who.modA = await buyer();
  who.modEndedA = await buyer();
  who.modB = await buyer();
  who.buyer = await buyer();
  await appoint(who.modA, 'empresa-a', 'live');
  await appoint(who.modEndedA, 'empresa-a', 'ended');
  await appoint(who.modB, 'empresa-b', 'scheduled');
});
afterEach(() => {
  for (const socket of open.splice(0)) socket.disconnect();
});
afterAll(async () => server?.close());

describe('who may block a user from a company', () => {
  it.each([
    ['signed out', null, 401, messages.errors.unauthenticated],
    ['a buyer', 'buyer', 403, messages.moderation.blockForbidden],
    ['a moderator of a show of the company that ended', 'modEndedA', 403, messages.moderation.blockForbidden],
    ['a moderator of another company’s show', 'modB', 403, messages.moderation.blockForbidden],
    ['another company’s admin', 'adminB', 404, messages.companies.notFound],
    ['a one-person company’s seller', 'soloSeller', 404, messages.companies.notFound],
    ['a seller of the company', 'sellerA', 201, null],
    ['an admin of the company', 'adminA', 201, null],
    ['a platform admin', 'platform', 201, null],
    ['a moderator of a show of the company not yet ended', 'modA', 201, null],
  ] as const)('%s: %i', async (_label, actor, status, message) => {
    const target = await buyer();
    const res = await call(actor ? who[actor] : null, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id });
    expect(res.statusCode).toBe(status);
    const stored = (await blocksOf('empresa-a')).filter((b) => b.userId === target.id);
    if (message) {
      expect(res.json().error.message).toBe(message);
      expect(stored).toEqual([]);
    } else {
      expect(stored).toMatchObject([{ blockedBy: actor ? who[actor].id : null }]);
    }
  });

  it('gives a moderator of one company’s show no power over another company', async () => {
    const target = await buyer();
    const res = await call(who.modA, 'POST', '/api/companies/empresa-b/blocks', { userId: target.id });
    expect([res.statusCode, res.json().error.message]).toEqual([403, messages.moderation.blockForbidden]);
    expect(await blocksOf('empresa-b')).toEqual([]);
    // Nor may they read or lift the company's own blocks: that is the panel's.
    expect((await call(who.modA, 'GET', '/api/companies/empresa-a/blocks')).statusCode).toBe(403);
  });

  it.each([
    ['themselves', 'modA', () => who.modA, messages.moderation.cannotBlockSelf],
    ['an admin of the company', 'sellerA', () => who.adminA, messages.moderation.cannotBlockMember],
    ['a seller of the company', 'modA', () => who.sellerA, messages.moderation.cannotBlockMember],
    ['a platform admin', 'adminA', () => who.platform, messages.moderation.cannotBlockPlatformAdmin],
  ] as const)('refuses blocking %s', async (_label, actor, target, message) => {
    const res = await call(who[actor], 'POST', '/api/companies/empresa-a/blocks', { userId: target().id });
    expect([res.statusCode, res.json().error]).toEqual([403, { code: 'FORBIDDEN', message }]);
    expect((await blocksOf('empresa-a')).filter((b) => b.userId === target().id)).toEqual([]);
  });

  it('may block another company’s seller, who is a buyer here', async () => {
    const res = await call(who.adminA, 'POST', '/api/companies/empresa-a/blocks', { userId: who.adminB.id });
    expect(res.statusCode).toBe(201);
    expect((await call(who.adminA, 'DELETE', `/api/companies/empresa-a/blocks/${who.adminB.id}`)).statusCode).toBe(204);
  });

  it('answers an unknown user, an unknown company and a malformed id clearly, storing nothing', async () => {
    const before = await blocksOf('empresa-a');
    const unknownUser = await call(who.adminA, 'POST', '/api/companies/empresa-a/blocks', { userId: randomUUID() });
    expect([unknownUser.statusCode, unknownUser.json().error.message]).toEqual([404, messages.moderation.userNotFound]);
    const target = await buyer();
    const unknownCompany = await call(who.platform, 'POST', '/api/companies/no-existe/blocks', { userId: target.id });
    expect([unknownCompany.statusCode, unknownCompany.json().error.message]).toEqual([404, messages.companies.notFound]);
    const malformed = await call(who.adminA, 'POST', '/api/companies/empresa-a/blocks', { userId: 'no-es-un-id' });
    expect([malformed.statusCode, Object.keys(malformed.json().error.fields)]).toEqual([400, ['userId']]);
    expect(await blocksOf('empresa-a')).toEqual(before);
    expect(await blocksOf('no-existe')).toEqual([]);
  });
});

describe('blocking and unblocking', () => {
  it('blocks once: a repeat answers as the first did, and is neither stored nor audited twice', async () => {
    const target = await buyer('Ramona Repetida');
    const first = await call(who.sellerA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id });
    const again = await call(who.adminA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id });
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({ userId: target.id, email: target.email, name: 'Ramona Repetida' });
    expect((await blocksOf('empresa-a')).filter((b) => b.userId === target.id)).toHaveLength(1);
    const rows = (await audits('empresa-a', 'company.block')).filter((r) => (r.after as { userId: string }).userId === target.id);
    expect(rows).toMatchObject([{ actorId: who.sellerA.id, entityType: 'company', after: { userId: target.id, email: target.email } }]);
    expect(rows[0]?.ip).toBeTruthy();
  });

  it('blocks once when two moderators block the same user at the same moment', async () => {
    const target = await buyer();
    const answers = await Promise.all([
      call(who.modA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id }),
      call(who.sellerA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201]);
    expect((await blocksOf('empresa-a')).filter((b) => b.userId === target.id)).toHaveLength(1);
    const rows = (await audits('empresa-a', 'company.block')).filter((r) => (r.after as { userId: string }).userId === target.id);
    expect(rows).toHaveLength(1);
  });

  it('lists the blocked users newest first, with name, e-mail, when and by whom', async () => {
    await buildCompany(server.ctx.db, { id: 'empresa-lista' });
    const boss = await person(['admin'], 'empresa-lista', 'Berta Jefa');
    const first = await buyer('Fabián Primero');
    const second = await buyer('Sara Segunda');
    expect((await call(who.platform, 'POST', '/api/companies/empresa-lista/blocks', { userId: first.id })).statusCode).toBe(201);
    expect((await call(boss, 'POST', '/api/companies/empresa-lista/blocks', { userId: second.id })).statusCode).toBe(201);
    const res = await call(boss, 'GET', '/api/companies/empresa-lista/blocks');
    expect(res.statusCode).toBe(200);
    const items = res.json().items as CompanyBlock[];
    expect(items.map((b) => [b.name, b.email, b.blockedBy])).toEqual([
      ['Sara Segunda', second.email, 'Berta Jefa'],
      ['Fabián Primero', first.email, expect.stringMatching(/^Persona/)],
    ]);
    expect(items[0]?.createdAt).toBeGreaterThanOrEqual(items[1]?.createdAt ?? Number.POSITIVE_INFINITY);
    // Another company's list does not hold them.
    const other = (await call(who.adminA, 'GET', '/api/companies/empresa-a/blocks')).json().items as CompanyBlock[];
    expect(other.map((b) => b.userId)).not.toContain(first.id);
  });

  it.each([
    ['signed out', null, 401],
    ['a buyer', 'buyer', 403],
    ['a show’s moderator', 'modA', 403],
    ['another company’s admin', 'adminB', 404],
    ['a seller of the company', 'sellerA', 204],
    ['an admin of the company', 'adminA', 204],
    ['a platform admin', 'platform', 204],
  ] as const)('lets %s list and unblock: %i', async (_label, actor, status) => {
    const target = await buyer();
    expect((await call(who.adminA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id })).statusCode).toBe(201);
    const list = await call(actor ? who[actor] : null, 'GET', '/api/companies/empresa-a/blocks');
    expect(list.statusCode).toBe(status === 204 ? 200 : status);
    const res = await call(actor ? who[actor] : null, 'DELETE', `/api/companies/empresa-a/blocks/${target.id}`);
    expect(res.statusCode).toBe(status);
    const still = (await blocksOf('empresa-a')).some((b) => b.userId === target.id);
    expect(still).toBe(status !== 204);
  });

  it('unblocks once: the audit keeps who had blocked, and a second unblock is 404', async () => {
    const target = await buyer();
    await call(who.modA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id });
    expect((await call(who.adminA, 'DELETE', `/api/companies/empresa-a/blocks/${target.id}`)).statusCode).toBe(204);
    const again = await call(who.adminA, 'DELETE', `/api/companies/empresa-a/blocks/${target.id}`);
    expect([again.statusCode, again.json().error.message]).toEqual([404, messages.moderation.notBlocked]);
    const malformed = await call(who.adminA, 'DELETE', '/api/companies/empresa-a/blocks/no-es-un-id');
    expect([malformed.statusCode, malformed.json().error.message]).toEqual([404, messages.moderation.notBlocked]);
    const rows = (await audits('empresa-a', 'company.unblock')).filter((r) => (r.before as { userId: string }).userId === target.id);
    expect(rows).toMatchObject([{ actorId: who.adminA.id, before: { userId: target.id, blockedBy: who.modA.id } }]);
  });

  it('tells the user’s own pages at once, and nobody else', async () => {
    const target = await buyer();
    const bystander = await buyer();
    const [targetSocket, bystanderSocket] = await Promise.all([socketOf(target), socketOf(bystander)]);
    const overheard: unknown[] = [];
    bystanderSocket.on('chatStanding', (e: unknown) => overheard.push(e));

    const blocked = eventMatching<ChatStandingEvent>(targetSocket, 'chatStanding', (e) => e.isBlocked);
    expect((await call(who.modA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id })).statusCode).toBe(201);
    expect(await blocked).toEqual({ sessionId: null, companyId: 'empresa-a', isBlocked: true });

    const unblocked = eventMatching<ChatStandingEvent>(targetSocket, 'chatStanding', (e) => !e.isBlocked);
    expect((await call(who.sellerA, 'DELETE', `/api/companies/empresa-a/blocks/${target.id}`)).statusCode).toBe(204);
    expect(await unblocked).toEqual({ sessionId: null, companyId: 'empresa-a', isBlocked: false });

    await drained(bystanderSocket, bystander.id);
    expect(overheard).toEqual([]);
  });

  it('sends nothing for a repeated block', async () => {
    const target = await buyer();
    expect((await call(who.adminA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id })).statusCode).toBe(201);
    const socket = await socketOf(target);
    const heard: unknown[] = [];
    socket.on('chatStanding', (e: unknown) => heard.push(e));
    expect((await call(who.adminA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id })).statusCode).toBe(201);
    await drained(socket, target.id);
    expect(heard).toEqual([]);
  });
});

describe('what a show’s moderator who is a buyer reads of a block', () => {
  const blockKeys = ['userId', 'name', 'blockedBy', 'createdAt', 'withdrawn', 'prebidsRemoved', 'heldWins'];

  it('answers the name only, never an e-mail, and a repeat exactly as the first', async () => {
    const target = await buyer('Olga Oculta');
    const first = await call(who.modA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id });
    const again = await call(who.modA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id });
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(Object.keys(first.json()).sort()).toEqual([...blockKeys].sort());
    expect(again.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({ userId: target.id, name: 'Olga Oculta', withdrawn: [], prebidsRemoved: 0, heldWins: [] });
    expect(first.body).not.toContain(target.email);
    expect(first.body).not.toContain('@');
  });

  it('names someone whose profile has no name without their e-mail', async () => {
    const target = await buyer('Sin Nombre');
    await server.ctx.db.update(userProfiles).set({ firstName: null, lastName: null, displayName: null }).where(eq(userProfiles.userId, target.id));
    const res = await call(who.modA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('Participante');
    expect(res.body).not.toContain('@');
  });

  it.each([
    ['a seller of the company', 'sellerA'],
    ['an admin of the company', 'adminA'],
    ['a platform admin', 'platform'],
  ] as const)('gives the e-mail to %s, in the same shape', async (_label, actor) => {
    const target = await buyer('Ema Visible');
    const res = await call(who[actor], 'POST', '/api/companies/empresa-a/blocks', { userId: target.id });
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.json()).sort()).toEqual([...blockKeys, 'email'].sort());
    expect(res.json()).toMatchObject({ name: 'Ema Visible', email: target.email });
    // A moderator's repeat of the same block: still no e-mail for them.
    const repeat = await call(who.modA, 'POST', '/api/companies/empresa-a/blocks', { userId: target.id });
    expect([repeat.statusCode, Object.keys(repeat.json()).sort()]).toEqual([201, [...blockKeys].sort()]);
    expect(repeat.body).not.toContain(target.email);
  });
});
