import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReminderListResponse, ReminderView } from '../../../../../src/domain/reminders.js';
import { reminderMessage } from '../../../../../src/domain/reminders.js';
import { auditLog, paymentReminders, payments } from '../../../../../src/server/db/schema.js';
import { runReminderPass } from '../../../../../src/server/features/payments/reminders/job.js';
import { messages } from '../../../../../src/server/messages.js';
import { type Actor, buildActor } from '../../../../support/actors.js';
import { caller, startTestServer, type TestServer } from '../../../../support/server.js';
import { billWithLink } from './billed.js';

/**
 * "Recordatorios pendientes" without the Cloud API: the ladder's rows made from the bill's link and
 * deadline, the due wa.me reminders in the actor's scope, marking one sent by hand, and skipping
 * the reminders of a bill that is no longer pending.
 */

let server: TestServer;
let seller: Actor;
let otherSeller: Actor;
let companyAdmin: Actor;
let buyer: Actor;
const NORTE = 'recuerda-norte';
const call = caller(() => server);
const H = 3_600_000;

beforeAll(async () => {
  server = await startTestServer();
  seller = await buildActor(server, { email: 'vende@recuerda.mx', name: 'Nora Norte', roles: ['seller'], companyId: NORTE });
  companyAdmin = await buildActor(server, { email: 'jefa@recuerda.mx', name: 'Jefa Norte', roles: ['admin'], companyId: NORTE });
  otherSeller = await buildActor(server, { email: 'vende@sur.mx', name: 'Susana Sur', roles: ['seller'], companyId: 'recuerda-sur' });
  buyer = await buildActor(server, { email: 'juana@ejemplo.mx', name: 'Juana Pérez', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => server?.close());

const due = async (actor: Actor): Promise<ReminderListResponse> => {
  const res = await call(actor, 'GET', '/api/reminders?status=due');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const rowsOf = (paymentId: string) => server.ctx.db.select().from(paymentReminders).where(eq(paymentReminders.paymentId, paymentId));

describe('the reminder ladder of a bill with a link', () => {
  it('makes its rows from link_created_at and deadline_at, once', async () => {
    const bill = await billWithLink(server, { seller, buyer, buyerName: 'Juana Pérez', companyId: NORTE, lots: [{ name: 'Reloj Casio', price: 1200 }] });
    const [p] = await server.ctx.db.select().from(payments).where(eq(payments.id, bill.id));
    const link = p?.linkCreatedAt?.getTime() as number;
    const deadline = p?.deadlineAt?.getTime() as number;
    expect(Math.abs(deadline - link - 72 * H)).toBeLessThan(1000);

    await runReminderPass(server.ctx);
    await runReminderPass(server.ctx);
    const found = await rowsOf(bill.id);
    const at = Object.fromEntries(found.map((r) => [r.kind, r.dueAt.getTime()]));
    expect(at).toEqual({ bill: link, afterLink: link + 24 * H, beforeDeadline: deadline - 12 * H });
    expect(found.every((r) => r.channel === 'waMe' && r.status === 'due')).toBe(true);
  });

  it('a deadline too short for the last reminder leaves it out', async () => {
    expect((await call(companyAdmin, 'PUT', `/api/companies/${NORTE}`, { name: 'Recuerda Norte', paymentDeadlineHours: 30 })).statusCode).toBe(200);
    const bill = await billWithLink(server, { seller, buyer, buyerName: 'Juana Pérez', companyId: NORTE, lots: [{ name: 'Jarrón', price: 300 }] });
    await runReminderPass(server.ctx);
    expect((await rowsOf(bill.id)).map((r) => r.kind).sort()).toEqual(['afterLink', 'bill']);
    expect((await call(companyAdmin, 'PUT', `/api/companies/${NORTE}`, { name: 'Recuerda Norte', paymentDeadlineHours: 72 })).statusCode).toBe(200);
  });
});

describe('the reminders of a new link', () => {
  it('are made with the link, and the list only reads them', async () => {
    const bill = await billWithLink(server, { seller, buyer, buyerName: 'Juana Pérez', companyId: NORTE, lots: [{ name: 'Brújula', price: 500 }] });
    expect((await rowsOf(bill.id)).map((r) => r.kind).sort()).toEqual(['afterLink', 'beforeDeadline', 'bill']);

    // A bill whose ladder is missing (linked before reminders were made with links): the list makes none, the job does.
    await server.ctx.db.delete(paymentReminders).where(eq(paymentReminders.paymentId, bill.id));
    expect((await due(seller)).items.some((r) => r.paymentId === bill.id)).toBe(false);
    expect(await rowsOf(bill.id)).toHaveLength(0);
    await runReminderPass(server.ctx);
    expect((await due(seller)).items.filter((r) => r.paymentId === bill.id).map((r) => r.kind)).toEqual(['bill']);
  });
});

describe('Recordatorios pendientes', () => {
  it('lists the due wa.me reminders in scope, with the message ready', async () => {
    const bill = await billWithLink(server, {
      seller,
      buyer,
      buyerName: 'Juana Pérez',
      companyId: NORTE,
      lots: [
        { name: 'Moneda de plata', price: 900 },
        { name: 'Billete antiguo', price: 400 },
      ],
    });
    // Making the link made its reminders: the first is listed at once, with no wait for the job.
    const list = await due(seller);
    const mine = list.items.filter((r) => r.paymentId === bill.id);
    expect(mine.map((r) => r.kind)).toEqual(['bill']);
    const r = mine[0] as ReminderView;
    expect(r).toMatchObject({ winnerName: 'Juana Pérez', winnerWhatsapp: '+523312345678', grandTotal: 1450, paymentLink: bill.paymentLink });
    expect(r.lots.sort()).toEqual(['Billete antiguo', 'Moneda de plata']);
    const text = reminderMessage(
      'bill',
      { winnerName: 'Juana Pérez', lots: r.lots, grandTotal: 1450, paymentLink: bill.paymentLink as string, deadlineAt: new Date(r.deadlineAt as number) },
      server.url,
    );
    expect(r.whatsappHref).toBe(`https://wa.me/523312345678?text=${encodeURIComponent(text)}`);
    expect(text).toContain(`${server.url}/compras`);

    // Another company's seller sees none of it, and cannot mark it; a buyer may not ask at all.
    expect((await due(otherSeller)).items.some((x) => x.paymentId === bill.id)).toBe(false);
    expect((await call(otherSeller, 'POST', `/api/reminders/${r.id}/sent`)).statusCode).toBe(404);
    expect((await call(buyer, 'GET', '/api/reminders?status=due')).statusCode).toBe(403);
    expect((await call(seller, 'GET', '/api/reminders?status=sent')).statusCode).toBe(400);

    // Marked sent by hand, once: a second click answers the same and writes no second audit row.
    const first = await call(seller, 'POST', `/api/reminders/${r.id}/sent`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().reminder.status).toBe('sent');
    const again = await call(seller, 'POST', `/api/reminders/${r.id}/sent`);
    expect(again.statusCode).toBe(200);
    expect(again.json().reminder.sentAt).toBe(first.json().reminder.sentAt);
    const audits = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.reminder_sent'), eq(auditLog.entityId, bill.id)));
    expect(audits).toHaveLength(1);
    expect((await due(seller)).items.some((x) => x.id === r.id)).toBe(false);

    // 24 h later the next one is due.
    await server.ctx.db.execute(sql`update payment_reminders set due_at = now() - interval '1 minute' where payment_id = ${bill.id} and kind = 'afterLink'`);
    expect((await due(seller)).items.filter((x) => x.paymentId === bill.id).map((x) => x.kind)).toEqual(['afterLink']);

    // Both later ones due (nobody sent the 24 h one): the list shows the latest, and sending it skips the other.
    await server.ctx.db.execute(
      sql`update payment_reminders set due_at = now() - interval '1 second' where payment_id = ${bill.id} and kind = 'beforeDeadline'`,
    );
    const latest = (await due(seller)).items.filter((x) => x.paymentId === bill.id);
    expect(latest.map((x) => x.kind)).toEqual(['beforeDeadline']);
    expect((await call(seller, 'POST', `/api/reminders/${latest[0]?.id}/sent`)).statusCode).toBe(200);
    expect(Object.fromEntries((await rowsOf(bill.id)).map((x) => [x.kind, x.status]))).toEqual({ bill: 'sent', afterLink: 'skipped', beforeDeadline: 'sent' });
  });

  it('skips the reminders of a canceled bill, which then cannot be marked', async () => {
    const bill = await billWithLink(server, { seller, buyer, buyerName: 'Juana Pérez', companyId: NORTE, lots: [{ name: 'Cámara', price: 700 }] });
    await runReminderPass(server.ctx);
    const [billReminder] = (await rowsOf(bill.id)).filter((r) => r.kind === 'bill');
    const canceled = await call(seller, 'POST', `/api/payments/${bill.id}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    const pass = await runReminderPass(server.ctx);
    expect(pass.skipped).toBe(3);
    expect((await rowsOf(bill.id)).every((r) => r.status === 'skipped')).toBe(true);
    expect((await due(seller)).items.some((x) => x.paymentId === bill.id)).toBe(false);
    const res = await call(seller, 'POST', `/api/reminders/${billReminder?.id}/sent`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(messages.reminders.finished);
  });
});
