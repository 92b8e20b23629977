import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * Pages say which browser features they may use (Permissions-Policy): the camera and microphone on
 * the Live Hub only (any path ending in /livehub, SPEC §2), where the seller broadcasts; features the
 * product never uses on no page at all.
 */

let webDir = '';
let server: TestServer;
beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'martillo-permissions-'));
  await writeFile(
    path.join(webDir, 'index.html'),
    '<!doctype html><html lang="es-MX"><head><title>Martillo</title></head><body><div id="root"></div></body></html>',
  );
  server = await startTestServer({ webDir, listen: false });
});
afterAll(async () => {
  await server?.close();
  await rm(webDir, { recursive: true, force: true });
});

/** The policy of a response as a map: feature → its allowlist ('()' none, '(self)' this site). */
async function policyAt(url: string): Promise<Map<string, string>> {
  const res = await server.app.inject({ url });
  const header = res.headers['permissions-policy'];
  expect(typeof header, url).toBe('string');
  return new Map(
    String(header)
      .split(',')
      .map((part) => part.trim().split('=') as [string, string]),
  );
}

const NEVER_USED = ['geolocation', 'payment', 'usb', 'serial', 'hid', 'midi', 'accelerometer', 'gyroscope', 'magnetometer', 'display-capture'];

describe('Permissions-Policy', () => {
  it('lets the Live Hub, at any path ending in /livehub, use this site’s camera and microphone', async () => {
    for (const url of ['/admin/livehub', '/admin/livehub/', '/otra/ruta/livehub', '/admin/livehub?session=3f1c']) {
      const res = await server.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      const policy = await policyAt(url);
      expect(policy.get('camera'), url).toBe('(self)');
      expect(policy.get('microphone'), url).toBe('(self)');
      for (const feature of NEVER_USED) expect(policy.get(feature), `${url} ${feature}`).toBe('()');
    }
  });

  it('gives every other page neither camera nor microphone: the panel, the buyer’s live page, an auction, a checkout', async () => {
    for (const url of [
      '/admin',
      '/admin/auctions',
      '/live/tienda/3f1c',
      '/live',
      '/auctions/123',
      '/pay/xyz',
      '/compras',
      '/admin/livehub/otra',
      '/livehubs',
    ]) {
      const res = await server.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      const policy = await policyAt(url);
      expect(policy.get('camera'), url).toBe('()');
      expect(policy.get('microphone'), url).toBe('()');
      for (const feature of NEVER_USED) expect(policy.get(feature), `${url} ${feature}`).toBe('()');
    }
  });

  it('rides on every answer, the API’s and a 404’s too', async () => {
    for (const url of ['/api/config', '/api/no-existe', '/assets/no-existe.js']) {
      const policy = await policyAt(url);
      expect(policy.get('camera'), url).toBe('()');
      expect(policy.get('geolocation'), url).toBe('()');
    }
  });
});
