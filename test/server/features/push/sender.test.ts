import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUSH_TTL_SECONDS, type PushPayload, pushTopic } from '../../../../src/domain/push.js';
import { buildApp } from '../../../../src/server/app.js';
import { notifications, pushDeliveries, pushSubscriptions } from '../../../../src/server/db/schema.js';
import { vapidKeysOf } from '../../../../src/server/features/push/keys.js';
import { createPushSender, type PushSender } from '../../../../src/server/features/push/sender.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildSession } from '../../../support/factories.js';
import { freePort } from '../../../support/net.js';
import { makeSubscription, type PushService, startPushService, type TestSubscription } from '../../../support/push-service.js';
import { startTestServer, type TestServer, testConfig } from '../../../support/server.js';

let server: TestServer;
let service: PushService;
let sender: PushSender;
let buyers = 0;

beforeAll(async () => {
  service = await startPushService();
  server = await startTestServer({ listen: false, env: { PUSH_ALLOWED_ORIGINS: service.origin } });
  sender = createPushSender({
    db: server.ctx.db,
    vapid: () => vapidKeysOf(server.ctx),
    publicUrl: server.ctx.config.publicUrl,
    allowedOrigins: server.ctx.config.push.allowedOrigins,
    // A resolver of our own: 'privado.example.com' answers a loopback address, as a DNS record pointed home would.
    resolve: async (host) => (host === 'privado.example.com' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '93.184.215.14', family: 4 }]),
  });
});
afterAll(async () => {
  sender?.close();
  await server?.close();
  await service?.close();
});
beforeEach(() => {
  service.received.length = 0;
  service.attempts.length = 0;
});

/** A show, a buyer with a subscription, the show's 'en vivo' alert for them and one pending push of it (as the alerts fan-out writes them). */
async function pendingPush(opts: { endpoint?: string; expiresInMs?: number } = {}) {
  const session = await buildSession(server.ctx.db, { title: 'Relojes antiguos en vivo', status: 'live' });
  const buyer: Actor = await buildActor(server, { email: `b${++buyers}@example.com`, name: 'Ana Compradora', roles: ['buyer'] });
  const sub: TestSubscription = makeSubscription(service, opts.endpoint ? { endpoint: opts.endpoint } : {});
  const [row] = await server.ctx.db
    .insert(pushSubscriptions)
    .values({ userId: buyer.id, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth })
    .returning();
  const [notification] = await server.ctx.db
    .insert(notifications)
    .values({
      userId: buyer.id,
      kind: 'show_live',
      title: 'Relojes antiguos en vivo',
      body: 'Casa Tiempo está en vivo',
      url: `/live/casa-tiempo/${session.id}`,
      sessionId: session.id,
    })
    .returning();
  if (!row || !notification) throw new Error('no rows');
  const [delivery] = await server.ctx.db
    .insert(pushDeliveries)
    .values({ notificationId: notification.id, subscriptionId: row.id, expiresAt: new Date(Date.now() + (opts.expiresInMs ?? PUSH_TTL_SECONDS * 1000)) })
    .returning();
  if (!delivery) throw new Error('no delivery');
  return { session, buyer, sub, subscriptionId: row.id, deliveryId: delivery.id };
}

/** Another show's alert for the same subscription, pending (the follower's next show). */
async function anotherPush(userId: string, subscriptionId: string): Promise<void> {
  const session = await buildSession(server.ctx.db, { title: 'Cámaras antiguas en vivo', status: 'live' });
  const [notification] = await server.ctx.db
    .insert(notifications)
    .values({
      userId,
      kind: 'show_live',
      title: 'Cámaras antiguas en vivo',
      body: 'Casa Tiempo está en vivo',
      url: `/live/casa-tiempo/${session.id}`,
      sessionId: session.id,
    })
    .returning();
  if (!notification) throw new Error('no notification');
  await server.ctx.db
    .insert(pushDeliveries)
    .values({ notificationId: notification.id, subscriptionId, expiresAt: new Date(Date.now() + PUSH_TTL_SECONDS * 1000) });
}

const deliveryRow = async (id: number) => (await server.ctx.db.select().from(pushDeliveries).where(eq(pushDeliveries.id, id)))[0];
const subscriptionRow = async (id: string) => (await server.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id)))[0];

/** Makes a delivery waiting for its retry due now, as the clock would after the backoff. */
const dueNow = (id: number) =>
  server.ctx.db
    .update(pushDeliveries)
    .set({ nextAttemptAt: new Date(Date.now() - 1000) })
    .where(eq(pushDeliveries.id, id));

