import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { buildApp } from '../../../../src/server/app.js';
import { ConfigError } from '../../../../src/server/config.js';
import { appSecrets } from '../../../../src/server/db/schema.js';
import { freePort } from '../../../support/net.js';
import { startTestServer, type TestServer, testConfig } from '../../../support/server.js';

describe('VAPID keys', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('made on first start, kept in app_secrets, and the same for a second instance on the same database', async () => {
    const first = (await server.app.inject({ method: 'GET', url: '/api/push/public-key' })).json() as { publicKey: string };
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    const [kept] = await server.ctx.db.select().from(appSecrets);
    expect(kept?.name).toBe('vapid');
    expect(kept?.value).toMatchObject({ publicKey: first.publicKey });

    const port = await freePort();
    const second = await buildApp({ config: testConfig({ PUBLIC_URL: `http://127.0.0.1:${port}` }, port), database: server.database, logger: false, jobs: [] });
    try {
      const again = (await second.app.inject({ method: 'GET', url: '/api/push/public-key' })).json() as { publicKey: string };
      expect(again.publicKey).toBe(first.publicKey);
      expect(await server.ctx.db.select().from(appSecrets)).toHaveLength(1);
    } finally {
      await second.app.close();
    }
  });

  it('from the environment when both keys are given, ignoring the kept pair', async () => {
    const keys = webpush.generateVAPIDKeys();
    const port = await freePort();
    const env = { PUBLIC_URL: `http://127.0.0.1:${port}`, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey };
    const other = await buildApp({ config: testConfig(env, port), database: server.database, logger: false, jobs: [] });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/api/push/public-key' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ publicKey: keys.publicKey });
    } finally {
      await other.app.close();
    }
  });

  it('one key without the other stops the start with one message naming both', () => {
    const keys = webpush.generateVAPIDKeys();
    expect(() => testConfig({ VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(ConfigError);
    expect(() => testConfig({ VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together/);
  });

  it('the subject is a mailto: address unless PUBLIC_URL is https, and VAPID_SUBJECT wins', () => {
    expect(testConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }).push.subject).toMatch(/^mailto:/);
    expect(testConfig({ PUBLIC_URL: 'https://subastas.example.mx' }).push.subject).toBe('https://subastas.example.mx');
    expect(testConfig({ VAPID_SUBJECT: 'mailto:ops@example.mx' }).push.subject).toBe('mailto:ops@example.mx');
    expect(() => testConfig({ VAPID_SUBJECT: 'http://example.mx' })).toThrow(ConfigError);
  });
});
