import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../support/server.js';

/**
 * /metrics and /api/openapi.json are for the operators: this machine, the addresses in
 * METRICS_ALLOW, or whoever sends METRICS_TOKEN. Anyone else reads the same 404 as a path that does
 * not exist. The client's address is the one the server reads (`req.ip`), so behind a proxy it
 * depends on TRUST_PROXY.
 */

const TOKEN = 'metricas-0123456789abcdef0123456789abcdef';
const OPS_PATHS = ['/metrics', '/api/openapi.json'];
const OUTSIDER = '203.0.113.9';

let server: TestServer;
let proxied: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false, env: { METRICS_ALLOW: '10.0.0.0/8, 192.0.2.7,2001:db8::/32', METRICS_TOKEN: TOKEN } });
  proxied = await startTestServer({ listen: false, env: { TRUST_PROXY: 'true', METRICS_ALLOW: '10.0.0.0/8' } });
});
afterAll(async () => {
  await server?.close();
  await proxied?.close();
});

const get = (s: TestServer, url: string, remoteAddress: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  s.app.inject({ method, url, remoteAddress, headers });

describe('the operators-only endpoints', () => {
  it('answer this machine (IPv4 and IPv6 loopback), as a Prometheus on the same host scrapes them', async () => {
    for (const address of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) {
      const metrics = await get(server, '/metrics', address);
      expect(metrics.statusCode, address).toBe(200);
      expect(metrics.body, address).toContain('martillo_http_requests_total');
      const openapi = await get(server, '/api/openapi.json', address);
      expect(openapi.statusCode, address).toBe(200);
      expect(openapi.json().openapi, address).toMatch(/^3\./);
    }
  });

  it('answer the addresses and ranges of METRICS_ALLOW, IPv4 and IPv6', async () => {
    for (const address of ['10.1.2.3', '::ffff:10.200.0.1', '192.0.2.7', '2001:db8::5', '2001:db8:ffff::1']) {
      for (const url of OPS_PATHS) expect((await get(server, url, address)).statusCode, `${url} from ${address}`).toBe(200);
    }
  });

  it('answer anyone else with the 404 of a path that does not exist, GET or HEAD', async () => {
    const missing = await get(server, '/api/no-existe', OUTSIDER);
    for (const address of [OUTSIDER, '11.0.0.1', '192.0.2.8', '2001:db9::1', '::ffff:203.0.113.9']) {
      for (const url of OPS_PATHS) {
        const res = await get(server, url, address);
        expect(res.statusCode, `${url} from ${address}`).toBe(404);
        expect(res.json(), `${url} from ${address}`).toEqual(missing.json());
        expect(res.body, `${url} from ${address}`).not.toContain('martillo_');
        expect((await get(server, url, address, {}, 'HEAD')).statusCode, `HEAD ${url} from ${address}`).toBe(404);
      }
    }
  });

  it('answer anyone who sends METRICS_TOKEN as a bearer token, and no one for a wrong or partial one', async () => {
    for (const url of OPS_PATHS) {
      expect((await get(server, url, OUTSIDER, { authorization: `Bearer ${TOKEN}` })).statusCode, url).toBe(200);
      expect((await get(server, url, OUTSIDER, { authorization: `bearer ${TOKEN}` })).statusCode, url).toBe(200);
      for (const authorization of [
        `Bearer ${TOKEN.slice(0, -1)}`,
        `Bearer ${TOKEN}x`,
        `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`,
        TOKEN,
        'Bearer ',
      ]) {
        expect((await get(server, url, OUTSIDER, { authorization })).statusCode, `${url} with ${authorization}`).toBe(404);
      }
    }
  });

  it('without TRUST_PROXY, do not take a proxied request for this machine: a proxy on this host would pass anyone', async () => {
    const forwarded: Record<string, string>[] = [
      { 'x-forwarded-for': OUTSIDER },
      { forwarded: `for=${OUTSIDER}` },
      { 'x-real-ip': OUTSIDER },
      { 'x-forwarded-for': '127.0.0.1' },
    ];
    for (const headers of forwarded) {
      expect((await get(server, '/metrics', '127.0.0.1', headers)).statusCode, JSON.stringify(headers)).toBe(404);
    }
    // The token still lets the operators in through it.
    expect((await get(server, '/metrics', '127.0.0.1', { 'x-forwarded-for': OUTSIDER, authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
  });

  it('with TRUST_PROXY, judge the client the proxy forwarded, not the proxy', async () => {
    const viaProxy = (client: string) => get(proxied, '/metrics', '127.0.0.1', { 'x-forwarded-for': client });
    expect((await viaProxy(OUTSIDER)).statusCode).toBe(404);
    expect((await viaProxy('10.4.5.6')).statusCode).toBe(200);
    expect((await viaProxy('127.0.0.1')).statusCode).toBe(200);
    // No token configured here: a bearer header opens nothing.
    expect((await get(proxied, '/metrics', '127.0.0.1', { 'x-forwarded-for': OUTSIDER, authorization: `Bearer ${TOKEN}` })).statusCode).toBe(404);
  });

  it('leave the load balancer’s and the pages’ own endpoints open to everyone', async () => {
    for (const url of ['/healthz', '/readyz', '/api/config']) expect((await get(server, url, OUTSIDER)).statusCode, url).toBe(200);
  });
});
