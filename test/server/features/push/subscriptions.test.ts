import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PUSH_SUBSCRIPTIONS_PER_USER } from '../../../../src/domain/push.js';
import { auditLog, pushSubscriptions } from '../../../../src/server/db/schema.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { makeSubscription, type PushService, startPushService } from '../../../support/push-service.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

let server: TestServer;
let service: PushService;
let buyer: Actor;
let other: Actor;
const call = caller(() => server);

beforeAll(async () => {
  service = await startPushService();
  server = await startTestServer({ listen: false, env: { PUSH_ALLOWED_ORIGINS: service.origin } });
  buyer = await buildActor(server, { email: 'comprador@example.com', name: 'Ana Compradora', roles: ['buyer'] });
  other = await buildActor(server, { email: 'otra@example.com', name: 'Otra Persona', roles: ['buyer'] });
});
afterAll(async () => {
  await server?.close();
  await service?.close();
});

/** A browser's subscription JSON with this endpoint and valid keys. */
function withEndpoint(endpoint: string) {
  return { ...makeSubscription(service).toJSON(), endpoint };
}

const subscriptionsOf = (userId: string) => server.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

describe('POST /api/push/subscriptions', () => {
  it('needs a signed-in account', async () => {
    const res = await call(null, 'POST', '/api/push/subscriptions', makeSubscription(service).toJSON());
    expect(res.statusCode).toBe(401);
  });

  it('saves a browser subscription on an allowed origin (even plain http on loopback) with 201', async () => {
    const sub = makeSubscription(service);
    const res = await call(buyer, 'POST', '/api/push/subscriptions', sub.toJSON());
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await server.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, sub.endpoint));
    expect(row).toMatchObject({ userId: buyer.id, p256dh: sub.keys.p256dh, auth: sub.keys.auth });
    const audit = await server.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'push.subscribe'));
    expect(audit.at(-1)?.after).toMatchObject({ origin: service.origin });
    // The endpoint is a credential: the audit log keeps only the push service's origin.
    expect(JSON.stringify(audit.at(-1))).not.toContain(sub.endpoint);
  });

  it('accepts an https endpoint on a public host', async () => {
    const res = await call(buyer, 'POST', '/api/push/subscriptions', withEndpoint('https://fcm.googleapis.com/fcm/send/abc123'));
    expect(res.statusCode, res.body).toBe(201);
  });

  it.each([
    ['plain http', 'http://push.example.com/send/1'],
    ['a loopback address', 'https://127.0.0.1/send/1'],
    ['plain http on loopback, not an allowed origin', 'http://127.0.0.1:1/push/x'],
    ['a private 10.x address', 'https://10.1.2.3/send/1'],
    ['a private 192.168 address', 'https://192.168.0.10/send/1'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest'],
    ['carrier-grade NAT', 'https://100.64.0.1/send'],
    ['IPv6 loopback', 'https://[::1]/send/1'],
    ['IPv6 unique local', 'https://[fd00::1]/send/1'],
    ['IPv6 link-local', 'https://[fe80::1]/send/1'],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/send/1'],
    ['an IPv4 address in decimal', 'https://2130706433/send/1'],
    ['localhost', 'https://localhost/send/1'],
    ['a name under localhost', 'https://push.localhost/send/1'],
    ['a single-label host', 'https://pushserver/send/1'],
    ['credentials in the URL', 'https://user:pass@push.example.com/send/1'],
    ['not a URL', 'no es una url'],
    ['another scheme', 'ftp://push.example.com/send/1'],
  ])('refuses %s with 400 in Spanish', async (_what, endpoint) => {
    const res = await call(buyer, 'POST', '/api/push/subscriptions', withEndpoint(endpoint));
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { error: { code: string; message: string; fields: Record<string, string> } };
    expect(body.error.code).toBe('VALIDATION');
    expect(body.error.fields.endpoint).toMatch(/notificaciones/);
  });

  it('refuses an endpoint over 1,000 characters', async () => {
    const res = await call(buyer, 'POST', '/api/push/subscriptions', withEndpoint(`https://push.example.com/${'a'.repeat(1000)}`));
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error: { fields: Record<string, string> } }).error.fields.endpoint).toBe(
      'La dirección de notificaciones del navegador es demasiado larga.',
    );
  });

  it.each([
    ['a p256dh that is not base64url', (k: { p256dh: string; auth: string }) => ({ ...k, p256dh: `${k.p256dh.slice(0, -2)}!!` }), 'keys.p256dh'],
    ['a p256dh of the wrong length', (k: { p256dh: string; auth: string }) => ({ ...k, p256dh: k.p256dh.slice(0, 40) }), 'keys.p256dh'],
    [
      'a compressed p256dh point',
      (k: { p256dh: string; auth: string }) => ({ ...k, p256dh: Buffer.concat([Buffer.from([2]), Buffer.alloc(64, 1)]).toString('base64url') }),
      'keys.p256dh',
    ],
    [
      '65 bytes that are no point of the curve',
      (k: { p256dh: string; auth: string }) => ({ ...k, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url') }),
      'keys.p256dh',
    ],
    ['an auth secret of 8 bytes', (k: { p256dh: string; auth: string }) => ({ ...k, auth: Buffer.alloc(8, 1).toString('base64url') }), 'keys.auth'],
    ['no auth secret', (k: { p256dh: string; auth: string }) => ({ p256dh: k.p256dh }), 'keys.auth'],
  ])('refuses %s', async (_what, change, field) => {
    const sub = makeSubscription(service).toJSON();
    const res = await call(buyer, 'POST', '/api/push/subscriptions', { ...sub, keys: change(sub.keys) });
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys((res.json() as { error: { fields: Record<string, string> } }).error.fields)).toContain(field);
  });

  it('answers a huge body with 413, never reading it as a subscription', async () => {
    const sub = makeSubscription(service).toJSON();
    const res = await call(buyer, 'POST', '/api/push/subscriptions', { ...sub, padding: 'x'.repeat(100_000) });
    expect(res.statusCode).toBe(413);
    expect((res.json() as { error: { message: string } }).error.message).toBe('La solicitud es demasiado grande.');
  });

  it('subscribing the same endpoint again updates its keys and re-owns it, one row per endpoint', async () => {
    const sub = makeSubscription(service);
    expect((await call(buyer, 'POST', '/api/push/subscriptions', sub.toJSON())).statusCode).toBe(201);
    const newKeys = makeSubscription(service).keys;
    expect((await call(other, 'POST', '/api/push/subscriptions', { ...sub.toJSON(), keys: newKeys })).statusCode).toBe(201);
    const rows = await server.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, sub.endpoint));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: other.id, p256dh: newKeys.p256dh, auth: newKeys.auth });
  });

  it(`keeps an account's newest ${MAX_PUSH_SUBSCRIPTIONS_PER_USER} subscriptions, dropping the oldest`, async () => {
    const many = await buildActor(server, { email: 'muchos@example.com', name: 'Muchos Navegadores', roles: ['buyer'] });
    const subs = Array.from({ length: MAX_PUSH_SUBSCRIPTIONS_PER_USER + 2 }, () => makeSubscription(service));
    for (const sub of subs) expect((await call(many, 'POST', '/api/push/subscriptions', sub.toJSON())).statusCode).toBe(201);
    const kept = (await subscriptionsOf(many.id)).map((r) => r.endpoint).sort();
    expect(kept).toEqual(
      subs
        .slice(2)
        .map((s) => s.endpoint)
        .sort(),
    );
  });
});

