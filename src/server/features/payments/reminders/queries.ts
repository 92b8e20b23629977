import { and, asc, eq, inArray, isNotNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { ReminderListResponse, ReminderSource } from '../../../../domain/reminders.js';
import type { Db, Tx } from '../../../db/connect.js';
import { paymentReminders, payments } from '../../../db/schema.js';
import { type PaymentScope, paymentScopeWhere } from '../bills/policies.js';
import { presentReminder, type ReminderRow } from './presenters.js';

/** A reminder with what its view needs of its bill. */
export const reminderColumns = {
  reminder: paymentReminders,
  winnerName: payments.winnerName,
  winnerWhatsapp: payments.winnerWhatsapp,
  companyId: payments.companyId,
  sellerId: payments.sellerId,
  companyName: payments.companyName,
  grandTotal: payments.grandTotal,
  paymentLink: payments.paymentLink,
  deadlineAt: payments.deadlineAt,
  paymentStatus: payments.paymentStatus,
  source: sql<ReminderSource>`(case when exists (select 1 from second_chance_offers o where o.payment_id = ${payments.id}) then 'secondChance'
    when ${payments.sessionId} is not null then 'show' else 'sale' end)`,
  lots: sql<string[] | null>`(select array_agg(i.auction_name order by i.created_at, i.auction_name) from payment_items i where i.payment_id = ${payments.id})`,
};

export async function readReminders(db: Db | Tx, where: SQL | undefined, limit = 200): Promise<ReminderRow[]> {
  return db
    .select(reminderColumns)
    .from(paymentReminders)
    .innerJoin(payments, eq(payments.id, paymentReminders.paymentId))
    .where(where)
    .orderBy(asc(paymentReminders.dueAt), asc(paymentReminders.id))
    .limit(limit);
}

/**
 * GET /api/reminders?status=due ("Recordatorios pendientes"): the wa.me reminders due now of
 * pending bills in the actor's scope, and the Cloud API sends that failed or are being retried.
 */
export async function listDueReminders(db: Db, opts: { scope: PaymentScope; origin: string; now?: Date }): Promise<ReminderListResponse> {
  const now = opts.now ?? new Date();
  const inScope = paymentScopeWhere(opts.scope);
  const pending = eq(payments.paymentStatus, 'pending');
  const due = await readReminders(
    db,
    and(inScope, pending, eq(paymentReminders.channel, 'waMe'), eq(paymentReminders.status, 'due'), lte(paymentReminders.dueAt, now)),
  );
  const troubled = await readReminders(
    db,
    and(
      inScope,
      pending,
      eq(paymentReminders.channel, 'cloud'),
      or(eq(paymentReminders.status, 'failed'), and(inArray(paymentReminders.status, ['sending']), isNotNull(paymentReminders.lastError))),
    ),
  );
  // One line per bill: its latest due reminder (an unsent earlier one says less than it).
  const latest = new Map<string, ReminderRow>();
  for (const r of due) latest.set(r.reminder.paymentId, r);
  const items = due.filter((r) => latest.get(r.reminder.paymentId) === r);
  return { items: items.map((r) => presentReminder(r, opts.origin)), failed: troubled.map((r) => presentReminder(r, opts.origin)) };
}
