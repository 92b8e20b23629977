import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAPROXY_CONFIG, haproxyMissingReason, type RunningHaproxy, startHaproxy } from '../../support/haproxy.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { eventually } from '../../support/wait.js';

/**
 * Behind deploy/haproxy.cfg a client's idle connection is HAProxy's, closed after its
 * `timeout http-keep-alive`. The app's `Keep-Alive: timeout=72` (Fastify's default, for a balancer
 * that keeps connections longer) must not reach the client through it: a client that trusts the
 * hint (Node's fetch does) reuses a connection HAProxy is closing, and a bid sent on it fails with
 * "other side closed" (seen in the rolling restart of the several-instances test).
 */
const missing = haproxyMissingReason();

describe.skipIf(missing !== null)('the balancer and keep-alive', () => {
  let server: TestServer;
  let lb: RunningHaproxy;
  beforeAll(async () => {
    server = await startTestServer();
    const port = Number(new URL(server.url).port);
    lb = await startHaproxy({ app1: port, app2: port });
  });
  afterAll(async () => {
    await lb?.stop();
    await server?.close();
  });

  it('promises a client no longer keep-alive than HAProxy keeps its idle connections', async () => {
    const keptSeconds = Number(/timeout http-keep-alive (\d+)s/.exec(readFileSync(HAPROXY_CONFIG, 'utf8'))?.[1]);
    expect(keptSeconds).toBeGreaterThan(0);
    const direct = await fetch(`${server.url}/healthz`);
    // The app does advertise one; the check below would mean nothing otherwise.
    expect(direct.headers.get('keep-alive')).toMatch(/timeout=\d+/);

    // Once HAProxy's checks find the instance up, it answers through the balancer.
    let keepAlive: string | null = null;
    await eventually(async () => {
      const res = await fetch(`${lb.url}/healthz`);
      await res.arrayBuffer();
      keepAlive = res.headers.get('keep-alive');
      return res.status === 200;
    });
    const promised = Number(/timeout=(\d+)/.exec(keepAlive ?? '')?.[1] ?? 0);
    expect(promised).toBeLessThan(keptSeconds);
  });
});
