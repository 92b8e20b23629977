import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatPage, ChatReport, ChatSettings, SessionMute } from '../../../../src/domain/chat.js';
import type { ChatRemovedEvent, ChatSettingsEvent, ChatStandingEvent } from '../../../../src/domain/realtime.js';
import { chatReports, companyMutedWords, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildBidder } from '../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../../support/sockets.js';
import { agePace, auditsOf, buildShow, chatUrl, expectError, type Show, viewerIn } from './fixtures.js';

/**
 * A moderator's tools: delete a line for everyone, pin one, slow mode, mute and unmute, the reports
 * and a line's author. Each is audited; each is refused to anyone who does not moderate that show.
 */

let server: TestServer;
const open: Socket[] = [];
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(async () => {
  for (const s of open) s.disconnect();
  await server?.close();
});

const call = caller(() => server);
const base = (show: Show) => `/api/live-sessions/${show.sessionId}`;

async function lineBy(show: Show, who: Actor, text: string): Promise<ChatMessage> {
  await agePace(server, show.sessionId, who.id, 30);
  const res = await call(who, 'POST', chatUrl(show.sessionId), { text });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ChatMessage;
}

const textsOf = async (who: Actor | null, show: Show) => ((await call(who, 'GET', chatUrl(show.sessionId))).json() as ChatPage).items.map((l) => l.text);

