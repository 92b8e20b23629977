import { sql } from 'drizzle-orm';
import type { ReminderChannel } from '../../../domain/after-show.js';
import { reminderLadder } from '../../../domain/reminders.js';
import { type Db, rows } from '../../db/connect.js';

/**
 * The reminder rows of pending bills with a link, made lazily by the job (finalize does not know
 * about reminders): a bill missing its 'bill' row gets its whole ladder in one insert. Two
 * instances may race here; the (payment, kind) key keeps one row each.
 */
export async function createMissingReminders(db: Db, opts: { isCloudOn: boolean; now?: Date; limit?: number }): Promise<number> {
  const now = opts.now ?? new Date();
  const found = rows<{ id: string; link_created_at: string | Date; deadline_at: string | Date | null; is_cloud: boolean }>(
    await db.execute(sql`
      select p.id, p.link_created_at, p.deadline_at,
             (coalesce(up.whatsapp_consent_given, false) and coalesce(nullif(p.winner_whatsapp, ''), up.whatsapp) is not null) as is_cloud
      from payments p
      left join user_profiles up on up.user_id = p.winner_id
      where p.payment_status = 'pending' and p.link_created_at is not null
        and not exists (select 1 from payment_reminders r where r.payment_id = p.id and r.kind = 'bill')
      order by p.link_created_at
      limit ${opts.limit ?? 500}`),
  );
  let made = 0;
  for (const p of found) {
    const channel: ReminderChannel = opts.isCloudOn && p.is_cloud ? 'cloud' : 'waMe';
    const ladder = reminderLadder({ linkCreatedAt: new Date(p.link_created_at), deadlineAt: p.deadline_at ? new Date(p.deadline_at) : null, now });
    const values = sql.join(
      ladder.map((step) => sql`(${p.id}, ${step.kind}, ${step.dueAt.toISOString()}::timestamptz, ${channel})`),
      sql`, `,
    );
    const inserted = rows(
      await db.execute(sql`insert into payment_reminders (payment_id, kind, due_at, channel) values ${values}
                           on conflict (payment_id, kind) do nothing returning id`),
    );
    made += inserted.length;
  }
  return made;
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
