import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CLIP_DAYS_AFTER_PAID } from '../../../domain/replays.js';
import { type Db, rows } from '../../db/connect.js';
import { type PassLoop, startPassLoop } from '../../pass-loop.js';
import type { Storage } from '../../providers/storage/types.js';
import { replayFolder } from './service.js';

/**
 * What replays keep, and for how long: a replay REPLAY_RETENTION_DAYS from when it was made (its
 * `expires_at`, set then); a clip 90 days after its show while its bill is unpaid (set when it is
 * cut), and 30 days after the bill is paid once it is (this job moves the date). Once a day the job
 * moves the paid clips' dates and deletes what expired, files first (local disk or S3), then rows,
 * so a failure half-way leaves rows that the next day's pass deletes again, never files without a
 * row to find them by.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per statement: a deletion's files go one by one, so a batch is a few seconds of storage calls. */
const BATCH = 100;

export interface RetentionResult {
  replaysDeleted: number;
  clipsDeleted: number;
  clipsRedated: number;
}

/** A clip whose bill was paid is kept CLIP_DAYS_AFTER_PAID from the payment, whatever its show's date gave it. */
async function redatePaidClips(db: Db): Promise<number> {
  const moved = rows<{ auction_id: string }>(
    await db.execute(sql`
      update replay_clips c set expires_at = p.paid_at + ${CLIP_DAYS_AFTER_PAID}::int * interval '1 day'
      from payment_items i join payments p on p.id = i.payment_id
      where i.auction_id = c.auction_id and p.payment_status = 'paid' and p.paid_at is not null
        and c.expires_at is distinct from p.paid_at + ${CLIP_DAYS_AFTER_PAID}::int * interval '1 day'
      returning c.auction_id`),
  );
  return moved.length;
}

/** One pass: paid clips' dates moved, then every expired replay and clip deleted, a batch at a time. */
export async function deleteExpiredReplays(db: Db, storage: Storage, now = new Date()): Promise<RetentionResult> {
  const result: RetentionResult = { replaysDeleted: 0, clipsDeleted: 0, clipsRedated: await redatePaidClips(db) };
  for (;;) {
    const expired = rows<{ session_id: string }>(
      await db.execute(sql`select session_id from replays where expires_at <= ${now.toISOString()}::timestamptz order by expires_at limit ${BATCH}`),
    );
    for (const { session_id } of expired) {
      await storage.deletePrefix(replayFolder(session_id));
      await db.execute(sql`delete from replays where session_id = ${session_id}::uuid and expires_at <= ${now.toISOString()}::timestamptz`);
      result.replaysDeleted++;
    }
    if (expired.length < BATCH) break;
  }
  for (;;) {
    const expired = rows<{ auction_id: string; video_key: string | null }>(
      await db.execute(
        sql`select auction_id, video_key from replay_clips where expires_at <= ${now.toISOString()}::timestamptz order by expires_at limit ${BATCH}`,
      ),
    );
    for (const clip of expired) {
      if (clip.video_key) await storage.delete(clip.video_key);
      await db.execute(sql`delete from replay_clips where auction_id = ${clip.auction_id}::uuid and expires_at <= ${now.toISOString()}::timestamptz`);
      result.clipsDeleted++;
    }
    if (expired.length < BATCH) break;
  }
  return result;
}

/** The `replay-retention` job: a pass a day, the first ten minutes after the start. */
export function startReplayRetention(deps: { db: Db; storage: Storage; log: FastifyBaseLogger }): PassLoop {
  return startPassLoop({
    name: 'replay retention',
    log: deps.log,
    retryMs: 60 * 60 * 1000,
    firstDelayMs: 10 * 60 * 1000,
    unref: true,
    async pass() {
      const done = await deleteExpiredReplays(deps.db, deps.storage);
      if (done.replaysDeleted || done.clipsDeleted) deps.log.info(done, 'expired replays and clips deleted');
      return DAY_MS;
    },
  });
}

export const REPLAY_RETENTION_EVERY_MS = DAY_MS;
