import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { VIEWER_SAMPLE_MS } from '../../../../domain/show-summary.js';
import { type Db, rows } from '../../../db/connect.js';
import { type PassLoop, startPassLoop } from '../../../pass-loop.js';

/**
 * The viewers chart's data: every VIEWER_SAMPLE_MS, the viewer count of each live show
 * (live_viewer_samples). The sample's time is the database's clock rounded down to the period and
 * the row's key is (session, time), so several instances sampling the same moment write one row
 * (insert … on conflict do nothing); the count is the realtime server's, already summed over every
 * instance. With no live show the sampler sleeps, looking for one at most every IDLE_MS.
 */

export const IDLE_MS = 30_000;

/** One pass: a sample of every live session now. Answers how many sessions were sampled. */
export async function sampleViewers(db: Db, viewerCount: (sessionId: string) => number): Promise<number> {
  const live = rows<{ id: string }>(await db.execute(sql`select id from live_sessions where status = 'live' limit 500`));
  if (live.length === 0) return 0;
  const ids = live.map((s) => s.id);
  const counts = ids.map((id) => Math.max(0, Math.floor(viewerCount(id))));
  const period = VIEWER_SAMPLE_MS / 1000;
  await db.execute(sql`
    insert into live_viewer_samples (session_id, at, viewers)
    select s.id, to_timestamp(floor(extract(epoch from clock_timestamp()) / ${period}) * ${period}), s.viewers
    from unnest(${`{${ids.join(',')}}`}::uuid[], ${`{${counts.join(',')}}`}::int[]) as s(id, viewers)
    on conflict (session_id, at) do nothing`);
  return ids.length;
}

/** The sampler: a pass at each period's start while a show is live, otherwise every IDLE_MS. */
export function startViewerSampler(opts: { db: Db; log: FastifyBaseLogger; viewerCount: (sessionId: string) => number }): PassLoop {
  return startPassLoop({
    name: 'viewer sampler',
    log: opts.log,
    retryMs: IDLE_MS,
    firstDelayMs: 1_000,
    unref: true,
    async pass() {
      const sampled = await sampleViewers(opts.db, opts.viewerCount);
      // Just past the next period's start, so this instance's sample lands in its own period.
      return sampled > 0 ? VIEWER_SAMPLE_MS - (Date.now() % VIEWER_SAMPLE_MS) + 50 : IDLE_MS;
    },
  });
}
