import { and, eq, lt } from 'drizzle-orm';
import type { ReminderView } from '../../../../domain/reminders.js';
import { recordAudit } from '../../../audit.js';
import type { Db } from '../../../db/connect.js';
import { paymentReminders, payments } from '../../../db/schema.js';
import { AppError } from '../../../http/errors.js';
import type { Acting } from '../../../http/request-context.js';
import { messages } from '../../../messages.js';
import { type Actor, isInScope, paymentScope } from '../bills/policies.js';
import { presentReminder } from './presenters.js';
import { reminderColumns } from './queries.js';

const ALREADY_OUT = new Set(['sent', 'delivered', 'read']);

/**
 * POST /api/reminders/{id}/sent: the seller sent it by hand (wa.me). Idempotent: a reminder already
 * out answers as it is. A failed Cloud API send may be sent by hand too; it becomes a wa.me one.
 * The list shows only a bill's latest due reminder, so sending it skips the earlier unsent ones.
 */
export async function markReminderSent(db: Db, opts: Acting<Actor> & { id: string; origin: string }): Promise<ReminderView> {
  const scope = paymentScope(opts.actor);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select(reminderColumns)
      .from(paymentReminders)
      .innerJoin(payments, eq(payments.id, paymentReminders.paymentId))
      .where(eq(paymentReminders.id, opts.id))
      .for('update', { of: paymentReminders });
    if (!row || !isInScope(scope, { companyId: row.companyId, sellerId: row.sellerId })) throw new AppError('NOT_FOUND', messages.reminders.notFound);
    const r = row.reminder;
    if (ALREADY_OUT.has(r.status)) return presentReminder(row, opts.origin);
    if (r.status === 'skipped' || row.paymentStatus !== 'pending') throw new AppError('CONFLICT', messages.reminders.finished);
    if (r.status === 'sending') throw new AppError('CONFLICT', messages.reminders.notWaMe);
    const [updated] = await tx
      .update(paymentReminders)
      .set({ status: 'sent', channel: 'waMe', sentAt: new Date(), nextAttemptAt: null, updatedAt: new Date() })
      .where(eq(paymentReminders.id, r.id))
      .returning();
    // The earlier reminders of the bill that were never sent are superseded by this one.
    await tx
      .update(paymentReminders)
      .set({ status: 'skipped', updatedAt: new Date() })
      .where(
        and(
          eq(paymentReminders.paymentId, r.paymentId),
          eq(paymentReminders.channel, 'waMe'),
          eq(paymentReminders.status, 'due'),
          lt(paymentReminders.dueAt, r.dueAt),
        ),
      );
    await recordAudit(tx, {
      by: opts,
      action: 'payment.reminder_sent',
      entityType: 'payment',
      entityId: r.paymentId,
      before: { reminderId: r.id, kind: r.kind, status: r.status, channel: r.channel },
      after: { reminderId: r.id, kind: r.kind, status: 'sent', channel: 'waMe' },
    });
    return presentReminder({ ...row, reminder: updated ?? r }, opts.origin);
  });
}
