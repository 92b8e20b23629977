import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src/server/app.js';
import { chatAddressPace, chatMessages } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { buildBidder } from '../../../support/actors.js';
import { injectAs, startTestServer, type TestServer, testConfig } from '../../../support/server.js';
import { buildShow, chatUrl, expectError } from './fixtures.js';

/**
 * Beside each writer's own pace, a client address writes at most CHAT_LINES_PER_ADDRESS lines in
 * 10 seconds in a show, all its accounts together: many accounts on one machine cannot flood the
 * chat. The address is the one the server trusts (the peer, or with TRUST_PROXY the proxy's
 * X-Forwarded-For); an IPv6 address counts by its /64; the show's moderators are not counted.
 * The count lives in the database, so it holds across instances.
 */

/** Two lines, then one every 5 seconds: the tests below post well within that. */
const LIMIT = 2;
/** Behind a proxy, as the server is configured to trust one: X-Forwarded-For names the client. */
let server: TestServer;
/** A second instance on the same database and secret, as behind a load balancer. */
let second: { app: FastifyInstance; url: string };
/** No proxy trusted: X-Forwarded-For is the client's own claim and is ignored. */
let direct: TestServer;

beforeAll(async () => {
  const env = { TRUST_PROXY: 'true', CHAT_LINES_PER_ADDRESS: String(LIMIT), SESSION_SECRET: 'chat-address-limit-'.padEnd(40, 'x') };
  server = await startTestServer({ listen: false, env });
  const url = 'http://127.0.0.1:9';
  const built = await buildApp({ config: testConfig({ ...env, PUBLIC_URL: url }), database: server.database, logger: false, jobs: [] });
  second = { app: built.app, url };
  direct = await startTestServer({ listen: false, env: { CHAT_LINES_PER_ADDRESS: String(LIMIT) } });
}, 60_000);
afterAll(async () => {
  await second?.app.close();
  await server?.close();
  await direct?.close();
});

type Who = { cookie: string };
const postVia = (instance: { app: FastifyInstance; url: string }, who: Who, sessionId: string, text: string, from?: string) =>
  injectAs(instance, who, 'POST', chatUrl(sessionId), { text }, from ? { 'x-forwarded-for': from } : {});
const post = (who: Who, sessionId: string, text: string, from: string) => postVia(server, who, sessionId, text, from);
const count = async (db: TestServer['ctx']['db'], sessionId: string) =>
  (await db.select({ id: chatMessages.id }).from(chatMessages).where(sql`${chatMessages.sessionId} = ${sessionId}::uuid`)).length;
/** As if `seconds` had passed for the session's address counts (the rule reads the database's clock). */
const ageAddresses = (sessionId: string, seconds: number) =>
  server.ctx.db
    .update(chatAddressPace)
    .set({ dueAt: sql`${chatAddressPace.dueAt} - (${seconds}::float8 * interval '1 second')` })
    .where(sql`${chatAddressPace.sessionId} = ${sessionId}::uuid`);

