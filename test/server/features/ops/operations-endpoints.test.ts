import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src/server/app.js';
import { createTestDatabase } from '../../../support/db.js';
import { startTestServer, type TestServer, testConfig } from '../../../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => server?.close());

describe('operations endpoints', () => {
  it('/healthz answers while the process lives', async () => {
    const res = await server.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz checks the database and the migrations', async () => {
    const res = await server.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: true, migrations: true } });
  });

  it('/readyz answers 503 when the database is gone', async () => {
    const database = await createTestDatabase();
    const { app } = await buildApp({ config: testConfig(), database, logger: false });
    try {
      await database.close();
      const res = await app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'not_ready', checks: { database: false, migrations: false } });
    } finally {
      await app.close();
      await database.destroy();
    }
  });

  it('/readyz answers 503 while the server drains before shutting down, and everything else is still served', async () => {
    server.ctx.lifecycle.draining = true;
    try {
      const ready = await server.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'draining' });
      expect((await server.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await server.app.inject({ url: '/api/live-sessions/public' })).statusCode).toBe(200);
    } finally {
      server.ctx.lifecycle.draining = false;
    }
  });

  it('/metrics speaks Prometheus and counts requests by route', async () => {
    await server.app.inject({ url: '/api/me' });
    const res = await server.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toMatch(/martillo_http_requests_total\{method="GET",route="\/api\/me",status="200"\} \d+/);
    expect(res.body).toContain('martillo_process_cpu_seconds_total');
    expect(res.body).toContain('martillo_socket_connections');
  });

  it('/api/openapi.json describes the API from the routes’ own schemas', async () => {
    const res = await server.app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/me', '/api/profile', '/auth/google', '/auth/logout', '/healthz']));
    const body = doc.paths['/api/profile'].put.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['lastName', 'whatsappCountryCode', 'whatsappLocal', 'whatsappConsentGiven']);
  });

  it('/api/config names the engine of each part', async () => {
    const res = await server.app.inject({ url: '/api/config' });
    expect(res.json()).toEqual({ signIn: 'development', payments: 'sandbox', video: { provider: 'embedded', iceServers: [] } });
  });

  it('answers unknown API paths with a Spanish JSON 404', async () => {
    const res = await server.app.inject({ url: '/api/nada' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });

  it('refuses oversized bodies with a Spanish message', async () => {
    const res = await server.app.inject({ method: 'PUT', url: '/api/profile', payload: { lastName: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
