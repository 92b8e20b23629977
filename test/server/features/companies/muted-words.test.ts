import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MUTED_WORDS_MAX } from '../../../../src/domain/chat.js';
import type { Role } from '../../../../src/domain/role-rules.js';
import { auditLog, companyMutedWords, sessionModerators } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildCompany, buildSession } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

let server: TestServer;
const call = caller(() => server);
const who = {} as Record<'platform' | 'adminA' | 'sellerA' | 'adminB' | 'modA' | 'buyer', Actor>;
const words = messages.moderation.mutedWords;

const person = (roles: Role[], companyId: string | null) =>
  buildActor(server, { email: `p-${randomUUID().slice(0, 8)}@ejemplo.mx`, name: 'Persona Prueba', roles, companyId });
const stored = async (companyId: string) =>
  (await server.ctx.db.select().from(companyMutedWords).where(eq(companyMutedWords.companyId, companyId)))[0]?.words ?? null;
const audits = (companyId: string) =>
  server.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, companyId), eq(auditLog.action, 'company.muted_words')));
const save = (actor: Actor | null, list: unknown, companyId = 'empresa-a') => call(actor, 'PUT', `/api/companies/${companyId}/muted-words`, { words: list });

beforeAll(async () => {
  server = await startTestServer();
  await buildCompany(server.ctx.db, { id: 'empresa-a' });
  await buildCompany(server.ctx.db, { id: 'empresa-b' });
  who.platform = await person(['admin'], null);
  who.adminA = await person(['admin'], 'empresa-a');
  who.sellerA = await person(['seller'], 'empresa-a');
  who.adminB = await person(['admin', 'seller'], 'empresa-b');
  who.modA = await person(['buyer'], null);
  who.buyer = await person(['buyer'], null);
  const session = await buildSession(server.ctx.db, { companyId: 'empresa-a', status: 'live' });
  await server.ctx.db.insert(sessionModerators).values({ sessionId: session.id, userId: who.modA.id });
});
afterAll(async () => server?.close());

describe('who may read and change a company’s muted words', () => {
  it.each([
    ['signed out', null, 401],
    ['a buyer', 'buyer', 403],
    ['a moderator of one of its shows', 'modA', 403],
    ['another company’s admin', 'adminB', 404],
    ['a seller of the company', 'sellerA', 200],
    ['an admin of the company', 'adminA', 200],
    ['a platform admin', 'platform', 200],
  ] as const)('%s: %i', async (_label, actor, status) => {
    const before = await stored('empresa-a');
    const list = [`palabra-${actor}`];
    const put = await save(actor ? who[actor] : null, list);
    expect(put.statusCode).toBe(status);
    const get = await call(actor ? who[actor] : null, 'GET', '/api/companies/empresa-a/muted-words');
    expect(get.statusCode).toBe(status);
    if (status === 200) {
      expect([put.json(), get.json()]).toEqual([{ words: list }, { words: list }]);
      expect(await stored('empresa-a')).toEqual(list);
    } else {
      expect(await stored('empresa-a')).toEqual(before);
    }
  });

  it('answers an untouched company with no words, and an unknown one with 404', async () => {
    expect((await call(who.adminB, 'GET', '/api/companies/empresa-b/muted-words')).json()).toEqual({ words: [] });
    const unknown = await save(who.platform, ['hola'], 'no-existe');
    expect([unknown.statusCode, unknown.json().error.message]).toEqual([404, messages.companies.notFound]);
    expect(await stored('no-existe')).toBeNull();
  });
});

