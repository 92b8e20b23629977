import { sql } from 'drizzle-orm';
import type { ReminderChannel } from '../../../../domain/after-show.js';
import { reminderLadder } from '../../../../domain/reminders.js';
import { rows } from '../../../db/connect.js';
import type { DbOrTx } from '../../../db/transaction.js';

/**
 * A bill's WhatsApp reminders (domain/reminders.ts reminderLadder), made when its link is made, in
 * the same transaction (checkout.ts), so the panel's list shows the first one at once; the
 * reminders job makes those still missing (a bill linked before this ran). A bill missing its
 * 'bill' row gets its whole ladder in one insert; two instances may race here, and the
 * (payment, kind) key keeps one row each. A buyer who agreed to WhatsApp messages and has a number
 * gets them through the Cloud API when it is configured; anyone else by hand (wa.me).
 */
export async function makeReminderLadders(
  db: DbOrTx,
  opts: { isCloudOn: boolean /** Only this bill's. */; paymentId?: string; now?: Date; limit?: number },
): Promise<number> {
  const now = opts.now ?? new Date();
  const found = rows<{ id: string; link_created_at: string | Date; deadline_at: string | Date | null; is_cloud: boolean }>(
    await db.execute(sql`
      select p.id, p.link_created_at, p.deadline_at,
             (coalesce(up.whatsapp_consent_given, false) and coalesce(nullif(p.winner_whatsapp, ''), up.whatsapp) is not null) as is_cloud
      from payments p
      left join user_profiles up on up.user_id = p.winner_id
      where p.payment_status = 'pending' and p.link_created_at is not null
        ${opts.paymentId ? sql`and p.id = ${opts.paymentId}::uuid` : sql``}
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
