import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, rows } from '../../../db/connect.js';
import { type PassLoop, startPassLoop } from '../../../pass-loop.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { openNextLot } from '../lots/next-lot.js';
import { openToSell } from '../lots/queue.js';

/**
 * 'Avance automático': with biddingConfig.autoAdvanceSeconds set, a live session that is not
 * paused opens its next lot N seconds after the current lot's auction closed (closed_at), through
 * the very path of 'Siguiente lote' (next-lot.ts), audited with no actor (the system). Like the
 * closing scheduler (bids/scheduler.ts) the database is the only timetable, so a restart or a
 * second instance changes nothing: each instance locks the session with SKIP LOCKED and re-checks
 * everything under the lock, so exactly one of them opens the lot and the others pass by. After
 * the last lot nothing is due, so nothing happens.
 */

/** The sessions counting down, with how long until each is due (ms, negative once overdue). */
async function countingDown(db: Db): Promise<{ id: string; ms: number }[]> {
  return rows<{ id: string; ms: string | number }>(
    await db.execute(sql`
      select s.id,
             (extract(epoch from (a.closed_at + make_interval(secs => (s.bidding_config->>'autoAdvanceSeconds')::int)) - clock_timestamp()) * 1000)::bigint as ms
      from live_sessions s
      join live_lots l on l.id = s.current_lot_id
      join auctions a on a.id = l.auction_id
      where s.status = 'live' and not s.auto_advance_paused
        and jsonb_typeof(s.bidding_config->'autoAdvanceSeconds') = 'number'
        and a.closed_at is not null
        and exists (select 1 from live_lots l2 join auctions a2 on a2.id = l2.auction_id
                    where l2.session_id = s.id and l2."order" > l."order" and ${openToSell('l2', 'a2')})
      order by ms
      limit 100`),
  ).map((r) => ({ id: r.id, ms: Number(r.ms) }));
}

/**
 * One pass: opens the next lot of every session that is due, and answers the events to publish
 * and how long until the next one falls due (null: none counts down).
 */
export async function advanceDueSessions(
  db: Db,
  opts: { present: BidPresenter; log?: FastifyBaseLogger },
): Promise<{ opened: string[]; events: DomainEvent[]; nextInMs: number | null }> {
  const sessions = await countingDown(db);
  const opened: string[] = [];
  const events: DomainEvent[] = [];
  let nextInMs: number | null = null;
  for (const s of sessions) {
    if (s.ms > 0) {
      nextInMs = nextInMs === null ? s.ms : Math.min(nextInMs, s.ms);
      continue;
    }
    try {
      const done = await openNextLot(db, { by: { kind: 'auto' }, present: opts.present, sessionId: s.id });
      if (done) {
        opened.push(done.lotId);
        events.push(...done.events);
      }
    } catch (err) {
      // A lot that cannot open (sold meanwhile, in a payment) leaves the session to its seller.
      opts.log?.warn({ err, sessionId: s.id }, 'auto-advance: the next lot did not open');
    }
  }
  return { opened, events, nextInMs };
}

/** The auto-advance scheduler: a pass, then sleep until the next session falls due, never longer than `maxSleepMs`. */
export function startAutoAdvanceScheduler(opts: {
  db: Db;
  log: FastifyBaseLogger;
  present: BidPresenter;
  publish: (events: DomainEvent[]) => Promise<void>;
  maxSleepMs?: number;
}): PassLoop {
  const maxSleepMs = opts.maxSleepMs ?? 1000;
  return startPassLoop({
    name: 'auto-advance',
    log: opts.log,
    retryMs: maxSleepMs,
    async pass() {
      const done = await advanceDueSessions(opts.db, { present: opts.present, log: opts.log });
      if (done.events.length > 0) await opts.publish(done.events);
      // A few ms past the due time, so the database's clock has passed it too.
      return (done.nextInMs === null ? maxSleepMs : Math.min(maxSleepMs, Math.max(0, done.nextInMs))) + 5;
    },
  });
}