describe('saving the list', () => {
  it('keeps the words exactly as typed, in order, and audits each change with the list before and after', async () => {
    await buildCompany(server.ctx.db, { id: 'empresa-audit' });
    const boss = await person(['admin'], 'empresa-audit');
    const first = ['Pésimo', 'estafa', 'muy malo', '¡fraude!'];
    expect((await save(boss, first, 'empresa-audit')).json()).toEqual({ words: first });
    expect((await save(boss, first, 'empresa-audit')).statusCode).toBe(200);
    const second = ['estafa'];
    expect((await save(boss, second, 'empresa-audit')).json()).toEqual({ words: second });
    expect(await stored('empresa-audit')).toEqual(second);
    const rows = await audits('empresa-audit');
    // The unchanged save wrote nothing.
    expect(rows.map((r) => [r.actorId, r.before, r.after])).toEqual([
      [boss.id, { words: [] }, { words: first }],
      [boss.id, { words: first }, { words: second }],
    ]);
    expect(rows.every((r) => r.ip)).toBe(true);
    expect((await save(boss, [], 'empresa-audit')).json()).toEqual({ words: [] });
  });

  it.each([
    ['a NUL', ['bien', 'ma\u0000lo'], 'words.1', words.invalidCharacters.replace('{{position}}', '2')],
    ['a lone surrogate', ['\uD83D'], 'words.0', words.invalidCharacters.replace('{{position}}', '1')],
    ['a tab', ['uno\tdos'], 'words.0', words.invalidCharacters.replace('{{position}}', '1')],
    ['a zero-width space', ['estafa', 'esta\u200Bfa'], 'words.1', words.invalidCharacters.replace('{{position}}', '2')],
    ['an empty word', ['hola', ''], 'words.1', words.empty.replace('{{position}}', '2')],
    ['a word of spaces', ['   '], 'words.0', words.empty.replace('{{position}}', '1')],
    ['spaces around a word', [' estafa '], 'words.0', 'La palabra 1 (« estafa ») tiene espacios al principio o al final. Quítalos.'],
    ['41 characters', ['a'.repeat(41)], 'words.0', `La palabra 1 («${'a'.repeat(40)}…») tiene más de 40 caracteres.`],
    ['10,000 characters', ['x'.repeat(10_000)], 'words.0', `La palabra 1 («${'x'.repeat(40)}…») tiene más de 40 caracteres.`],
    [
      'a repeat that differs only in case and accents',
      ['estafa', 'Pésimo', 'PESIMO'],
      'words.2',
      'La palabra 3 («PESIMO») repite «Pésimo»: mayúsculas y acentos no cuentan. Deja sólo una.',
    ],
  ])('refuses %s naming the word, and keeps the saved list', async (_label, list, field, message) => {
    await save(who.adminA, ['guardada']);
    const res = await save(who.adminA, list);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'VALIDATION', message: messages.errors.validation, fields: { [field]: message } });
    expect(await stored('empresa-a')).toEqual(['guardada']);
  });

  it('takes emoji joined into one (the joiner is not an invisible character to refuse)', async () => {
    const family = ['👨\u200D👩\u200D👧', 'e\u0301xito'];
    expect((await save(who.adminA, family)).json()).toEqual({ words: family });
    // The same word composed differently is a repeat.
    expect((await save(who.adminA, ['éxito', 'e\u0301xito'])).json().error.fields).toHaveProperty('words.1');
  });

  it('counts characters, not UTF-16 units: 40 emoji are one word of 40', async () => {
    const forty = '😡'.repeat(40);
    expect((await save(who.adminA, [forty])).json()).toEqual({ words: [forty] });
    expect((await save(who.adminA, [`${forty}😡`])).statusCode).toBe(400);
  });

  it('names every refused word at once', async () => {
    const res = await save(who.adminA, ['ok', '', 'Ok', 'b'.repeat(50)]);
    expect(Object.keys(res.json().error.fields)).toEqual(['words.1', 'words.2', 'words.3']);
  });

  it(`takes ${MUTED_WORDS_MAX} words and refuses one more in Spanish`, async () => {
    const most = Array.from({ length: MUTED_WORDS_MAX }, (_, i) => `palabra${i}`);
    expect((await save(who.adminA, most)).statusCode).toBe(200);
    const res = await save(who.adminA, [...most, 'otra']);
    expect([res.statusCode, res.json().error.fields]).toEqual([400, { words: words.tooMany }]);
    expect(await stored('empresa-a')).toEqual(most);
  });

  it('refuses what is not a list of text', async () => {
    for (const body of [{ words: 'estafa' }, { words: [1, 2] }, {}]) {
      const res = await call(who.adminA, 'PUT', '/api/companies/empresa-a/muted-words', body);
      expect([res.statusCode, res.json().error.code]).toEqual([400, 'VALIDATION']);
    }
  });

  it('checks who may before the words: an outsider learns nothing from a bad list', async () => {
    const res = await save(who.adminB, ['']);
    expect([res.statusCode, res.json().error.message]).toEqual([404, messages.companies.notFound]);
  });
});
