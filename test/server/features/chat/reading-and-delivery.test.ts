import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_PAGE_SIZE, type ChatMessage, type ChatPage } from '../../../../src/domain/chat.js';
import { chatMessages, companyMutedWords, liveSessions } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { buildActor, buildBidder } from '../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { eventMatching } from '../../../support/sockets.js';
import { agePace, buildShow, chatUrl, expectError, settled, viewerIn } from './fixtures.js';

/**
 * Reading a show's chat (pages of 50, newest last; the replay after the end) and who hears a line:
 * the session's room only, and a line with one of the company's muted words only its author and
 * the show's moderators.
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
const page = async (who: { cookie: string } | null, sessionId: string, before?: string) => {
  const res = await call(who, 'GET', `${chatUrl(sessionId)}${before ? `?before=${before}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ChatPage;
};

describe('reading the chat', () => {
  it('shows the latest 50 lines, newest last, and the earlier ones page by page, to anyone', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    // 120 lines, written straight in the table (the pace rule is not what this checks).
    await server.ctx.db
      .insert(chatMessages)
      .values(Array.from({ length: 120 }, (_, i) => ({ sessionId: show.sessionId, authorId: writer.id, authorName: 'Postor P.', text: `Línea ${i + 1}` })));
    const latest = await page(null, show.sessionId);
    expect(latest.items).toHaveLength(CHAT_PAGE_SIZE);
    expect(latest.items[0]?.text).toBe('Línea 71');
    expect(latest.items.at(-1)?.text).toBe('Línea 120');
    expect(latest.me).toBeNull();
    expect(latest.settings).toEqual({ slowModeSeconds: 0, pinned: null });
    const earlier = await page(null, show.sessionId, latest.nextBefore as string);
    expect(earlier.items.map((l) => l.text)).toEqual(Array.from({ length: 50 }, (_, i) => `Línea ${i + 21}`));
    const first = await page(null, show.sessionId, earlier.nextBefore as string);
    expect(first.items.map((l) => l.text)).toEqual(Array.from({ length: 20 }, (_, i) => `Línea ${i + 1}`));
    expect(first.nextBefore).toBeNull();
  });

  it('refuses a `before` that is not a line of this chat', async () => {
    const show = await buildShow(server);
    const error = expectError(await call(null, 'GET', `${chatUrl(show.sessionId)}?before=abc`), 400, 'VALIDATION');
    expect(error.fields?.before).toBe(messages.chat.fields.beforeInvalid);
    expectError(await call(null, 'GET', `${chatUrl(show.sessionId)}?before=00000000-0000-4000-8000-000000000000`), 404, 'NOT_FOUND');
  });

  it('replays an ended show’s chat from the same lines, read-only', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const line = (await call(writer, 'POST', chatUrl(show.sessionId), { text: '¡Qué buen reloj!' })).json() as ChatMessage;
    await server.ctx.db.update(liveSessions).set({ status: 'ended' }).where(eq(liveSessions.id, show.sessionId));
    const replay = await page(writer, show.sessionId);
    expect(replay.items).toEqual([line]);
    expect(replay.me).toMatchObject({ canWrite: false, isModerator: false, isBlocked: false });
    expectError(await call(writer, 'POST', chatUrl(show.sessionId), { text: 'Otra' }), 409, 'CONFLICT');
  });

  it('tells a signed-in reader what they may do', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    expect((await page(writer, show.sessionId)).me).toEqual({ tag: expect.any(String), canWrite: true, isModerator: false, isBlocked: false });
    expect((await page(show.seller, show.sessionId)).me).toMatchObject({ canWrite: true, isModerator: true });
  });
});

describe('who hears a line', () => {
  it('delivers a line to the session’s room only, with nothing private in it', async () => {
    const show = await buildShow(server);
    const other = await buildShow(server);
    const writer = await buildBidder(server);
    const inRoom = await viewerIn(server, show.sessionId, open);
    const elsewhere = await viewerIn(server, other.sessionId, open);
    const heardElsewhere: unknown[] = [];
    elsewhere.on('chatMessage', (m) => heardElsewhere.push(m));
    const heard = eventMatching<ChatMessage>(inRoom, 'chatMessage', (m) => m.sessionId === show.sessionId);
    const res = await call(writer, 'POST', chatUrl(show.sessionId), { text: 'Hola sala' });
    expect(res.statusCode).toBe(201);
    const line = await heard;
    expect(line).toEqual(res.json());
    for (const secret of [writer.id, writer.email, writer.whatsapp]) expect(JSON.stringify(line)).not.toContain(secret);
    await settled(server, elsewhere, other.sessionId);
    expect(heardElsewhere).toEqual([]);
  });

  it('keeps a line with a muted word to its author: live and in the pages of everyone else', async () => {
    const show = await buildShow(server);
    await server.ctx.db.insert(companyMutedWords).values({ companyId: show.companyId, words: ['estafa', 'pésimo'] });
    const author = await buildBidder(server);
    const reader = await buildBidder(server);
    const authorSocket = await viewerIn(server, show.sessionId, open, author.cookie);
    const readerSocket = await viewerIn(server, show.sessionId, open, reader.cookie);
    const anonymous = await viewerIn(server, show.sessionId, open);
    const heardByOthers: ChatMessage[] = [];
    readerSocket.on('chatMessage', (m: ChatMessage) => heardByOthers.push(m));
    anonymous.on('chatMessage', (m: ChatMessage) => heardByOthers.push(m));

    const toAuthor = eventMatching<ChatMessage>(authorSocket, 'chatMessage', (m) => m.onlyAuthor);
    const res = await call(author, 'POST', chatUrl(show.sessionId), { text: 'Esto es una ESTAFA' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ onlyAuthor: true, text: 'Esto es una ESTAFA' });
    expect((await toAuthor).id).toBe((res.json() as ChatMessage).id);

    // A clean line after it reaches everyone, so the muted one was not merely late.
    await agePace(server, show.sessionId, author.id, 3);
    const clean = eventMatching<ChatMessage>(readerSocket, 'chatMessage', (m) => m.text === 'Perdón, ¿cuánto cuesta?');
    expect((await call(author, 'POST', chatUrl(show.sessionId), { text: 'Perdón, ¿cuánto cuesta?' })).statusCode).toBe(201);
    await clean;
    await settled(server, anonymous, show.sessionId);
    expect(heardByOthers.map((m) => m.text)).toEqual(['Perdón, ¿cuánto cuesta?', 'Perdón, ¿cuánto cuesta?']);

    expect((await page(author, show.sessionId)).items.map((l) => l.text)).toEqual(['Esto es una ESTAFA', 'Perdón, ¿cuánto cuesta?']);
    expect((await page(reader, show.sessionId)).items.map((l) => l.text)).toEqual(['Perdón, ¿cuánto cuesta?']);
    expect((await page(null, show.sessionId)).items.map((l) => l.text)).toEqual(['Perdón, ¿cuánto cuesta?']);
    // Accents and case folded: "pesimo" is "pésimo"; a word inside another is not it.
    await agePace(server, show.sessionId, author.id, 3);
    expect(((await call(author, 'POST', chatUrl(show.sessionId), { text: 'servicio PESIMO' })).json() as ChatMessage).onlyAuthor).toBe(true);
    await agePace(server, show.sessionId, author.id, 3);
    expect(((await call(author, 'POST', chatUrl(show.sessionId), { text: 'estafador no' })).json() as ChatMessage).onlyAuthor).toBe(false);
  });

  it('shows a line with a muted word to the show’s moderators too, marked, live and in their pages, so they can act on it', async () => {
    const show = await buildShow(server);
    await server.ctx.db.insert(companyMutedWords).values({ companyId: show.companyId, words: ['estafa'] });
    const author = await buildBidder(server);
    const appointed = await buildBidder(server);
    expect((await call(show.seller, 'POST', `/api/live-sessions/${show.sessionId}/moderators`, { email: appointed.email })).statusCode).toBe(201);
    // A seller of another company moderates nothing here.
    const stranger = await buildActor(server, { email: 'otra-tienda@ejemplo.mx', name: 'Otra Tienda', roles: ['seller'], companyId: 'otra-tienda' });
    const sellerSocket = await viewerIn(server, show.sessionId, open, show.seller.cookie);
    const adminSocket = await viewerIn(server, show.sessionId, open, show.admin.cookie);
    const appointedSocket = await viewerIn(server, show.sessionId, open, appointed.cookie);
    const strangerSocket = await viewerIn(server, show.sessionId, open, stranger.cookie);
    const heardByStranger: ChatMessage[] = [];
    strangerSocket.on('chatMessage', (m: ChatMessage) => heardByStranger.push(m));

    const toModerators = [sellerSocket, adminSocket, appointedSocket].map((s) => eventMatching<ChatMessage>(s, 'chatMessage', (m) => m.onlyAuthor));
    const res = await call(author, 'POST', chatUrl(show.sessionId), { text: 'Esto es una estafa' });
    expect(res.statusCode, res.body).toBe(201);
    const line = res.json() as ChatMessage;
    for (const heard of await Promise.all(toModerators)) expect(heard).toMatchObject({ id: line.id, onlyAuthor: true, text: 'Esto es una estafa' });
    await settled(server, strangerSocket, show.sessionId);
    expect(heardByStranger).toEqual([]);

    for (const moderator of [show.seller, show.admin, appointed]) {
      const items = (await page(moderator, show.sessionId)).items;
      expect(items.map((l) => [l.id, l.onlyAuthor])).toEqual([[line.id, true]]);
    }
    expect((await page(stranger, show.sessionId)).items).toEqual([]);
    // A moderator deletes it: gone for its author too.
    expect((await call(show.seller, 'DELETE', `${chatUrl(show.sessionId)}/${line.id}`)).statusCode).toBe(204);
    expect((await page(author, show.sessionId)).items).toEqual([]);
  });
});
