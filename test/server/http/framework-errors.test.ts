import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../src/server/messages.js';
import { type Actor, buildActor } from '../../support/actors.js';
import { openRaw } from '../../support/raw-http.js';
import { injectAs, startTestServer, type TestServer } from '../../support/server.js';

/**
 * What Fastify and Node refuse before any route runs answers in the product's format,
 * `{ error: { code, message } }` in Spanish, and never echoes what was sent.
 */

let server: TestServer;
let seller: Actor;

beforeAll(async () => {
  server = await startTestServer();
  seller = await buildActor(server, { email: 'vende@marco.mx', name: 'Marco Vende', roles: ['seller'], companyId: 'marco' });
}, 60_000);
afterAll(async () => server?.close());

/** The answer is ours: exactly the format and a known Spanish message, so nothing of `sent` can be in it. */
function expectOurs(body: string, expected: { code: string; message: string }, sent: string) {
  expect(JSON.parse(body)).toEqual({ error: expected });
  expect(body).not.toContain(sent);
}

describe('framework errors', () => {
  it('answers a path that is not valid percent-encoded UTF-8 with 400 BAD_URL in Spanish', async () => {
    for (const path of ['/api/live-sessions/%ED%A0%80', '/api/live-sessions/%E0%A4%A', '/api/auctions/%C0%AF/bids', '/%']) {
      const res = await injectAs(server, null, 'GET', path);
      expect(res.statusCode, path).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectOurs(res.body, { code: 'BAD_URL', message: messages.errors.badUrl }, path);
    }
  });

  it('answers a path parameter over the router’s length with 414 URL_TOO_LONG', async () => {
    const path = `/api/live-sessions/${'a'.repeat(300)}`;
    const res = await injectAs(server, null, 'GET', path);
    expect(res.statusCode).toBe(414);
    expectOurs(res.body, { code: 'URL_TOO_LONG', message: messages.errors.urlTooLong }, 'a'.repeat(300));
  });

  it('reads a query with bad percent-encoding as text, answering in the product’s format', async () => {
    const session = (await injectAs(server, seller, 'POST', '/api/live-sessions', { title: 'Consulta', scheduledAt: Date.UTC(2030, 0, 1) })).json();
    for (const q of ['%ED%A0%80', '%E0%A4%A', '%']) {
      const res = await injectAs(server, seller, 'GET', `/api/live-sessions/${session.session.id}/picker?q=${q}`);
      expect([200, 400], q).toContain(res.statusCode);
      if (res.statusCode === 400) expect(res.json().error).toMatchObject({ code: 'VALIDATION', message: messages.errors.validation });
      else expect(res.json()).toHaveProperty('items');
    }
  });

  it('answers an unsupported content type, an empty or broken JSON body, and a wrong length in Spanish', async () => {
    const post = (headers: Record<string, string>, payload: string) =>
      server.app.inject({ method: 'POST', url: '/api/live-sessions', headers: { cookie: seller.cookie, origin: server.url, ...headers }, payload });
    const cases = [
      [post({ 'content-type': 'text/xml' }, '<sesion/>'), 415, { code: 'UNSUPPORTED_MEDIA', message: messages.errors.unsupportedMedia }],
      [post({ 'content-type': 'application/json' }, ''), 400, { code: 'BAD_REQUEST', message: messages.errors.badRequest }],
      [post({ 'content-type': 'application/json' }, '{"title": <script>'), 400, { code: 'INVALID_JSON', message: messages.errors.invalidJson }],
      [post({ 'content-type': 'application/json', 'content-length': '40' }, '{}'), 400, { code: 'BAD_REQUEST', message: messages.errors.badRequest }],
    ] as const;
    for (const [pending, status, error] of cases) {
      const res = await pending;
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual({ error });
      expect(res.body).not.toContain('script');
    }
  });

  it('answers headers over Node’s limit with 431, and a malformed request with 400, on the raw connection', async () => {
    const huge = 'x'.repeat(20_000);
    const cases = [
      [
        `GET /api/live-sessions/public HTTP/1.1\r\nHost: a\r\nX-Relleno: ${huge}\r\n\r\n`,
        431,
        { code: 'HEADERS_TOO_LARGE', message: messages.errors.headersTooLarge },
      ],
      [`GET /api/live-sessions/${huge} HTTP/1.1\r\nHost: a\r\n\r\n`, 431, { code: 'HEADERS_TOO_LARGE', message: messages.errors.headersTooLarge }],
      ['GET /api/live-sessions/public HTTP/1.1\r\nHost: a\r\nCabecera rota\r\n\r\n', 400, { code: 'BAD_REQUEST', message: messages.errors.badRequest }],
    ] as const;
    for (const [head, status, error] of cases) {
      const raw = await openRaw(server.url, head);
      await raw.closed;
      const answer = raw.received();
      expect(answer.startsWith(`HTTP/1.1 ${status} `), answer.slice(0, 80)).toBe(true);
      const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
      expectOurs(body, error, head.includes(huge) ? huge.slice(0, 100) : 'Cabecera rota');
      expect(answer).toMatch(/content-type: application\/json; charset=utf-8/i);
    }
  });
});
