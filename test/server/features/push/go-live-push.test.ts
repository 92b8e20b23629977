import { afterAll, beforeAll, expect, it } from 'vitest';
import { livePath } from '../../../../src/domain/live-public.js';
import { PUSH_TTL_SECONDS, type PushPayload, pushTopic } from '../../../../src/domain/push.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildCompany, buildSession } from '../../../support/factories.js';
import { makeSubscription, type PushService, startPushService } from '../../../support/push-service.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * The whole path with both jobs running: a buyer subscribes their browser and follows a seller;
 * the seller starts the show; the show-alerts job queues the push and the push-sender job delivers
 * it, encrypted, to the push service, once.
 */

const COMPANY = 'monedas-lara';
let server: TestServer;
let service: PushService;
let seller: Actor;
let buyer: Actor;
const call = caller(() => server);

beforeAll(async () => {
  service = await startPushService();
  server = await startTestServer({ listen: false, jobs: ['show-alerts', 'push-sender'], env: { PUSH_ALLOWED_ORIGINS: service.origin } });
  await buildCompany(server.ctx.db, { id: COMPANY, name: 'Monedas Lara' });
  seller = await buildActor(server, { email: 'lara@monedas.mx', name: 'Lara Monedas', roles: ['seller', 'buyer'], companyId: COMPANY });
  buyer = await buildActor(server, { email: 'coleccionista@example.com', name: 'Beto Coleccionista', roles: ['buyer'] });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await service?.close();
});

it("a follower's browser gets one push, decrypted, when the seller starts the show", async () => {
  const session = await buildSession(server.ctx.db, { title: 'Monedas de plata del siglo XIX', sellerId: seller.id, companyId: COMPANY, status: 'scheduled' });
  const sub = makeSubscription(service);
  expect((await call(buyer, 'POST', '/api/push/subscriptions', sub.toJSON())).statusCode).toBe(201);
  expect((await call(buyer, 'POST', `/api/sellers/${seller.id}/follow`)).statusCode).toBeLessThan(300);

  const started = await call(seller, 'PUT', `/api/live-sessions/${session.id}`, { status: 'live' });
  expect(started.statusCode, started.body).toBe(200);

  const [push] = await service.waitForReceived(1, 30_000);
  const payload = push?.payload as PushPayload;
  expect(push?.subscriptionId).toBe(sub.id);
  expect(payload.title).toContain('Monedas de plata del siglo XIX');
  expect(payload.url).toBe(new URL(livePath({ id: session.id, sellerSlug: session.sellerSlug }), server.ctx.config.publicUrl).href);
  expect(payload.sessionId).toBe(session.id);
  expect(push?.topic).toBe(pushTopic(session.id));
  expect(push?.ttl).toBeLessThanOrEqual(PUSH_TTL_SECONDS);
  // Nothing personal: not the buyer's name nor e-mail.
  expect(JSON.stringify(payload)).not.toMatch(/Beto|coleccionista@/);
});
