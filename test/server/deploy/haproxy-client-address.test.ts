import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haproxyMissingReason, type RunningHaproxy, startHaproxy } from '../../support/haproxy.js';
import { eventually } from '../../support/wait.js';

/**
 * Behind deploy/haproxy.cfg the instances run with TRUST_PROXY=true and read a client's address as
 * the left-most X-Forwarded-For entry (rate limits, viewer limits, who may read /metrics). That
 * entry must be the address HAProxy saw, whatever the client wrote in its own X-Forwarded-For:
 * `option forwardfor` alone appends to the client's header, and the client would choose its address.
 * An instance here is a plain server that answers with the header it received.
 */
const missing = haproxyMissingReason();

describe.skipIf(missing !== null)('the balancer and the client’s address', () => {
  let instance: Server;
  let lb: RunningHaproxy;
  beforeAll(async () => {
    instance = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ forwardedFor: req.headers['x-forwarded-for'] ?? null }));
    });
    await new Promise<void>((resolve) => instance.listen(0, '127.0.0.1', resolve));
    const port = (instance.address() as AddressInfo).port;
    lb = await startHaproxy({ app1: port, app2: port });
  });
  afterAll(async () => {
    await lb?.stop();
    await new Promise((resolve) => instance?.close(resolve));
  });

  const forwardedFor = async (headers: Record<string, string>): Promise<string | null> => {
    const res = await fetch(`${lb.url}/metrics`, { headers });
    return ((await res.json()) as { forwardedFor: string | null }).forwardedFor;
  };

  it('forwards the address HAProxy saw, and only it, whatever the client claims', async () => {
    // Once HAProxy's checks find the instance up, it answers through the balancer.
    await eventually(async () => {
      const res = await fetch(`${lb.url}/healthz`);
      await res.arrayBuffer();
      return res.status === 200;
    });
    expect(await forwardedFor({})).toBe('127.0.0.1');
    for (const claim of ['203.0.113.9', '10.0.0.1, 203.0.113.9', '127.0.0.1']) {
      expect(await forwardedFor({ 'x-forwarded-for': claim }), claim).toBe('127.0.0.1');
    }
  });
});
