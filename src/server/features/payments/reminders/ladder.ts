import { sql } from 'drizzle-orm';
import { type Db, rows } from '../../../db/connect.js';
import { makeReminderLadders } from '../bills/reminder-ladder.js';

/**
 * The reminder rows still missing of pending bills with a link. A link makes its bill's rows
 * (payments/reminder-ladder.ts); the job's pass makes those of a bill linked before that ran.
 */
export function createMissingReminders(db: Db, opts: { isCloudOn: boolean; now?: Date; limit?: number }): Promise<number> {
  return makeReminderLadders(db, opts);
}

/** Reminders of a bill that is no longer pending (paid, canceled, expired) are not needed any more. */
export async function skipFinishedReminders(db: Db): Promise<number> {
  return rows(
    await db.execute(sql`
      update payment_reminders r set status = 'skipped', next_attempt_at = null, updated_at = now()
      from payments p
      where p.id = r.payment_id and p.payment_status <> 'pending' and r.status in ('due', 'sending')
      returning r.id`),
  ).length;
}

/** Without the Cloud API (its configuration removed) a reminder waiting for it goes back to the panel's wa.me list. */
export async function fallBackToWaMe(db: Db): Promise<number> {
  return rows(
    await db.execute(sql`
      update payment_reminders set channel = 'waMe', status = 'due', next_attempt_at = null, updated_at = now()
      where channel = 'cloud' and (status = 'due' or (status = 'sending' and next_attempt_at <= now()))
      returning id`),
  ).length;
}
