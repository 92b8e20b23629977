import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatPage } from '../../../../src/domain/chat.js';
import { chatMessages, companyMutedWords } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { buildBidder } from '../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { agePace, buildShow, chatUrl, expectError } from './fixtures.js';

/**
 * The chat's rules see a line's canonical text, not its disguise: a muted word or a repeated line
 * does not get through with zero-width characters, direction controls, Cyrillic look-alikes,
 * fullwidth letters or digits written for letters; a line with nothing visible, or mostly
 * stacked marks ("Zalgo"), is refused in Spanish; and what is stored is the text as typed minus
 * its invisible characters, accents, ñ, emoji and ¿¡ untouched.
 */

let server: TestServer;
beforeAll(async () => {
  // Many buyers write here from the test's one address: the per-address limit is another file's.
  server = await startTestServer({ listen: false, env: { CHAT_LINES_PER_ADDRESS: '1000' } });
}, 60_000);
afterAll(async () => server?.close());

const call = caller(() => server);
const post = (who: { cookie: string }, sessionId: string, text: string) => call(who, 'POST', chatUrl(sessionId), { text });
const linesOf = (sessionId: string) => server.ctx.db.select().from(chatMessages).where(eq(chatMessages.sessionId, sessionId)).orderBy(chatMessages.seq);
const pageOf = async (who: { cookie: string } | null, sessionId: string) => ((await call(who, 'GET', chatUrl(sessionId))).json() as ChatPage).items;

describe('muted words in disguise', () => {
  it('keeps to its author a line whose muted word hides behind invisible characters, look-alikes or digits', async () => {
    const show = await buildShow(server);
    await server.ctx.db.insert(companyMutedWords).values({ companyId: show.companyId, words: ['estafa', 'ladrón'] });
    const reader = await buildBidder(server);
    const disguised = [
      'Esto es una es\u200Btafa',
      'Esto es una e\u00ADs\u2060t\uFEFFafa',
      'Esto es una \u202Eestafa\u202C',
      'Esto es una еstаfа', // Cyrillic е and а
      'Esto es una ＥＳＴＡＦＡ',
      'Esto es una 𝐞𝐬𝐭𝐚𝐟𝐚',
      'Esto es una 3st4f4',
      'Eres un l4dr0n',
      'Esto es una e s t a f a',
    ];
    for (const text of disguised) {
      const author = await buildBidder(server);
      const res = await post(author, show.sessionId, text);
      expect(res.statusCode, res.body).toBe(201);
      expect((res.json() as ChatMessage).onlyAuthor, text).toBe(true);
      expect((await pageOf(author, show.sessionId)).map((l) => l.id)).toContain((res.json() as ChatMessage).id);
    }
    // Nobody else sees any of them; an innocent line with a price and a lot number goes to everyone.
    const innocent = await buildBidder(server);
    const clean = await post(innocent, show.sessionId, 'Te doy $500 por el lote 3, ¿es estafador o no?');
    expect((clean.json() as ChatMessage).onlyAuthor).toBe(false);
    expect((await pageOf(reader, show.sessionId)).map((l) => l.text)).toEqual(['Te doy $500 por el lote 3, ¿es estafador o no?']);
    expect((await pageOf(null, show.sessionId)).map((l) => l.text)).toEqual(['Te doy $500 por el lote 3, ¿es estafador o no?']);
  });
});

describe('repeated lines in disguise', () => {
  it('refuses the same line again with invisible characters, look-alikes, another case or more punctuation', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    expect((await post(writer, show.sessionId, '¿Me lo apartas?')).statusCode).toBe(201);
    for (const again of [
      '¿Me\u200B lo apartas?',
      '¿Me lo apartas?\u2060\u2060',
      '¿Me lo аpartas?',
      '¿ME LO APARTAS??',
      'me lo apartas',
      '¿Me lo ａｐａｒｔａｓ?',
    ]) {
      await agePace(server, show.sessionId, writer.id, 3);
      expect(expectError(await post(writer, show.sessionId, again), 409, 'CHAT_DUPLICATE').message, again).toBe(messages.chat.duplicate);
    }
    await agePace(server, show.sessionId, writer.id, 3);
    expect((await post(writer, show.sessionId, '¿Me lo apartas para mañana?')).statusCode).toBe(201);
    expect((await linesOf(show.sessionId)).map((l) => l.text)).toEqual(['¿Me lo apartas?', '¿Me lo apartas para mañana?']);
  });
});

describe('lines with nothing to read', () => {
  it('refuses a line that is empty once its invisible characters are gone, or mostly stacked marks, saying why', async () => {
    const show = await buildShow(server);
    const writers = [await buildBidder(server), await buildBidder(server)];
    const cases: [string, string][] = [
      ['\u200B\u200B\u200B', messages.chat.fields.blank],
      [' \u2060 \u00AD \uFEFF ', messages.chat.fields.blank],
      ['\u3164\u3164', messages.chat.fields.blank],
      ['\u2800\u2800', messages.chat.fields.blank],
      ['\u202E\u2066\u2069', messages.chat.fields.blank],
      ['h̸̡̪̯ͨ͊̽̅̾̎e̷̢̛̱̞l̶̨̛̖l̵̢̛o̴̧̢̕', messages.chat.fields.tooManyMarks],
      ['\u0301\u0301\u0301\u0301', messages.chat.fields.tooManyMarks],
    ];
    for (const [i, [text, words]] of cases.entries()) {
      const error = expectError(await post(writers[i % 2] ?? (writers[0] as { cookie: string }), show.sessionId, text), 400, 'VALIDATION');
      expect(error.fields?.text, JSON.stringify(text)).toBe(words);
    }
    expect(await linesOf(show.sessionId)).toHaveLength(0);
  });
});

describe('what is stored and shown', () => {
  it('is the text as typed minus its invisible characters and the marks stacked beyond three on a letter', async () => {
    const show = await buildShow(server);
    const writer = await buildBidder(server);
    const res = await post(writer, show.sessionId, '\u200BHola\u2060 a to\u00ADdos\u202E, Z\u0301\u0302\u0303\u0304\u0305ona Norte');
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as ChatMessage).text).toBe('Hola a todos, Z\u0301\u0302\u0303ona Norte');
    const [stored] = await linesOf(show.sessionId);
    expect(stored?.text).toBe('Hola a todos, Z\u0301\u0302\u0303ona Norte');
  });

  it('keeps accents, ñ, ¿¡, emoji, their joiners and skin tones, flags and look-alike letters exactly as typed', async () => {
    const show = await buildShow(server);
    const texts = ['¡Señora Muñoz! ¿Tiene más pingüinos?', 'Mi familia 👨‍👩‍👧 te saluda 👍🏽 🇲🇽 🏳️‍🌈 ❤️', 'Привет из Москвы, ελληνικά'];
    for (const text of texts) {
      const res = await post(await buildBidder(server), show.sessionId, text);
      expect(res.statusCode, res.body).toBe(201);
      expect((res.json() as ChatMessage).text).toBe(text);
    }
    expect((await linesOf(show.sessionId)).map((l) => l.text)).toEqual(texts);
  });
});
