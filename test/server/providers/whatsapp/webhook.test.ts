import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentReminders } from '../../../../src/server/db/schema.js';
import { runReminderPass } from '../../../../src/server/features/payments/reminders/job.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { type FakeWhatsApp, startFakeWhatsApp } from '../../../support/fake-whatsapp.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { billWithLink } from '../../features/payments/reminders/billed.js';

/**
 * WhatsApp's status webhook: the subscription check, X-Hub-Signature-256 over the raw body, and
 * statuses applied by wamid only forward and in time order, so a forged, replayed or late webhook
 * changes nothing.
 */

let fake: FakeWhatsApp;
let server: TestServer;
let seller: Actor;
let buyer: Actor;
let wamid: string;
let reminderId: string;
const NORTE = 'gancho-norte';

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  server = await startTestServer({ env: fake.env() });
  seller = await buildActor(server, { email: 'vende@gancho.mx', name: 'Nora Norte', roles: ['seller'], companyId: NORTE });
  buyer = await buildActor(server, { email: 'juana@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true });
  const bill = await billWithLink(server, { seller, buyer, buyerName: 'Juana Pérez', companyId: NORTE, lots: [{ name: 'Reloj', price: 1000 }] });
  await runReminderPass(server.ctx);
  const sent = (await server.ctx.db.select().from(paymentReminders).where(eq(paymentReminders.paymentId, bill.id))).find((r) => r.kind === 'bill');
  if (!sent?.providerMessageId) throw new Error('no sent reminder');
  wamid = sent.providerMessageId;
  reminderId = sent.id;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const post = (body: string, headers: Record<string, string>) => server.app.inject({ method: 'POST', url: '/api/webhooks/whatsapp', payload: body, headers });
const stored = async () => (await server.ctx.db.select().from(paymentReminders).where(eq(paymentReminders.id, reminderId)))[0];
const T0 = Math.floor(Date.now() / 1000);

describe('the WhatsApp webhook', () => {
  it("answers Meta's subscription check only with the verify token", async () => {
    const ok = await server.app.inject({
      method: 'GET',
      url: '/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=verifica-martillo&hub.challenge=1158201444',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
    const bad = await server.app.inject({ method: 'GET', url: '/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=otro&hub.challenge=1' });
    expect(bad.statusCode).toBe(403);
  });

  it('refuses a forged webhook (wrong secret, no signature, body changed after signing) and changes nothing', async () => {
    const before = await stored();
    const forged = fake.statusWebhook({ wamid, status: 'read', timestamp: T0 + 10, secret: 'no-es-el-secreto' });
    const res = await post(forged.body, forged.headers);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe(messages.reminders.webhookSignature);
    const unsigned = fake.statusWebhook({ wamid, status: 'read', timestamp: T0 + 10 });
    expect((await post(unsigned.body, { 'content-type': 'application/json' })).statusCode).toBe(401);
    const tampered = fake.statusWebhook({ wamid, status: 'delivered', timestamp: T0 + 10 });
    expect((await post(tampered.body.replace('delivered', 'read'), tampered.headers)).statusCode).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it('applies statuses forward, ignores a replay and a late older one', async () => {
    expect((await stored())?.status).toBe('sent');
    const delivered = fake.statusWebhook({ wamid, status: 'delivered', timestamp: T0 + 20 });
    const first = await post(delivered.body, delivered.headers);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().changed).toBe(1);
    expect(await stored()).toMatchObject({ status: 'delivered', statusAt: new Date((T0 + 20) * 1000) });

    // The very same webhook again: accepted (Meta must not retry) but nothing changes.
    const replay = await post(delivered.body, delivered.headers);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().changed).toBe(0);

    // Read arrives, then a late 'sent' and a late 'delivered' from before it: read stays.
    const read = fake.statusWebhook({ wamid, status: 'read', timestamp: T0 + 40 });
    expect((await post(read.body, read.headers)).json().changed).toBe(1);
    const lateSent = fake.statusWebhook({ wamid, status: 'sent', timestamp: T0 + 5 });
    const lateDelivered = fake.statusWebhook({ wamid, status: 'delivered', timestamp: T0 + 30 });
    expect((await post(lateSent.body, lateSent.headers)).json().changed).toBe(0);
    expect((await post(lateDelivered.body, lateDelivered.headers)).json().changed).toBe(0);
    // A failure after it was read is not WhatsApp's way either.
    const failed = fake.statusWebhook({ wamid, status: 'failed', timestamp: T0 + 50 });
    expect((await post(failed.body, failed.headers)).json().changed).toBe(0);
    expect(await stored()).toMatchObject({ status: 'read', statusAt: new Date((T0 + 40) * 1000) });
  });

  it('ignores statuses of messages it did not send', async () => {
    const other = fake.statusWebhook({ wamid: 'wamid.desconocido', status: 'read', timestamp: T0 + 60 });
    const res = await post(other.body, other.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().changed).toBe(0);
  });
});