describe('deleting a line', () => {
  it('removes it for everyone: other sockets hear chatRemoved, pages omit it, the audit keeps it', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const line = await lineBy(show, writer, 'Compren en mi tienda');
    await lineBy(show, writer, 'Hola');
    const viewer = await viewerIn(server, show.sessionId, open);
    const removed = eventMatching<ChatRemovedEvent>(viewer, 'chatRemoved', (e) => e.messageId === line.id);
    const res = await call(show.admin, 'DELETE', `${base(show)}/chat/${line.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await removed).toEqual({ sessionId: show.sessionId, messageId: line.id });
    expect(await textsOf(null, show)).toEqual(['Hola']);
    expect(await textsOf(writer, show)).toEqual(['Hola']);
    const [audit] = await auditsOf(server, show.sessionId, 'chat.delete');
    expect(audit).toMatchObject({ actorId: show.admin.id, before: { messageId: line.id, authorId: writer.id, text: 'Compren en mi tienda' } });
    // Again: nothing more happens.
    expect((await call(show.admin, 'DELETE', `${base(show)}/chat/${line.id}`)).statusCode).toBe(204);
    expect(await auditsOf(server, show.sessionId, 'chat.delete')).toHaveLength(1);
  });

  it('refuses a buyer, and answers 404 for a line of another show or an id that is not one', async () => {
    const show = await buildShow(server);
    const other = await buildShow(server);
    const writer = await buildBidder(server);
    const line = await lineBy(show, writer, 'Hola');
    expect(expectError(await call(writer, 'DELETE', `${base(show)}/chat/${line.id}`), 403, 'FORBIDDEN').message).toBe(messages.chat.moderatorsOnly);
    expectError(await call(null, 'DELETE', `${base(show)}/chat/${line.id}`), 401, 'UNAUTHENTICATED');
    expectError(await call(other.seller, 'DELETE', `${base(other)}/chat/${line.id}`), 404, 'NOT_FOUND');
    expectError(await call(show.seller, 'DELETE', `${base(show)}/chat/no-es-id`), 404, 'NOT_FOUND');
    expect(await textsOf(null, show)).toEqual(['Hola']);
  });
});

describe('pinning', () => {
  it('pins a line and unpins it, the room hearing each, audited; deleting the pinned line unpins it', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const line = await lineBy(show, writer, 'Envíos a todo México');
    const viewer = await viewerIn(server, show.sessionId, open);
    const pinnedHeard = eventMatching<ChatSettingsEvent>(viewer, 'chatSettings', (e) => e.pinned !== null);
    const pin = await call(show.seller, 'POST', `${base(show)}/chat/pin`, { messageId: line.id });
    expect(pin.statusCode, pin.body).toBe(200);
    expect(pin.json()).toEqual({ slowModeSeconds: 0, pinned: line } satisfies ChatSettings);
    expect(await pinnedHeard).toEqual({ sessionId: show.sessionId, slowModeSeconds: 0, pinned: line });
    expect(((await call(null, 'GET', chatUrl(show.sessionId))).json() as ChatPage).settings.pinned).toEqual(line);

    const unpinnedHeard = eventMatching<ChatSettingsEvent>(viewer, 'chatSettings', (e) => e.pinned === null);
    expect((await call(show.seller, 'POST', `${base(show)}/chat/pin`, { messageId: null })).json()).toEqual({ slowModeSeconds: 0, pinned: null });
    await unpinnedHeard;
    expect(await auditsOf(server, show.sessionId, 'chat.pin')).toHaveLength(2);

    await call(show.seller, 'POST', `${base(show)}/chat/pin`, { messageId: line.id });
    const unpinnedByDelete = eventMatching<ChatSettingsEvent>(viewer, 'chatSettings', (e) => e.pinned === null);
    expect((await call(show.seller, 'DELETE', `${base(show)}/chat/${line.id}`)).statusCode).toBe(204);
    await unpinnedByDelete;
    const [session] = await server.ctx.db.select().from(liveSessions).where(eq(liveSessions.id, show.sessionId));
    expect(session?.chatPinnedMessageId).toBeNull();
  });

  it('refuses to pin a deleted line, a line kept to its author, or one of another show', async () => {
    const show = await buildShow(server);
    const other = await buildShow(server);
    const writer = await buildBidder(server);
    const deleted = await lineBy(show, writer, 'Borrada');
    await call(show.seller, 'DELETE', `${base(show)}/chat/${deleted.id}`);
    const foreign = await lineBy(other, writer, 'De otro show');
    await server.ctx.db.insert(companyMutedWords).values({ companyId: show.companyId, words: ['grosería'] });
    const hidden = await lineBy(show, writer, 'una grosería');
    expect(hidden.onlyAuthor).toBe(true);
    for (const messageId of [deleted.id, foreign.id, hidden.id])
      expectError(await call(show.seller, 'POST', `${base(show)}/chat/pin`, { messageId }), 404, 'NOT_FOUND');
    const error = expectError(await call(show.seller, 'POST', `${base(show)}/chat/pin`, { messageId: 'abc' }), 400, 'VALIDATION');
    expect(error.fields?.messageId).toBe(messages.chat.fields.chatMessageIdInvalid);
    expectError(await call(writer, 'POST', `${base(show)}/chat/pin`, { messageId: null }), 403, 'FORBIDDEN');
  });
});

describe('slow mode', () => {
  it('sets 0, 5, 10 or 30 seconds, the room hearing it, audited; anything else is refused in Spanish', async () => {
    const show = await buildShow(server);
    const viewer = await viewerIn(server, show.sessionId, open);
    const heard = eventMatching<ChatSettingsEvent>(viewer, 'chatSettings', (e) => e.slowModeSeconds === 30);
    const res = await call(show.admin, 'PUT', `${base(show)}/chat-settings`, { slowModeSeconds: 30 });
    expect(res.json()).toEqual({ slowModeSeconds: 30, pinned: null });
    await heard;
    expect(((await call(null, 'GET', chatUrl(show.sessionId))).json() as ChatPage).settings.slowModeSeconds).toBe(30);
    expect(await auditsOf(server, show.sessionId, 'chat.slow_mode')).toMatchObject([{ before: { slowModeSeconds: 0 }, after: { slowModeSeconds: 30 } }]);
    for (const slowModeSeconds of [15, -5, '10', null]) {
      const error = expectError(await call(show.admin, 'PUT', `${base(show)}/chat-settings`, { slowModeSeconds }), 400, 'VALIDATION');
      expect(error.fields?.slowModeSeconds).toBe(messages.chat.fields.chatSlowModeInvalid);
    }
    expectError(await call(await buildBidder(server), 'PUT', `${base(show)}/chat-settings`, { slowModeSeconds: 0 }), 403, 'FORBIDDEN');
  });
});

describe('mutes', () => {
  it('mutes for some minutes or until the end, tells the user, lists it, and unmutes; each audited', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const own = connectSocket(server.url, { cookie: writer.cookie });
    open.push(own);
    await connected(own);
    const told = eventMatching<ChatStandingEvent>(own, 'chatStanding', (e) => e.sessionId === show.sessionId && e.mutedUntil !== undefined);
    const res = await call(show.seller, 'POST', `${base(show)}/mutes`, { userId: writer.id, minutes: 5 });
    expect(res.statusCode, res.body).toBe(201);
    const mute = res.json() as SessionMute;
    expect(mute).toMatchObject({ userId: writer.id, name: `${writer.name.split(' ')[0]} P.` });
    expect(mute.until).toBeGreaterThan(Date.now() + 4 * 60_000);
    expect(await told).toEqual({ sessionId: show.sessionId, companyId: show.companyId, mutedUntil: mute.until, isBlocked: false });
    expect((await call(show.seller, 'GET', `${base(show)}/mutes`)).json()).toEqual({ items: [mute] });

    // Until the end replaces it.
    const whole = (await call(show.seller, 'POST', `${base(show)}/mutes`, { userId: writer.id, minutes: null })).json() as SessionMute;
    expect(whole.until).toBeNull();
    expect((await call(show.seller, 'GET', `${base(show)}/mutes`)).json()).toEqual({ items: [whole] });

    const freed = eventMatching<ChatStandingEvent>(own, 'chatStanding', (e) => e.sessionId === show.sessionId && e.mutedUntil === undefined);
    expect((await call(show.seller, 'DELETE', `${base(show)}/mutes/${writer.id}`)).statusCode).toBe(204);
    await freed;
    expect((await call(show.seller, 'GET', `${base(show)}/mutes`)).json()).toEqual({ items: [] });
    expect((await call(writer, 'POST', chatUrl(show.sessionId), { text: 'Gracias' })).statusCode).toBe(201);
    expect(await auditsOf(server, show.sessionId, 'chat.mute')).toHaveLength(2);
    expect(await auditsOf(server, show.sessionId, 'chat.unmute')).toMatchObject([{ actorId: show.seller.id, before: { userId: writer.id } }]);
    expectError(await call(show.seller, 'DELETE', `${base(show)}/mutes/${writer.id}`), 404, 'NOT_FOUND');
  });

  it('refuses to mute a moderator of the show, an unknown user, or bad minutes', async () => {
    const show = await buildShow(server);
    const appointed = await buildBidder(server);
    await call(show.seller, 'POST', `${base(show)}/moderators`, { email: appointed.email });
    for (const target of [show.seller, show.admin, appointed])
      expect(expectError(await call(show.admin, 'POST', `${base(show)}/mutes`, { userId: target.id, minutes: 5 }), 403, 'FORBIDDEN').message).toBe(
        messages.chat.muteModerator,
      );
    expectError(await call(show.admin, 'POST', `${base(show)}/mutes`, { userId: '00000000-0000-4000-8000-000000000000', minutes: 5 }), 404, 'NOT_FOUND');
    for (const minutes of [0, 1.5, 100_000, '5']) {
      const error = expectError(await call(show.admin, 'POST', `${base(show)}/mutes`, { userId: appointed.id, minutes }), 400, 'VALIDATION');
      expect(error.fields?.minutes).toBe(messages.chat.fields.chatMuteMinutesInvalid);
    }
    // A buyer cannot mute anyone.
    const buyer = await buildBidder(server);
    expectError(await call(buyer, 'POST', `${base(show)}/mutes`, { userId: appointed.id, minutes: 5 }), 403, 'FORBIDDEN');
    expectError(await call(buyer, 'GET', `${base(show)}/mutes`), 403, 'FORBIDDEN');
  });
});

describe('reports and authors', () => {
  it('takes one report per user and line, and lists the reported lines to moderators, most reported first', async () => {
    const show = await buildShow(server);
    const [a, b, c] = [await buildBidder(server), await buildBidder(server), await buildBidder(server)];
    const once = await lineBy(show, a, 'Línea reportada una vez');
    const twice = await lineBy(show, b, 'Línea reportada dos veces');
    const gone = await lineBy(show, c, 'Línea borrada');
    const report = (who: Actor, line: ChatMessage) => call(who, 'POST', `${base(show)}/chat/${line.id}/report`);
    expect((await report(b, once)).statusCode).toBe(201);
    expect((await report(a, twice)).statusCode).toBe(201);
    expect((await report(c, twice)).statusCode).toBe(201);
    expect((await report(c, twice)).statusCode).toBe(200);
    expect((await report(a, gone)).statusCode).toBe(201);
    expect(await server.ctx.db.select().from(chatReports).where(eq(chatReports.sessionId, show.sessionId))).toHaveLength(4);
    await call(show.seller, 'DELETE', `${base(show)}/chat/${gone.id}`);
    expectError(await call(null, 'POST', `${base(show)}/chat/${once.id}/report`), 401, 'UNAUTHENTICATED');
    expectError(await report(a, { ...once, id: '00000000-0000-4000-8000-000000000000' }), 404, 'NOT_FOUND');

    const res = await call(show.seller, 'GET', `${base(show)}/chat/reports`);
    expect(res.statusCode, res.body).toBe(200);
    const { items } = res.json() as { items: ChatReport[] };
    expect(items.map((r) => [r.messageId, r.reports, r.authorId])).toEqual([
      [twice.id, 2, b.id],
      [once.id, 1, a.id],
    ]);
    expect(items[0]?.message).toEqual(twice);
    expectError(await call(a, 'GET', `${base(show)}/chat/reports`), 403, 'FORBIDDEN');
  });

  it('tells a moderator who wrote a line, and nobody else', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const line = await lineBy(show, writer, 'Hola');
    const res = await call(show.admin, 'GET', `${base(show)}/chat/${line.id}/author`);
    expect(res.json()).toEqual({ userId: writer.id, name: `${writer.name.split(' ')[0]} P.`, companyId: show.companyId });
    expectError(await call(writer, 'GET', `${base(show)}/chat/${line.id}/author`), 403, 'FORBIDDEN');
    expectError(await call(null, 'GET', `${base(show)}/chat/${line.id}/author`), 401, 'UNAUTHENTICATED');
    expectError(await call(show.admin, 'GET', `${base(show)}/chat/xyz/author`), 404, 'NOT_FOUND');
  });
});

describe('a moderator’s reach', () => {
  it('gives a moderator of one company’s show no power in another company’s show', async () => {
    const mine = await buildShow(server);
    const theirs = await buildShow(server);
    const appointed = await buildBidder(server);
    await call(mine.seller, 'POST', `${base(mine)}/moderators`, { email: appointed.email });
    const writer = await buildBidder(server);
    const line = await lineBy(theirs, writer, 'Hola');
    for (const who of [mine.seller, mine.admin, appointed]) {
      expectError(await call(who, 'DELETE', `${base(theirs)}/chat/${line.id}`), 403, 'FORBIDDEN');
      expectError(await call(who, 'POST', `${base(theirs)}/chat/pin`, { messageId: line.id }), 403, 'FORBIDDEN');
      expectError(await call(who, 'PUT', `${base(theirs)}/chat-settings`, { slowModeSeconds: 30 }), 403, 'FORBIDDEN');
      expectError(await call(who, 'POST', `${base(theirs)}/mutes`, { userId: writer.id, minutes: 5 }), 403, 'FORBIDDEN');
      expectError(await call(who, 'GET', `${base(theirs)}/chat/reports`), 403, 'FORBIDDEN');
    }
    expect(await textsOf(null, theirs)).toEqual(['Hola']);
    // In their own show the appointed moderator acts.
    const own = await lineBy(mine, writer, 'Hola');
    expect((await call(appointed, 'DELETE', `${base(mine)}/chat/${own.id}`)).statusCode).toBe(204);
  });

  it('ends an appointed moderator’s power with the show; the owners keep theirs for the replay', async () => {
    const show = await buildShow(server);
    const appointed = await buildBidder(server);
    await call(show.seller, 'POST', `${base(show)}/moderators`, { email: appointed.email });
    const writer = await buildBidder(server);
    const [first, second] = [await lineBy(show, writer, 'Uno'), await lineBy(show, writer, 'Dos')];
    expect(((await call(appointed, 'GET', chatUrl(show.sessionId))).json() as ChatPage).me?.isModerator).toBe(true);
    await server.ctx.db.update(liveSessions).set({ status: 'ended' }).where(eq(liveSessions.id, show.sessionId));

    expect(expectError(await call(appointed, 'DELETE', `${base(show)}/chat/${first.id}`), 403, 'FORBIDDEN').message).toBe(messages.chat.moderatorsOnly);
    expectError(await call(appointed, 'POST', `${base(show)}/chat/pin`, { messageId: first.id }), 403, 'FORBIDDEN');
    expect(((await call(appointed, 'GET', chatUrl(show.sessionId))).json() as ChatPage).me?.isModerator).toBe(false);

    expect((await call(show.seller, 'DELETE', `${base(show)}/chat/${first.id}`)).statusCode).toBe(204);
    expect((await call(show.admin, 'POST', `${base(show)}/chat/pin`, { messageId: second.id })).statusCode).toBe(200);
    expect(await textsOf(null, show)).toEqual(['Dos']);
  });
});

describe('ids', () => {
  it('answers 404, never 500, to every route given ids that are not ids or name nothing', async () => {
    const show = await buildShow(server);
    const nobody = '00000000-0000-4000-8000-000000000000';
    const routes: [Parameters<typeof call>[1], string, unknown?][] = [
      ['GET', '/api/live-sessions/abc/chat'],
      ['POST', '/api/live-sessions/abc/chat', { text: 'Hola' }],
      ['DELETE', '/api/live-sessions/abc/chat/def'],
      ['POST', '/api/live-sessions/abc/chat/def/report'],
      ['GET', '/api/live-sessions/abc/chat/reports'],
      ['GET', '/api/live-sessions/abc/chat/def/author'],
      ['POST', '/api/live-sessions/abc/chat/pin', { messageId: null }],
      ['PUT', '/api/live-sessions/abc/chat-settings', { slowModeSeconds: 5 }],
      ['GET', '/api/live-sessions/abc/moderators'],
      ['POST', '/api/live-sessions/abc/moderators', { email: show.admin.email }],
      ['DELETE', '/api/live-sessions/abc/moderators/def'],
      ['GET', '/api/live-sessions/abc/mutes'],
      ['POST', '/api/live-sessions/abc/mutes', { userId: nobody, minutes: 5 }],
      ['DELETE', '/api/live-sessions/abc/mutes/def'],
      ['DELETE', `${base(show)}/chat/def`],
      ['DELETE', `${base(show)}/chat/${nobody}`],
      ['POST', `${base(show)}/chat/def/report`],
      ['GET', `${base(show)}/chat/${nobody}/author`],
      ['POST', `${base(show)}/chat/pin`, { messageId: nobody }],
      ['DELETE', `${base(show)}/moderators/def`],
      ['DELETE', `${base(show)}/moderators/${nobody}`],
      ['DELETE', `${base(show)}/mutes/def`],
      ['POST', `${base(show)}/mutes`, { userId: nobody, minutes: null }],
    ];
    for (const [method, url, payload] of routes) {
      const res = await call(show.seller, method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.json().error.message).toMatch(/\S/);
    }
  });

  it('answers 404 to a report of a line only its author sees', async () => {
    const show = await buildShow(server);
    await server.ctx.db.insert(companyMutedWords).values({ companyId: show.companyId, words: ['basura'] });
    const author = await buildBidder(server);
    const really = await lineBy(show, author, 'esto es basura');
    expect(really.onlyAuthor).toBe(true);
    expectError(await call(await buildBidder(server), 'POST', `${base(show)}/chat/${really.id}/report`), 404, 'NOT_FOUND');
  });
});
