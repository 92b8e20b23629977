import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haproxyMissingReason, type RunningHaproxy, startHaproxy } from '../../support/haproxy.js';
import { eventually } from '../../support/wait.js';

/**
 * Behind deploy/haproxy.cfg the instances (TRUST_PROXY=true) keep the balancer's X-Request-ID as
 * their request id: it must be HAProxy's own, whatever the client sent, and in HAProxy's log line
 * too. Webhooks keep their sender's (Mercado Pago signs it). An instance here is a plain server
 * that answers with the header it received.
 */
const missing = haproxyMissingReason();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.skipIf(missing !== null)('the balancer and the request id', () => {
  let instance: Server;
  let lb: RunningHaproxy;
  beforeAll(async () => {
    instance = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ requestId: req.headers['x-request-id'] ?? null }));
    });
    await new Promise<void>((resolve) => instance.listen(0, '127.0.0.1', resolve));
    const port = (instance.address() as AddressInfo).port;
    lb = await startHaproxy({ app1: port, app2: port });
    // Once HAProxy's checks find the instance up, it answers through the balancer.
    await eventually(async () => {
      const res = await fetch(`${lb.url}/healthz`);
      await res.arrayBuffer();
      return res.status === 200;
    });
  });
  afterAll(async () => {
    await lb?.stop();
    await new Promise((resolve) => instance?.close(resolve));
  });

  const requestIdAt = async (path: string, headers: Record<string, string> = {}): Promise<string | null> => {
    const res = await fetch(`${lb.url}${path}`, { headers });
    return ((await res.json()) as { requestId: string | null }).requestId;
  };

  it('gives each request an id of its own, replacing one the client sent, and logs it', async () => {
    const plain = await requestIdAt('/api/categories');
    const claimed = await requestIdAt('/api/categories', { 'x-request-id': 'elegido-por-el-cliente' });
    expect(plain).toMatch(UUID);
    expect(claimed).toMatch(UUID);
    expect(claimed).not.toBe(plain);
    await eventually(() => lb.logTail().includes(`{${claimed}}`));
  });

  it('leaves a webhook’s own id as its sender signed it', async () => {
    expect(await requestIdAt('/api/webhooks/mercadopago', { 'x-request-id': 'b1c2d3e4-mp' })).toBe('b1c2d3e4-mp');
  });
});