describe('the push sender', () => {
  it("delivers a pending push, decrypted, with the show's title, seller and link, its TTL, its topic and high urgency", async () => {
    const { session, sub, deliveryId, subscriptionId } = await pendingPush();
    const pass = await sender.runPass();
    expect(pass.sent).toBe(1);
    expect(service.received).toHaveLength(1);
    const push = service.received[0];
    const payload = push?.payload as PushPayload;
    expect(payload).toEqual({
      title: 'Relojes antiguos en vivo',
      body: 'Casa Tiempo está en vivo',
      url: `${server.ctx.config.publicUrl.origin}/live/casa-tiempo/${session.id}`,
      tag: `show-${session.id}`,
      sessionId: session.id,
    });
    expect(push?.subscriptionId).toBe(sub.id);
    expect(push?.ttl).toBeGreaterThan(0);
    expect(push?.ttl).toBeLessThanOrEqual(PUSH_TTL_SECONDS);
    expect(push?.topic).toBe(pushTopic(session.id));
    expect(push?.topic?.length).toBeLessThanOrEqual(32);
    expect(push?.urgency).toBe('high');
    // Signed with the app's VAPID key, for this push service's origin.
    expect(push?.vapidKey).toBe((await vapidKeysOf(server.ctx)).publicKey);
    expect(push?.claims.aud).toBe(service.origin);

    expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect((await deliveryRow(deliveryId))?.sentAt).toBeInstanceOf(Date);
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ failureCount: 0 });
    expect((await subscriptionRow(subscriptionId))?.lastSuccessAt).toBeInstanceOf(Date);

    // Sent once: the next pass finds nothing.
    expect((await sender.runPass()).claimed).toBe(0);
    expect(service.received).toHaveLength(1);
  });

  it("keeps a subscription's success to the day: the next show's push does not rewrite it, a day later it does, and a success after failures resets them", async () => {
    const { buyer, subscriptionId } = await pendingPush();
    expect((await sender.runPass()).sent).toBe(1);
    const first = (await subscriptionRow(subscriptionId))?.lastSuccessAt;
    expect(first).toBeInstanceOf(Date);

    await anotherPush(buyer.id, subscriptionId);
    expect((await sender.runPass()).sent).toBe(1);
    expect((await subscriptionRow(subscriptionId))?.lastSuccessAt).toEqual(first);

    const dayAgo = new Date(Date.now() - 25 * 3_600_000);
    await server.ctx.db.update(pushSubscriptions).set({ lastSuccessAt: dayAgo }).where(eq(pushSubscriptions.id, subscriptionId));
    await anotherPush(buyer.id, subscriptionId);
    expect((await sender.runPass()).sent).toBe(1);
    expect((await subscriptionRow(subscriptionId))?.lastSuccessAt?.getTime()).toBeGreaterThan(dayAgo.getTime());

    await server.ctx.db.update(pushSubscriptions).set({ failureCount: 2 }).where(eq(pushSubscriptions.id, subscriptionId));
    await anotherPush(buyer.id, subscriptionId);
    expect((await sender.runPass()).sent).toBe(1);
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ failureCount: 0 });
  });

  it('removes a subscription the push service answers 410 for, with its deliveries', async () => {
    const { sub, subscriptionId, deliveryId } = await pendingPush();
    service.answer(sub.id, 410);
    const pass = await sender.runPass();
    expect(pass.gone).toBe(1);
    expect(await subscriptionRow(subscriptionId)).toBeUndefined();
    expect(await deliveryRow(deliveryId)).toBeUndefined();
  });

  it('removes a subscription answered 404 too', async () => {
    const { sub, subscriptionId } = await pendingPush();
    service.answer(sub.id, 404);
    expect((await sender.runPass()).gone).toBe(1);
    expect(await subscriptionRow(subscriptionId)).toBeUndefined();
  });

  it('retries after a 500 with a backoff, then sends it', async () => {
    const { sub, deliveryId, subscriptionId } = await pendingPush();
    service.answer(sub.id, 500, 1);
    const first = await sender.runPass();
    expect(first).toMatchObject({ sent: 0, retried: 1 });
    const waiting = await deliveryRow(deliveryId);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 500' });
    expect(waiting?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ failureCount: 1 });
    // Not due yet: the next pass leaves it.
    expect((await sender.runPass()).claimed).toBe(0);

    await dueNow(deliveryId);
    const second = await sender.runPass();
    expect(second.sent).toBe(1);
    expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ failureCount: 0 });
    expect(service.attempts.map((a) => a.status)).toEqual([500, 201]);
    expect(service.received).toHaveLength(1);
  });

  it('gives up after three tries of a push service that keeps failing', async () => {
    const { sub, deliveryId } = await pendingPush();
    service.answer(sub.id, 503);
    await sender.runPass();
    await dueNow(deliveryId);
    await sender.runPass();
    await dueNow(deliveryId);
    await sender.runPass();
    const row = await deliveryRow(deliveryId);
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(row?.lastError).toMatch(/HTTP 503; gave up after 3 attempts/);
    expect(service.attempts).toHaveLength(3);
  });

  it('marks a 400/401/403/413 answer failed with its reason, without retrying', async () => {
    const { sub, deliveryId, subscriptionId } = await pendingPush();
    service.answer(sub.id, 403);
    expect((await sender.runPass()).failed).toBe(1);
    expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'failed', lastError: 'HTTP 403' });
    expect(await subscriptionRow(subscriptionId)).toBeDefined();
  });

  it('never sends a push past its expiry: it is marked failed, expired', async () => {
    const { deliveryId } = await pendingPush({ expiresInMs: -1000 });
    const pass = await sender.runPass();
    expect(pass.expired).toBe(1);
    expect(service.attempts).toHaveLength(0);
    expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'failed', lastError: 'expired' });
  });

  it('does not retry once the next try would come after the expiry', async () => {
    const { sub, deliveryId } = await pendingPush({ expiresInMs: 1500 });
    service.answer(sub.id, 500, 1);
    await sender.runPass();
    const row = await deliveryRow(deliveryId);
    expect(row?.status).toBe('failed');
    expect(row?.lastError).toMatch(/expired before the next attempt/);
  });

  it('refuses at send time a host name that resolves to a private address, connecting nowhere', async () => {
    const { deliveryId } = await pendingPush({ endpoint: 'https://privado.example.com/push/abc' });
    const pass = await sender.runPass();
    expect(pass.failed).toBe(1);
    expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'failed', lastError: 'endpoint resolves to a private address' });
    expect(service.attempts).toHaveLength(0);
  });

  it('refuses at send time an endpoint saved before the rules (plain http, not an allowed origin)', async () => {
    const { deliveryId } = await pendingPush({ endpoint: 'http://127.0.0.2:9/push/abc' });
    expect((await sender.runPass()).failed).toBe(1);
    expect((await deliveryRow(deliveryId))?.lastError).toMatch(/not allowed/);
  });

  it('fails a delivery it cannot encrypt (a key off the curve saved before the check) without stopping the batch', async () => {
    const bad = await pendingPush();
    const good = await pendingPush();
    await server.ctx.db
      .update(pushSubscriptions)
      .set({ p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url') })
      .where(eq(pushSubscriptions.id, bad.subscriptionId));
    const pass = await sender.runPass();
    expect(pass).toMatchObject({ sent: 1, failed: 1 });
    expect((await deliveryRow(bad.deliveryId))?.lastError).toMatch(/cannot encrypt/);
    expect(await deliveryRow(good.deliveryId)).toMatchObject({ status: 'sent' });
  });

  it('two senders on one database never send the same delivery twice', async () => {
    const pushes = await Promise.all(Array.from({ length: 20 }, () => pendingPush()));
    const twin = createPushSender({
      db: server.ctx.db,
      vapid: () => vapidKeysOf(server.ctx),
      publicUrl: server.ctx.config.publicUrl,
      allowedOrigins: server.ctx.config.push.allowedOrigins,
      batchSize: 5,
    });
    try {
      const [a, b] = await Promise.all([sender.runPass(), twin.runPass()]);
      expect((a?.sent ?? 0) + (b?.sent ?? 0)).toBe(20);
    } finally {
      twin.close();
    }
    expect(service.received).toHaveLength(20);
    expect(new Set(service.received.map((r) => r.subscriptionId)).size).toBe(20);
    expect(pushes).toHaveLength(20);
  });

  it("sends at most its rate: the next pushes wait for the previous ones' share of a second, and none wait after a quiet spell", async () => {
    let now = 0;
    const sleeps: number[] = [];
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
    };
    const paced = createPushSender({
      db: server.ctx.db,
      vapid: () => vapidKeysOf(server.ctx),
      publicUrl: server.ctx.config.publicUrl,
      allowedOrigins: server.ctx.config.push.allowedOrigins,
      rate: 10,
      clock,
    });
    try {
      await Promise.all([pendingPush(), pendingPush()]);
      expect(await paced.runPass()).toMatchObject({ sent: 2 });
      // Two pushes at 10 a second: whatever comes next waits 200 ms from the first.
      expect(sleeps).toEqual([]);
      now += 50;
      await pendingPush();
      expect(await paced.runPass()).toMatchObject({ sent: 1 });
      expect(sleeps).toEqual([150]);
      // A second later the slots have not piled up: the next push leaves at once.
      now += 1000;
      await pendingPush();
      expect(await paced.runPass()).toMatchObject({ sent: 1 });
      expect(sleeps).toEqual([150]);
    } finally {
      paced.close();
    }
    expect(service.received).toHaveLength(4);
  });

  it('refuses a rate that is not a positive number', () => {
    const options = { db: server.ctx.db, vapid: () => vapidKeysOf(server.ctx), publicUrl: server.ctx.config.publicUrl, allowedOrigins: [] };
    expect(() => createPushSender({ ...options, rate: 0 })).toThrow(/rate must be positive/);
    expect(() => createPushSender({ ...options, rate: Number.NaN })).toThrow(/rate must be positive/);
  });

  it('runs as the push-sender job, listed on /readyz', async () => {
    const port = await freePort();
    const job = await buildApp({
      config: testConfig({ PUBLIC_URL: `http://127.0.0.1:${port}`, PUSH_ALLOWED_ORIGINS: service.origin }, port),
      database: server.database,
      logger: false,
      jobs: ['push-sender'],
    });
    try {
      await pendingPush();
      await service.waitForReceived(1);
      const ready = (await job.app.inject({ method: 'GET', url: '/readyz' })).json() as { jobs: { name: string; running: boolean }[] };
      expect(ready.jobs.find((j) => j.name === 'push-sender')).toMatchObject({ running: true });
    } finally {
      await job.app.close();
    }
  });
});