describe('DELETE /api/push/subscriptions', () => {
  it("removes the caller's own subscription with 204, and leaves another account's alone", async () => {
    const mine = makeSubscription(service);
    const theirs = makeSubscription(service);
    const owner = await buildActor(server, { email: 'duena@example.com', name: 'Dueña', roles: ['buyer'] });
    const stranger = await buildActor(server, { email: 'extrano@example.com', name: 'Extraño', roles: ['buyer'] });
    expect((await call(owner, 'POST', '/api/push/subscriptions', mine.toJSON())).statusCode).toBe(201);
    expect((await call(stranger, 'POST', '/api/push/subscriptions', theirs.toJSON())).statusCode).toBe(201);

    const tried = await call(owner, 'DELETE', '/api/push/subscriptions', { endpoint: theirs.endpoint });
    expect(tried.statusCode).toBe(204);
    expect(await subscriptionsOf(stranger.id)).toHaveLength(1);

    const res = await call(owner, 'DELETE', '/api/push/subscriptions', { endpoint: mine.endpoint });
    expect(res.statusCode).toBe(204);
    expect(await subscriptionsOf(owner.id)).toHaveLength(0);
  });

  it('needs a signed-in account', async () => {
    expect((await call(null, 'DELETE', '/api/push/subscriptions', { endpoint: 'https://push.example.com/x' })).statusCode).toBe(401);
  });
});
