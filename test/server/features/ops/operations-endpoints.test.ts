import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src/server/app.js';
import { jobs } from '../../../../src/server/jobs.js';
import { createTestDatabase } from '../../../support/db.js';
import { startTestServer, type TestServer, testConfig } from '../../../support/server.js';
import { eventually } from '../../../support/wait.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => server?.close());

interface ReadyJob {
  name: string;
  running: boolean;
  lastRunAt: string | null;
  lastError: { message: string | null; at: string } | null;
}

/** One job as /readyz lists it. */
async function readyJob(app: TestServer['app'], name: string): Promise<ReadyJob | undefined> {
  const res = await app.inject({ url: '/readyz' });
  return (res.json() as { jobs: ReadyJob[] }).jobs.find((job) => job.name === name);
}

describe('operations endpoints', () => {
  it('/healthz answers while the process lives', async () => {
    const res = await server.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz checks the database and the migrations, and lists every job: none runs on a test server unless named', async () => {
    const res = await server.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { database: true, migrations: true },
      jobs: jobs.map((job) => ({ name: job.name, running: false, lastRunAt: null, lastError: null })),
    });
  });

  it('/readyz lists a running job with its last run', async () => {
    const withClosing = await startTestServer({ listen: false, jobs: ['closing'] });
    try {
      await eventually(async () => (await readyJob(withClosing.app, 'closing'))?.lastRunAt !== null);
      const res = await withClosing.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(200);
      const closing = await readyJob(withClosing.app, 'closing');
      expect(closing).toMatchObject({ name: 'closing', running: true, lastError: null });
      expect(Date.parse(closing?.lastRunAt ?? '')).not.toBeNaN();
      expect(await readyJob(withClosing.app, 'auto-advance')).toMatchObject({ running: false, lastRunAt: null });
    } finally {
      await withClosing.close();
    }
  });

  it('/readyz answers 503 when the database is gone, and a job that failed since says why and when; /metrics counts it', async () => {
    const database = await createTestDatabase();
    const { app } = await buildApp({ config: testConfig(), database, logger: false, jobs: ['closing'] });
    try {
      await database.close();
      await eventually(async () => (await readyJob(app, 'closing'))?.lastError !== null);
      const res = await app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', checks: { database: false, migrations: false } });
      const closing = await readyJob(app, 'closing');
      expect(closing?.lastError?.message).toEqual(expect.any(String));
      expect(Date.parse(closing?.lastError?.at ?? '')).not.toBeNaN();
      // Anyone but the operators reads when it failed, not the message (it may quote a query).
      const outsider = (await app.inject({ url: '/readyz', remoteAddress: '203.0.113.9' })).json() as { jobs: ReadyJob[] };
      expect(outsider.jobs.find((job) => job.name === 'closing')?.lastError).toEqual({ message: null, at: expect.any(String) });
      const metrics = (await app.inject({ url: '/metrics' })).body;
      expect(metrics).toMatch(/martillo_job_failures_total\{job="closing"\} [1-9]\d*/);
      expect(metrics).toMatch(/martillo_job_last_error_timestamp_seconds\{job="closing"\} \d+/);
      expect(metrics).toContain('martillo_job_running{job="closing"} 1');
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

  it('/metrics lists every job: whether it runs here, its passes, failures and last run', async () => {
    const withClosing = await startTestServer({ listen: false, jobs: ['closing'] });
    try {
      await eventually(async () => (await readyJob(withClosing.app, 'closing'))?.lastRunAt !== null);
      const body = (await withClosing.app.inject({ url: '/metrics' })).body;
      expect(body).toContain('martillo_job_running{job="closing"} 1');
      expect(body).toContain('martillo_job_running{job="reminders"} 0');
      expect(body).toMatch(/martillo_job_runs_total\{job="closing"\} [1-9]\d*/);
      expect(body).toContain('martillo_job_failures_total{job="closing"} 0');
      expect(body).toMatch(/martillo_job_last_run_timestamp_seconds\{job="closing"\} \d+/);
      // A job that never ran has no last run to tell.
      expect(body).not.toContain('martillo_job_last_run_timestamp_seconds{job="reminders"}');
    } finally {
      await withClosing.close();
    }
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
