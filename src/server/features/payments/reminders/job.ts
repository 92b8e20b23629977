import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../../context.js';
import { rows } from '../../../db/connect.js';
import { type PassLoop, startPassLoop } from '../../../pass-loop.js';
import { createMissingReminders, fallBackToWaMe, skipFinishedReminders } from './ladder.js';
import { sendDueCloudReminders } from './send.js';

/**
 * The reminders job. The database is the timetable: one pass makes the missing reminder rows of
 * bills with a link, skips those of bills no longer pending, and sends the Cloud API's due ones
 * (claimed under SKIP LOCKED, so two instances never send the same one in the same pass). Then it
 * sleeps until the next reminder or retry falls due, never longer than a minute (a new bill's
 * link is picked up within that).
 */

export const MAX_SLEEP_MS = 60_000;

export interface ReminderPass {
  created: number;
  skipped: number;
  sent: number;
  failed: number;
  /** Until the next cloud reminder or retry is due (ms), or null when none waits. */
  nextInMs: number | null;
}

/** One pass of the job (tests call it directly). */
export async function runReminderPass(ctx: Pick<AppContext, 'db' | 'whatsapp'>, opts: { log?: FastifyBaseLogger } = {}): Promise<ReminderPass> {
  const { db, whatsapp } = ctx;
  const created = await createMissingReminders(db, { isCloudOn: whatsapp !== null });
  const skipped = await skipFinishedReminders(db);
  let sent = 0;
  let failed = 0;
  if (whatsapp) {
    const done = await sendDueCloudReminders(db, whatsapp, opts.log ? { log: opts.log } : {});
    sent = done.sent;
    failed = done.failed;
  } else {
    await fallBackToWaMe(db);
  }
  const [next] = rows<{ ms: string | number | null }>(
    await db.execute(sql`
      select (extract(epoch from min(case when status = 'due' then due_at else next_attempt_at end) - clock_timestamp()) * 1000)::bigint as ms
      from payment_reminders
      where channel = 'cloud' and (status = 'due' or (status = 'sending' and next_attempt_at is not null))`),
  );
  const nextInMs = whatsapp && next?.ms !== null && next?.ms !== undefined ? Number(next.ms) : null;
  return { created, skipped, sent, failed, nextInMs };
}

/** Runs passes until stopped: a pass, then sleep until the next due time (at most a minute). */
export function startReminderJob(opts: { ctx: Pick<AppContext, 'db' | 'whatsapp'>; log: FastifyBaseLogger; maxSleepMs?: number }): PassLoop {
  const maxSleepMs = opts.maxSleepMs ?? MAX_SLEEP_MS;
  return startPassLoop({
    name: 'reminders',
    log: opts.log,
    retryMs: maxSleepMs,
    unref: true,
    async pass() {
      const done = await runReminderPass(opts.ctx, { log: opts.log });
      // At least a second: a due row another instance holds locked must not make this one spin.
      const next = done.nextInMs === null ? maxSleepMs : Math.min(maxSleepMs, Math.max(1000, done.nextInMs));
      // A few ms past the due time, so the database's clock has passed it too.
      return next + 5;
    },
  });
}
