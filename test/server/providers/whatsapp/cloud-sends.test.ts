import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReminderListResponse } from '../../../../src/domain/reminders.js';
import { formatDeadline } from '../../../../src/domain/reminders.js';
import { loadConfig } from '../../../../src/server/config.js';
import { paymentReminders, userProfiles } from '../../../../src/server/db/schema.js';
import { runReminderPass } from '../../../../src/server/features/payments/reminders/job.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { type FakeWhatsApp, startFakeWhatsApp } from '../../../support/fake-whatsapp.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { billWithLink } from '../../features/payments/reminders/billed.js';

/**
 * The WhatsApp Cloud API by configuration, against a local fake Graph API: template messages only
 * to buyers who gave consent, with the template of each reminder and its parameters; retries with
 * backoff after failures, 'failed' (shown in the panel) after the last; the configuration is all or nothing.
 */

let fake: FakeWhatsApp;
let server: TestServer;
let seller: Actor;
let consenting: Actor;
let silent: Actor;
const NORTE = 'nube-norte';
const call = caller(() => server);

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  server = await startTestServer({ env: fake.env() });
  seller = await buildActor(server, { email: 'vende@nube.mx', name: 'Nora Norte', roles: ['seller'], companyId: NORTE });
  consenting = await buildActor(server, { email: 'juana@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true });
  silent = await buildActor(server, { email: 'pedro@ejemplo.mx', name: 'Pedro López', roles: ['buyer'], completeProfile: true });
  await server.ctx.db.update(userProfiles).set({ whatsappConsentGiven: false }).where(eq(userProfiles.userId, silent.id));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const rowsOf = (paymentId: string) => server.ctx.db.select().from(paymentReminders).where(eq(paymentReminders.paymentId, paymentId));
const rowOf = async (paymentId: string, kind: string) => (await rowsOf(paymentId)).find((r) => r.kind === kind);
/** Makes a reminder's next try due now, as if its backoff had passed. */
const makeDue = (id: string) => server.ctx.db.execute(sql`update payment_reminders set next_attempt_at = now() - interval '1 second' where id = ${id}`);

describe('configuration', () => {
  it('is all or nothing, with a clear error naming what is missing', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/martillo-test' };
    expect(loadConfig(base, { persistSecret: false }).whatsapp).toBeNull();
    expect(() => loadConfig({ ...base, WHATSAPP_TOKEN: 'EAAx' }, { persistSecret: false })).toThrow(/WHATSAPP_PHONE_NUMBER_ID.*must be set too/);
    const full = loadConfig({ ...base, ...fake.env() }, { persistSecret: false }).whatsapp;
    expect(full).toMatchObject({ phoneNumberId: fake.phoneNumberId, language: 'es_MX', templates: { bill: 'cuenta_del_show' } });
    expect(loadConfig({ ...base, ...fake.env({ WHATSAPP_API_URL: '' }) }, { persistSecret: false }).whatsapp?.apiUrl).toBe('https://graph.facebook.com/v21.0');
    expect(server.ctx.whatsapp).not.toBeNull();
  });
});

describe('sending reminders through the Cloud API', () => {
  it("sends the bill's template to a consenting buyer, and leaves a buyer without consent to wa.me", async () => {
    const before = fake.messages.length;
    const yes = await billWithLink(server, {
      seller,
      buyer: consenting,
      buyerName: 'Juana Pérez',
      companyId: NORTE,
      lots: [{ name: 'Reloj Casio', price: 1200 }],
      shippingCost: 150,
    });
    const no = await billWithLink(server, { seller, buyer: silent, buyerName: 'Pedro López', companyId: NORTE, lots: [{ name: 'Lámpara', price: 800 }] });

    const pass = await runReminderPass(server.ctx);
    expect(pass.sent).toBe(1);
    const sent = fake.messages.slice(before);
    expect(sent).toHaveLength(1);
    const message = sent[0];
    expect(message?.to).toBe('523312345678');
    expect(message?.authorization).toBe(`Bearer ${fake.token}`);
    expect(message?.body.type).toBe('template');
    expect(message?.body.template.name).toBe('cuenta_del_show');
    expect(message?.body.template.language.code).toBe('es_MX');
    const bill = await rowOf(yes.id, 'bill');
    expect(message?.body.template.components).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Juana' },
          { type: 'text', text: '$1,350 MXN' },
          { type: 'text', text: yes.paymentLink },
          { type: 'text', text: formatDeadline(new Date(yes.deadlineAt as string)) },
        ],
      },
    ]);
    expect(bill).toMatchObject({ channel: 'cloud', status: 'sent', providerMessageId: message?.id, attempts: 1 });
    expect((await rowsOf(yes.id)).every((r) => r.channel === 'cloud')).toBe(true);

    // The buyer without consent: wa.me reminders, in the panel's list.
    expect((await rowsOf(no.id)).every((r) => r.channel === 'waMe')).toBe(true);
    const list = (await call(seller, 'GET', '/api/reminders?status=due')).json() as ReminderListResponse;
    expect(list.items.some((r) => r.paymentId === no.id && r.kind === 'bill')).toBe(true);
    expect(list.items.some((r) => r.paymentId === yes.id)).toBe(false);

    // A second pass sends nothing again.
    expect((await runReminderPass(server.ctx)).sent).toBe(0);
    expect(fake.messages.length).toBe(before + 1);

    // The 24 h reminder uses the reminder template once due.
    const afterLink = await rowOf(yes.id, 'afterLink');
    await server.ctx.db.execute(sql`update payment_reminders set due_at = now() - interval '1 second' where id = ${afterLink?.id}`);
    expect((await runReminderPass(server.ctx)).sent).toBe(1);
    expect(fake.messages.at(-1)?.body.template.name).toBe('recordatorio_pago');
  });

  it('retries a failed send with backoff and shows it; gives up after the fifth attempt', async () => {
    const bill = await billWithLink(server, { seller, buyer: consenting, buyerName: 'Juana Pérez', companyId: NORTE, lots: [{ name: 'Cámara', price: 500 }] });
    fake.failNext(5);
    const startedAt = Date.now();
    expect((await runReminderPass(server.ctx)).failed).toBe(1);
    let row = await rowOf(bill.id, 'bill');
    expect(row).toMatchObject({ status: 'sending', attempts: 1 });
    expect(row?.lastError).toMatch(/500/);
    const wait = (row?.nextAttemptAt?.getTime() ?? 0) - startedAt;
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThan(70_000);

    // Not due yet: the next pass leaves it alone.
    expect((await runReminderPass(server.ctx)).failed).toBe(0);

    // Shown in the panel with its error and attempts while it is retried.
    let list = (await call(seller, 'GET', '/api/reminders?status=due')).json() as ReminderListResponse;
    expect(list.failed.find((r) => r.id === row?.id)).toMatchObject({ attempts: 1, status: 'sending' });

    const expected = [5 * 60_000, 30 * 60_000, 2 * 3_600_000];
    for (const [i, delay] of expected.entries()) {
      await makeDue(row?.id as string);
      const at = Date.now();
      expect((await runReminderPass(server.ctx)).failed).toBe(1);
      row = await rowOf(bill.id, 'bill');
      expect(row?.attempts).toBe(i + 2);
      const next = (row?.nextAttemptAt?.getTime() ?? 0) - at;
      expect(Math.abs(next - delay)).toBeLessThan(10_000);
    }
    await makeDue(row?.id as string);
    await runReminderPass(server.ctx);
    row = await rowOf(bill.id, 'bill');
    expect(row).toMatchObject({ status: 'failed', attempts: 5, nextAttemptAt: null });
    expect(row?.lastError).toMatch(/500/);
    list = (await call(seller, 'GET', '/api/reminders?status=due')).json() as ReminderListResponse;
    const failed = list.failed.find((r) => r.id === row?.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 5 });
    expect(failed?.lastError).toMatch(/500/);
    expect(failed?.whatsappHref).toMatch(/^https:\/\/wa\.me\/523312345678\?text=/);
  });

  it('retries a send left mid-way by a crash once its lease runs out', async () => {
    const bill = await billWithLink(server, { seller, buyer: consenting, buyerName: 'Juana Pérez', companyId: NORTE, lots: [{ name: 'Libro', price: 250 }] });
    await runReminderPass(server.ctx);
    // As if a process had claimed the next reminder and died before the Graph API answered.
    const afterLink = await rowOf(bill.id, 'afterLink');
    await server.ctx.db.execute(
      sql`update payment_reminders set status = 'sending', attempts = 1, next_attempt_at = now() + interval '5 minutes', due_at = now() - interval '1 minute' where id = ${afterLink?.id}`,
    );
    expect((await runReminderPass(server.ctx)).sent).toBe(0);
    await makeDue(afterLink?.id as string);
    expect((await runReminderPass(server.ctx)).sent).toBe(1);
    expect(await rowOf(bill.id, 'afterLink')).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
