import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatPage } from '../../../../src/domain/chat.js';
import { chatMessages, companyBlocks, sessionMutes } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { buildActor, buildBidder } from '../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { agePace, auditsOf, buildShow, chatUrl, expectError } from './fixtures.js';

/**
 * Writing a line in a show's chat: who may, what text is refused and how (said, never rewritten),
 * blocks and mutes, the pace, the slow mode and repeated lines, announcements, and what a line
 * tells about its author (a public name and a pseudonym, nothing private).
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
}, 60_000);
afterAll(async () => server?.close());

const call = caller(() => server);
const post = (who: { cookie: string } | null, sessionId: string, payload: unknown) => call(who, 'POST', chatUrl(sessionId), payload);
const linesOf = (sessionId: string) => server.ctx.db.select().from(chatMessages).where(eq(chatMessages.sessionId, sessionId));

describe('who may write', () => {
  it('refuses a signed-out visitor, an ended show and an incomplete profile, in that order, storing nothing', async () => {
    const show = await buildShow(server);
    expectError(await post(null, show.sessionId, { text: 'Hola' }), 401, 'UNAUTHENTICATED');

    const ended = await buildShow(server, { status: 'ended' });
    const writer = await buildBidder(server);
    const refused = expectError(await post(writer, ended.sessionId, { text: 'Hola' }), 409, 'CONFLICT');
    expect(refused.message).toBe(messages.chat.sessionEnded);

    const incomplete = await buildActor(server, { email: 'sin-perfil@ejemplo.mx', name: 'Inés Incompleta', roles: ['buyer'] });
    expect(expectError(await post(incomplete, show.sessionId, { text: 'Hola' }), 403, 'PROFILE_INCOMPLETE').message).toBe(messages.chat.profileIncomplete);
    // The show's own moderators answer in it whatever their profile (the seller here has no WhatsApp).
    expect((await post(show.seller, show.sessionId, { text: 'Bienvenidos' })).statusCode).toBe(201);
    // The ended show is checked before the profile.
    expectError(await post(incomplete, ended.sessionId, { text: 'Hola' }), 409, 'CONFLICT');
    expect((await linesOf(show.sessionId)).map((l) => l.text)).toEqual(['Bienvenidos']);
    expect(await linesOf(ended.sessionId)).toHaveLength(0);
  });

  it('answers 404 for a session that does not exist or an id that is not one', async () => {
    const writer = await buildBidder(server);
    expectError(await post(writer, '00000000-0000-4000-8000-000000000000', { text: 'Hola' }), 404, 'NOT_FOUND');
    expectError(await post(writer, 'no-es-un-id', { text: 'Hola' }), 404, 'NOT_FOUND');
    expectError(await call(null, 'GET', chatUrl('no-es-un-id')), 404, 'NOT_FOUND');
  });
});

describe('the text of a line', () => {
  it('refuses empty, control characters, NUL, lone surrogates and over 200 characters, saying which, storing nothing', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const cases: [unknown, string][] = [
      ['', messages.chat.fields.empty],
      ['    ', messages.chat.fields.empty],
      ['hola\u0000mundo', messages.chat.fields.invalidCharacters],
      ['hola\u0007', messages.chat.fields.invalidCharacters],
      ['primera línea\nsegunda', messages.chat.fields.invalidCharacters],
      ['roto \uD83D', messages.chat.fields.invalidCharacters],
      ['\uDE00 roto', messages.chat.fields.invalidCharacters],
      ['x'.repeat(201), messages.chat.fields.tooLong],
      ['x'.repeat(10_000), messages.chat.fields.tooLong],
      ['x'.repeat(10_001), messages.chat.fields.chatTextTooLong],
      [42, messages.chat.fields.chatTextRequired],
    ];
    // Refused lines count against the flood limit too: a few writers share the cases.
    const writers = [writer, await buildBidder(server), await buildBidder(server)];
    for (const [i, [text, words]] of cases.entries()) {
      const error = expectError(await post(writers[i % 3] ?? writer, show.sessionId, { text }), 400, 'VALIDATION');
      expect(error.fields?.text, JSON.stringify(text).slice(0, 40)).toBe(words);
    }
    expectError(await post(writer, show.sessionId, {}), 400, 'VALIDATION');
    expect(await linesOf(show.sessionId)).toHaveLength(0);
  });

  it('stores HTML and spaces exactly as typed, as plain text, and counts characters, not UTF-16 units', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const html = '  <script>alert("hola")</script><b>¡Vendido!</b> https://ejemplo.mx  ';
    const res = await post(writer, show.sessionId, { text: html });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect((res.json() as ChatMessage).text).toBe(html);
    const [stored] = await linesOf(show.sessionId);
    expect(stored?.text).toBe(html);

    await agePace(server, show.sessionId, writer.id, 3);
    const emoji = '🔨'.repeat(200);
    const ok = await post(writer, show.sessionId, { text: emoji });
    expect(ok.statusCode, ok.body).toBe(201);
    expect((ok.json() as ChatMessage).text).toBe(emoji);
  });
});

describe('blocks and mutes', () => {
  it('refuses a buyer the company blocked, and only in that company’s shows', async () => {
    const show = await buildShow(server);
    const other = await buildShow(server);
    const writer = await buildBidder(server);
    await server.ctx.db.insert(companyBlocks).values({ companyId: show.companyId, userId: writer.id, blockedBy: show.seller.id });
    expect(expectError(await post(writer, show.sessionId, { text: 'Hola' }), 403, 'BUYER_BLOCKED').message).toBe(messages.chat.blocked);
    expect((await post(writer, other.sessionId, { text: 'Hola' })).statusCode).toBe(201);
    const page = (await call(writer, 'GET', chatUrl(show.sessionId))).json() as ChatPage;
    expect(page.me).toMatchObject({ isBlocked: true, canWrite: false });
  });

  it('refuses a muted user until the mute runs out, saying until when', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const muted = await call(show.seller, 'POST', `/api/live-sessions/${show.sessionId}/mutes`, { userId: writer.id, minutes: 5 });
    expect(muted.statusCode, muted.body).toBe(201);
    const refusal = expectError(await post(writer, show.sessionId, { text: 'Hola' }), 403, 'CHAT_MUTED') as { message: string; mutedUntil?: number };
    expect(refusal.message).toMatch(/^Un moderador te silenció en este chat hasta las \d{2}:\d{2}.*\(faltan 5 min\)\.$/);
    expect(refusal.mutedUntil).toBeGreaterThan(Date.now() + 4 * 60_000);
    const page = (await call(writer, 'GET', chatUrl(show.sessionId))).json() as ChatPage;
    expect(page.me).toMatchObject({ canWrite: false, mutedUntil: refusal.mutedUntil });

    // Five minutes later (the mute's end moved back, as the clock would have moved on).
    await server.ctx.db
      .update(sessionMutes)
      .set({ until: sql`now() - interval '1 second'` })
      .where(and(eq(sessionMutes.sessionId, show.sessionId), eq(sessionMutes.userId, writer.id)));
    expect((await post(writer, show.sessionId, { text: 'Ya puedo' })).statusCode).toBe(201);
    expect((await call(show.seller, 'GET', `/api/live-sessions/${show.sessionId}/mutes`)).json()).toEqual({ items: [] });
  });

  it('refuses a user muted until the end for the rest of the show, and only in that show', async () => {
    const show = await buildShow(server);
    const other = await buildShow(server, { companyId: show.companyId });
    const writer = await buildBidder(server);
    expect((await call(show.admin, 'POST', `/api/live-sessions/${show.sessionId}/mutes`, { userId: writer.id, minutes: null })).statusCode).toBe(201);
    expect(expectError(await post(writer, show.sessionId, { text: 'Hola' }), 403, 'CHAT_MUTED').message).toBe(messages.chat.mutedUntilEnd);
    expect((await post(writer, other.sessionId, { text: 'Hola' })).statusCode).toBe(201);
  });
});

describe('the pace, the slow mode and repeated lines', () => {
  it('lets a user write one line every 2 seconds, saying how long to wait', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    expect((await post(writer, show.sessionId, { text: 'Uno' })).statusCode).toBe(201);
    const refusal = expectError(await post(writer, show.sessionId, { text: 'Dos' }), 429, 'CHAT_RATE_LIMITED');
    expect(refusal.message).toBe(messages.chat.tooFast.replace('{{seconds}}', '2'));
    await agePace(server, show.sessionId, writer.id, 1.5);
    expect(expectError(await post(writer, show.sessionId, { text: 'Dos' }), 429, 'CHAT_RATE_LIMITED').message).toBe(
      messages.chat.tooFast.replace('{{seconds}}', '1'),
    );
    await agePace(server, show.sessionId, writer.id, 0.6);
    expect((await post(writer, show.sessionId, { text: 'Dos' })).statusCode).toBe(201);
    expect((await linesOf(show.sessionId)).map((l) => l.text)).toEqual(['Uno', 'Dos']);
  });

  it('lets one of several simultaneous lines of a user through', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((text) => post(writer, show.sessionId, { text })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 429, 429, 429, 429]);
    expect(await linesOf(show.sessionId)).toHaveLength(1);
  });

  it('holds the slow mode for buyers, saying how long to wait, and not for moderators', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const set = await call(show.seller, 'PUT', `/api/live-sessions/${show.sessionId}/chat-settings`, { slowModeSeconds: 10 });
    expect(set.statusCode, set.body).toBe(200);
    expect((await post(writer, show.sessionId, { text: 'Uno' })).statusCode).toBe(201);
    await agePace(server, show.sessionId, writer.id, 3);
    expect(expectError(await post(writer, show.sessionId, { text: 'Dos' }), 429, 'CHAT_SLOW_MODE').message).toBe(
      messages.chat.slowMode.replace('{{seconds}}', '7'),
    );
    await agePace(server, show.sessionId, writer.id, 7);
    expect((await post(writer, show.sessionId, { text: 'Dos' })).statusCode).toBe(201);

    // The seller keeps the 2-second pace only.
    expect((await post(show.seller, show.sessionId, { text: 'Bienvenidos' })).statusCode).toBe(201);
    await agePace(server, show.sessionId, show.seller.id, 2);
    expect((await post(show.seller, show.sessionId, { text: 'Empezamos' })).statusCode).toBe(201);
  });

  it('refuses the same line again (trimmed, any case), and accepts it after another one', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    expect((await post(writer, show.sessionId, { text: '¿Cuánto mide?' })).statusCode).toBe(201);
    await agePace(server, show.sessionId, writer.id, 3);
    expect(expectError(await post(writer, show.sessionId, { text: '  ¿CUÁNTO MIDE?  ' }), 409, 'CHAT_DUPLICATE').message).toBe(messages.chat.duplicate);
    expect((await post(writer, show.sessionId, { text: '¿Cuánto mide? Gracias' })).statusCode).toBe(201);
    await agePace(server, show.sessionId, writer.id, 3);
    expect((await post(writer, show.sessionId, { text: '¿Cuánto mide?' })).statusCode).toBe(201);
    // Another writer may say the same.
    expect((await post(await buildBidder(server), show.sessionId, { text: '¿Cuánto mide?' })).statusCode).toBe(201);
  });

  it('turns away a flood beyond the pace before it reaches the rules, in the same words', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    for (let i = 0; i < 10; i++) {
      await agePace(server, show.sessionId, writer.id, 3);
      expect((await post(writer, show.sessionId, { text: `Línea ${i}` })).statusCode).toBe(201);
    }
    await agePace(server, show.sessionId, writer.id, 3);
    const refusal = expectError(await post(writer, show.sessionId, { text: 'Una más' }), 429, 'CHAT_RATE_LIMITED');
    expect(refusal.message).toMatch(/^Estás escribiendo demasiado rápido: espera \d+ s/);
    expect(await linesOf(show.sessionId)).toHaveLength(10);
  });
});

describe('announcements and authors', () => {
  it('posts a moderator’s announcement, audited, and refuses one from a buyer', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    expect(expectError(await post(writer, show.sessionId, { text: 'Atención', announcement: true }), 403, 'FORBIDDEN').message).toBe(
      messages.chat.announcementModeratorsOnly,
    );
    const res = await post(show.seller, show.sessionId, { text: 'Envíos gratis hoy', announcement: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'announcement', authorIsModerator: true, text: 'Envíos gratis hoy' });
    expect(await auditsOf(server, show.sessionId, 'chat.announce')).toHaveLength(1);
  });

  it('shows the public name and a per-session pseudonym, never the e-mail, phone or user id', async () => {
    const show = await buildShow(server);
    const other = await buildShow(server);
    const writer = await buildBidder(server);
    const res = await post(writer, show.sessionId, { text: 'Hola a todos' });
    const line = res.json() as ChatMessage;
    expect(line).toMatchObject({ kind: 'user', authorName: `${writer.name.split(' ')[0]} P.`, authorIsModerator: false, onlyAuthor: false, system: null });
    for (const secret of [writer.email, writer.whatsapp, writer.whatsapp.slice(3), writer.id]) expect(res.body).not.toContain(secret);
    const page = (await call(writer, 'GET', chatUrl(show.sessionId))).json() as ChatPage;
    expect(page.me?.tag).toBe(line.authorTag);
    expect(JSON.stringify(page)).not.toContain(writer.id);
    const elsewhere = (await post(writer, other.sessionId, { text: 'Hola' })).json() as ChatMessage;
    expect(elsewhere.authorTag).not.toBe(line.authorTag);
    // The seller's line carries the moderator badge.
    expect(((await post(show.seller, show.sessionId, { text: 'Bienvenidos' })).json() as ChatMessage).authorIsModerator).toBe(true);
  });
});
