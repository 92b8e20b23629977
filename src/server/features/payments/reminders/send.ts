import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type LadderKind, nextAttemptDelay, type ReminderBill, templateParameters } from '../../../../domain/reminders.js';
import { type Db, rows } from '../../../db/connect.js';
import type { WhatsAppClient } from '../../../providers/whatsapp/cloud.js';

/**
 * Sending the Cloud API's reminders. A reminder is claimed under a lock ('sending', attempts + 1,
 * a lease in next_attempt_at), the Graph API is called outside any transaction, and the answer is
 * stored: the wamid and 'sent', or the error and the next try (1 min, 5, 30, 2 h; 'failed' after
 * the fifth). A process that dies mid-call leaves a 'sending' row whose lease runs out, and the
 * next pass sends it again. The Graph API has no idempotency key, so that rare case may deliver a
 * message twice; we accept it rather than risk never sending.
 */

/** How long a claimed send may take before another pass takes it over (a crash mid-call). */
export const SEND_LEASE_MS = 5 * 60_000;

interface Claimed {
  id: string;
  kind: LadderKind;
  attempts: number;
  to: string;
  bill: ReminderBill;
}

/** Claims up to `limit` due cloud reminders of pending bills, each re-checked under its lock. */
async function claimDue(db: Db, limit: number): Promise<Claimed[]> {
  return db.transaction(async (tx) => {
    const found = rows<{
      id: string;
      kind: LadderKind;
      attempts: number;
      winner_name: string;
      whatsapp: string | null;
      consent: boolean | null;
      grand_total: number;
      payment_link: string | null;
      deadline_at: string | Date | null;
      lots: string[] | null;
    }>(
      await tx.execute(sql`
        select r.id, r.kind, r.attempts, p.winner_name, coalesce(nullif(p.winner_whatsapp, ''), up.whatsapp) as whatsapp,
               up.whatsapp_consent_given as consent, p.grand_total, p.payment_link, p.deadline_at,
               (select array_agg(i.auction_name order by i.created_at, i.auction_name) from payment_items i where i.payment_id = p.id) as lots
        from payment_reminders r
        join payments p on p.id = r.payment_id
        left join user_profiles up on up.user_id = p.winner_id
        where r.channel = 'cloud' and p.payment_status = 'pending'
          and ((r.status = 'due' and r.due_at <= now()) or (r.status = 'sending' and r.next_attempt_at <= now()))
        order by r.due_at
        limit ${limit}
        for update of r skip locked`),
    );
    const claimed: Claimed[] = [];
    for (const r of found) {
      // Consent withdrawn or number gone since the row was made: the seller sends it by hand.
      if (!r.consent || !r.whatsapp || !r.payment_link) {
        await tx.execute(sql`update payment_reminders set channel = 'waMe', status = 'due', next_attempt_at = null, updated_at = now() where id = ${r.id}`);
        continue;
      }
      await tx.execute(sql`
        update payment_reminders
        set status = 'sending', attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${SEND_LEASE_MS / 1000}), updated_at = now()
        where id = ${r.id}`);
      claimed.push({
        id: r.id,
        kind: r.kind,
        attempts: Number(r.attempts) + 1,
        to: r.whatsapp,
        bill: {
          winnerName: r.winner_name,
          lots: r.lots ?? [],
          grandTotal: Number(r.grand_total),
          paymentLink: r.payment_link,
          deadlineAt: r.deadline_at ? new Date(r.deadline_at) : null,
        },
      });
    }
    return claimed;
  });
}

function templateOf(client: WhatsAppClient, kind: LadderKind): string {
  const { templates } = client.config;
  return kind === 'bill' ? templates.bill : kind === 'afterLink' ? templates.reminder : templates.deadline;
}

/** Sends the due cloud reminders; answers how many went out and how many failed this pass. */
export async function sendDueCloudReminders(
  db: Db,
  client: WhatsAppClient,
  opts: { log?: FastifyBaseLogger; limit?: number } = {},
): Promise<{ sent: number; failed: number }> {
  const claimed = await claimDue(db, opts.limit ?? 50);
  let sent = 0;
  let failed = 0;
  for (const r of claimed) {
    try {
      const { messageId } = await client.sendTemplate({ to: r.to, template: templateOf(client, r.kind), parameters: templateParameters(r.bill) });
      // A bill paid meanwhile may have skipped the row: keep the wamid anyway, so its webhooks find it.
      await db.execute(sql`
        update payment_reminders
        set provider_message_id = ${messageId},
            status = case when status = 'sending' then 'sent' else status end,
            sent_at = now(), next_attempt_at = null, last_error = null, updated_at = now()
        where id = ${r.id}`);
      sent++;
    } catch (err) {
      failed++;
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      const delay = nextAttemptDelay(r.attempts);
      opts.log?.warn({ err, reminderId: r.id, attempts: r.attempts }, 'whatsapp reminder not sent');
      await db.execute(sql`
        update payment_reminders
        set last_error = ${message},
            status = ${delay === null ? sql`'failed'` : sql`'sending'`},
            next_attempt_at = ${delay === null ? sql`null` : sql`now() + make_interval(secs => ${delay / 1000})`},
            updated_at = now()
        where id = ${r.id} and status = 'sending'`);
    }
  }
  return { sent, failed };
}