describe('lines per address', () => {
  it(`lets one address write ${LIMIT} lines in a show from any of its accounts, then says why and how long to wait`, async () => {
    const show = await buildShow(server);
    const accounts = [await buildBidder(server), await buildBidder(server), await buildBidder(server), await buildBidder(server)];
    for (const [i, account] of accounts.slice(0, LIMIT).entries())
      expect((await post(account, show.sessionId, `Hola ${i}`, '203.0.113.7')).statusCode).toBe(201);
    const refusal = expectError(await post(accounts[LIMIT] as Who, show.sessionId, 'Hola 3', '203.0.113.7'), 429, 'CHAT_ADDRESS_LIMITED') as {
      message: string;
      retryAfterSeconds?: number;
    };
    expect(refusal.message).toMatch(/^Desde tu red se están enviando demasiados mensajes a este chat: espera \d+ s/);
    expect(refusal.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refusal.message).toBe(messages.chat.addressLimited.replace('{{seconds}}', String(refusal.retryAfterSeconds)));
    expect(await count(server.ctx.db, show.sessionId)).toBe(LIMIT);

    // Another address, the same show: its own count.
    expect((await post(accounts[LIMIT] as Who, show.sessionId, 'Hola 3', '198.51.100.20')).statusCode).toBe(201);
    // The same address in another show: its own count too.
    const other = await buildShow(server);
    expect((await post(accounts[0] as Who, other.sessionId, 'Hola', '203.0.113.7')).statusCode).toBe(201);
  });

  it('frees a line every 10 / limit seconds, and a refused line costs its writer no turn', async () => {
    const show = await buildShow(server);
    const accounts = [await buildBidder(server), await buildBidder(server), await buildBidder(server), await buildBidder(server)];
    for (const [i, account] of accounts.slice(0, LIMIT).entries()) await post(account, show.sessionId, `Uno ${i}`, '203.0.113.8');
    const late = accounts[LIMIT] as Who;
    expectError(await post(late, show.sessionId, 'Llego tarde', '203.0.113.8'), 429, 'CHAT_ADDRESS_LIMITED');
    await ageAddresses(show.sessionId, 10 / LIMIT);
    // Its writer's own 2-second pace did not start with the refused line: it goes through at once.
    expect((await post(late, show.sessionId, 'Llego tarde', '203.0.113.8')).statusCode).toBe(201);
    // And that line took the freed turn: the address is at its limit again.
    expectError(await post(await buildBidder(server), show.sessionId, 'Otra', '203.0.113.8'), 429, 'CHAT_ADDRESS_LIMITED');
  });

  it('counts an IPv6 address by its /64, as a phone gets a /64 of its own', async () => {
    const show = await buildShow(server);
    const accounts = [await buildBidder(server), await buildBidder(server), await buildBidder(server), await buildBidder(server)];
    for (const [i, account] of accounts.slice(0, LIMIT).entries())
      expect((await post(account, show.sessionId, `Hola ${i}`, `2001:db8:1:2::${i + 1}`)).statusCode).toBe(201);
    expectError(await post(accounts[LIMIT] as Who, show.sessionId, 'Hola', '2001:db8:1:2:ffff::9'), 429, 'CHAT_ADDRESS_LIMITED');
    expect((await post(accounts[LIMIT] as Who, show.sessionId, 'Hola', '2001:db8:1:3::1')).statusCode).toBe(201);
  });

  it('does not count the show’s moderators, who often write from the seller’s Wi-Fi', async () => {
    const show = await buildShow(server);
    for (let i = 0; i < LIMIT; i++) expect((await post(await buildBidder(server), show.sessionId, `Hola ${i}`, '203.0.113.9')).statusCode).toBe(201);
    expect((await post(show.seller, show.sessionId, 'Bienvenidos', '203.0.113.9')).statusCode).toBe(201);
    expect((await post(show.admin, show.sessionId, 'Empezamos en un minuto', '203.0.113.9')).statusCode).toBe(201);
    // The buyers there are still at their limit: the moderators' lines neither passed it nor took from it.
    expectError(await post(await buildBidder(server), show.sessionId, 'Hola', '203.0.113.9'), 429, 'CHAT_ADDRESS_LIMITED');
  });

  it('holds across instances: the count is the database’s', async () => {
    const show = await buildShow(server);
    const accounts = [await buildBidder(server), await buildBidder(server), await buildBidder(server), await buildBidder(server)];
    const instances = [server, second];
    for (const [i, account] of accounts.slice(0, LIMIT).entries())
      expect((await postVia(instances[i] ?? server, account, show.sessionId, `Hola ${i}`, '203.0.113.10')).statusCode).toBe(201);
    expectError(await postVia(second, accounts[LIMIT] as Who, show.sessionId, 'Hola', '203.0.113.10'), 429, 'CHAT_ADDRESS_LIMITED');
  });

  it('keeps no address anyone could read back', async () => {
    const show = await buildShow(server);
    await post(await buildBidder(server), show.sessionId, 'Hola', '203.0.113.77');
    const rows = await server.ctx.db.select().from(chatAddressPace).where(sql`${chatAddressPace.sessionId} = ${show.sessionId}::uuid`);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain('203.0.113.77');
    expect(stored).not.toContain('203.0.113');
  });
});

describe('without a trusted proxy', () => {
  it('reads the peer’s address: a forged X-Forwarded-For does not make new addresses', async () => {
    const show = await buildShow(direct);
    const accounts = [await buildBidder(direct), await buildBidder(direct), await buildBidder(direct), await buildBidder(direct)];
    for (const [i, account] of accounts.slice(0, LIMIT).entries())
      expect((await postVia(direct, account, show.sessionId, `Hola ${i}`, `198.51.100.${i + 1}`)).statusCode).toBe(201);
    expectError(await postVia(direct, accounts[LIMIT] as Who, show.sessionId, 'Hola', '198.51.100.99'), 429, 'CHAT_ADDRESS_LIMITED');
    expect(await count(direct.ctx.db, show.sessionId)).toBe(LIMIT);
  });
});
