import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionModerator } from '../../../../src/domain/chat.js';
import { userProfiles } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { buildActor, buildBidder } from '../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { auditsOf, buildShow, expectError } from './fixtures.js';

/**
 * A session's moderators: the seller and the company's admins always (owners), and those its
 * editors appoint by e-mail; who may appoint, list and remove them.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
}, 60_000);
afterAll(async () => server?.close());

const call = caller(() => server);
const url = (sessionId: string) => `/api/live-sessions/${sessionId}/moderators`;
const list = async (who: { cookie: string }, sessionId: string) => ((await call(who, 'GET', url(sessionId))).json() as { items: SessionModerator[] }).items;

describe('moderators', () => {
  it('lists the owners first, then the appointed ones; appointing is idempotent and audited', async () => {
    const show = await buildShow(server);
    const helper = await buildBidder(server);
    const owners = await list(show.seller, show.sessionId);
    expect(owners).toEqual([
      { userId: show.seller.id, name: 'Vera Vendedora', email: show.seller.email, isOwner: true },
      { userId: show.admin.id, name: 'Julia Jefa', email: show.admin.email, isOwner: true },
    ]);

    const res = await call(show.seller, 'POST', url(show.sessionId), { email: `  ${helper.email.toUpperCase()} ` });
    expect(res.statusCode, res.body).toBe(201);
    const { items } = res.json() as { items: SessionModerator[] };
    expect(items).toEqual([...owners, { userId: helper.id, name: helper.name, email: helper.email, isOwner: false }]);
    // Again, or an owner: 200, nothing added.
    expect((await call(show.admin, 'POST', url(show.sessionId), { email: helper.email })).statusCode).toBe(200);
    expect((await call(show.admin, 'POST', url(show.sessionId), { email: show.seller.email })).statusCode).toBe(200);
    // The appointed moderator reads the same list, names only.
    expect(await list(helper, show.sessionId)).toEqual(items.map(({ email: _email, ...m }) => m));
    expect(await auditsOf(server, show.sessionId, 'live_session.moderator_add')).toMatchObject([{ actorId: show.seller.id, after: { userId: helper.id } }]);
  });

  it('asks that an unknown e-mail sign in once first, and refuses a malformed one', async () => {
    const show = await buildShow(server);
    const unknown = expectError(await call(show.seller, 'POST', url(show.sessionId), { email: 'nadie@ejemplo.mx' }), 404, 'NOT_FOUND');
    expect(unknown.message).toBe(messages.chat.moderatorUnknown);
    const bad = expectError(await call(show.seller, 'POST', url(show.sessionId), { email: 'no es correo' }), 400, 'VALIDATION');
    expect(bad.fields?.email).toBe(messages.chat.fields.chatModeratorEmailInvalid);
  });

  it('lets only the session’s editors appoint and remove; moderators may read the list; others not', async () => {
    const show = await buildShow(server);
    const other = await buildShow(server);
    const helper = await buildBidder(server);
    const buyer = await buildBidder(server);
    const coSeller = await buildActor(server, {
      email: `co-${show.companyId}@ejemplo.mx`,
      name: 'Cora Vendedora',
      roles: ['seller'],
      companyId: show.companyId,
    });
    await call(show.seller, 'POST', url(show.sessionId), { email: helper.email });
    for (const who of [helper, buyer, coSeller, other.seller, other.admin])
      expect(expectError(await call(who, 'POST', url(show.sessionId), { email: buyer.email }), 403, 'FORBIDDEN').message).toBe(messages.chat.editorsOnly);
    for (const who of [buyer, coSeller, other.admin]) expectError(await call(who, 'GET', url(show.sessionId)), 403, 'FORBIDDEN');
    expectError(await call(null, 'GET', url(show.sessionId)), 401, 'UNAUTHENTICATED');
    expectError(await call(helper, 'DELETE', `${url(show.sessionId)}/${helper.id}`), 403, 'FORBIDDEN');

    const removed = await call(show.admin, 'DELETE', `${url(show.sessionId)}/${helper.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((removed.json() as { items: SessionModerator[] }).items.map((m) => m.userId)).toEqual([show.seller.id, show.admin.id]);
    expect(await auditsOf(server, show.sessionId, 'live_session.moderator_remove')).toMatchObject([{ actorId: show.admin.id, before: { userId: helper.id } }]);
    // Removed: no longer a moderator.
    expectError(await call(helper, 'GET', url(show.sessionId)), 403, 'FORBIDDEN');
    expectError(await call(show.admin, 'DELETE', `${url(show.sessionId)}/${helper.id}`), 404, 'NOT_FOUND');
    expect(expectError(await call(show.admin, 'DELETE', `${url(show.sessionId)}/${show.seller.id}`), 409, 'CONFLICT').message).toBe(
      messages.chat.moderatorIsOwner,
    );
    expectError(await call(show.admin, 'DELETE', `${url(show.sessionId)}/no-es-id`), 404, 'NOT_FOUND');
  });

  it('shows e-mails to the show’s owners only: an appointed moderator who is a buyer reads names, never an address', async () => {
    const show = await buildShow(server);
    const helper = await buildBidder(server);
    // Someone whose profile has no name: the owners read their e-mail, the helper a name not made from it.
    const nameless = await buildActor(server, { email: `sin.nombre.${show.companyId}@ejemplo.mx`, name: 'Temporal', roles: ['buyer'] });
    await server.ctx.db.update(userProfiles).set({ firstName: null, lastName: null, displayName: null }).where(eq(userProfiles.userId, nameless.id));
    for (const who of [helper, nameless]) expect((await call(show.seller, 'POST', url(show.sessionId), { email: who.email })).statusCode).toBe(201);

    const forOwner = await list(show.admin, show.sessionId);
    expect(forOwner.map((m) => m.email)).toEqual([show.seller.email, show.admin.email, helper.email, nameless.email]);
    const asHelper = await call(helper, 'GET', url(show.sessionId));
    expect(asHelper.statusCode).toBe(200);
    expect((asHelper.json() as { items: SessionModerator[] }).items).toEqual([
      { userId: show.seller.id, name: 'Vera Vendedora', isOwner: true },
      { userId: show.admin.id, name: 'Julia Jefa', isOwner: true },
      { userId: helper.id, name: helper.name, isOwner: false },
      { userId: nameless.id, name: 'Participante', isOwner: false },
    ]);
    expect(asHelper.body).not.toContain('@');
  });

  it('lets a platform admin appoint in any company’s show', async () => {
    const show = await buildShow(server);
    const platform = await buildActor(server, { email: 'plataforma@martillo.mx', name: 'Pía Plataforma', roles: ['admin'] });
    const helper = await buildBidder(server);
    expect((await call(platform, 'POST', url(show.sessionId), { email: helper.email })).statusCode).toBe(201);
  });
});
