import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * Every response names its request in X-Request-ID (the id of its log lines and audit rows). An id
 * the client sends is taken only from a trusted proxy (TRUST_PROXY) and only when it is a plain
 * token; otherwise the server makes its own.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let direct: TestServer;
let behindProxy: TestServer;
beforeAll(async () => {
  direct = await startTestServer({ listen: false, scheduler: false });
  behindProxy = await startTestServer({ listen: false, scheduler: false, env: { TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await direct?.close();
  await behindProxy?.close();
});

describe('X-Request-ID', () => {
  it('is on every response: an answer, a refusal, a missing route, a bad request', async () => {
    const answers = [
      await direct.app.inject({ url: '/api/categories' }),
      await direct.app.inject({ url: '/api/users' }),
      await direct.app.inject({ url: '/api/no-such-route' }),
      // A change from another site is refused before any route runs (csrf.ts).
      await direct.app.inject({ method: 'POST', url: '/api/categories', headers: { origin: 'https://otro.example' }, payload: { name: 'X' } }),
      await direct.app.inject({ method: 'POST', url: '/auth/dev', headers: { 'content-type': 'application/json' }, payload: '{not json' }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 401, 404, 403, 400]);
    const ids = answers.map((res) => res.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is the server’s own when the server is not behind a trusted proxy, whatever the client sends', async () => {
    const res = await direct.app.inject({ url: '/api/categories', headers: { 'x-request-id': 'cliente-123' } });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('is the trusted proxy’s when it is a plain token of at most 64 characters', async () => {
    for (const sent of ['haproxy-5f3a.0001_x', 'A'.repeat(64), '0b5e7a4c-2d1f-4e8a-9c3b-6f7d8e9a0b1c']) {
      const res = await behindProxy.app.inject({ url: '/api/categories', headers: { 'x-request-id': sent } });
      expect(res.headers['x-request-id'], sent).toBe(sent);
    }
  });

  it('is a fresh one when even a trusted proxy’s is too long, empty or not a plain token', async () => {
    for (const sent of ['A'.repeat(65), '', 'dos palabras', 'a,b', 'id;drop', '<script>', 'ñandú', '{"id":1}']) {
      const res = await behindProxy.app.inject({ url: '/api/categories', headers: { 'x-request-id': sent } });
      expect(res.headers['x-request-id'], JSON.stringify(sent)).toMatch(UUID);
    }
  });
});
