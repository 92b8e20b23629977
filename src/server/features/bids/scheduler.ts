import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { recordAudit } from '../../audit.js';
import { type Db, rows } from '../../db/connect.js';
import type { EngineState } from '../../db/engine-rows.js';
import { type PassLoop, startPassLoop } from '../../pass-loop.js';
import { refreshAuctionSearchText } from '../../reads/search-text.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import { auctionUpdated } from '../auctions/index.js';

/** Auctions closed per transaction; a backlog (after a restart) is worked through batch by batch. */
const BATCH = 100;

/** A closed auction, and whether the close withdrew a blocked bidder's bids first (the history changed). */
export interface Closed {
  state: EngineState;
  withdrawn: boolean;
}

/** Closes every auction whose end time has passed, in one transaction per batch (close_due_auctions, src/server/db/functions/close-due-auctions.sql). */
export async function closeDueAuctions(db: Db, limit = BATCH): Promise<EngineState[]> {
  return (await closeDue(db, limit)).map((c) => c.state);
}

/** closeDueAuctions, with what the close withdrew. */
export async function closeDue(db: Db, limit = BATCH): Promise<Closed[]> {
  return db.transaction(async (tx) => {
    const answers = rows<{ r: { state: EngineState; withdrawn?: boolean } }>(await tx.execute(sql`select close_due_auctions(${limit}::integer) as r`));
    const closed = answers.map(({ r }) => ({ state: r.state, withdrawn: r.withdrawn === true }));
    if (closed.length === 0) return closed;
    // The winner's name is searchable in the admin table.
    await refreshAuctionSearchText(tx, { auctionIds: closed.map((c) => c.state.id) });
    for (const { state: s } of closed) {
      await recordAudit(tx, {
        by: null,
        action: 'auction.closed',
        entityType: 'auction',
        entityId: s.id,
        after: { winnerId: s.winnerId, price: s.currentPrice, bidCount: s.bidCount },
      });
    }
    return closed;
  });
}

/**
 * The closing scheduler: auctions end on time even when nobody bids or looks. The database is the
 * only timetable: each pass closes what is due, then sleeps until the next end time, never longer
 * than `maxSleepMs`, so auctions created or extended by other instances are seen too. Nothing is
 * kept in memory, so a restart simply finds the overdue auctions on its first pass. Several
 * instances may run it: the closing statement locks and re-checks each row, so each auction is
 * closed exactly once.
 */
export function startClosingScheduler(opts: {
  db: Db;
  log: FastifyBaseLogger;
  /** The publisher: each closed auction's `auctionClosed`, after its batch committed. */
  publish: (events: DomainEvent[]) => Promise<void>;
  maxSleepMs?: number;
}): PassLoop {
  const maxSleepMs = opts.maxSleepMs ?? 1000;
  return startPassLoop({
    name: 'closing scheduler',
    log: opts.log,
    retryMs: maxSleepMs,
    async pass(isStopped) {
      for (;;) {
        const closed = await closeDue(opts.db);
        // Withdrawn lines leave the viewers' histories: their pages refetch on the update.
        await opts.publish(closed.flatMap(({ state, withdrawn }) => [{ type: 'auctionClosed', state }, ...(withdrawn ? [auctionUpdated(state)] : [])]));
        if (closed.length < BATCH || isStopped()) break;
      }
      const [row] = rows<{ ms: number | string | null }>(
        await opts.db.execute(
          sql`select (extract(epoch from min(end_time) - clock_timestamp()) * 1000)::bigint as ms from auctions where status in ('active', 'live')`,
        ),
      );
      const next = row?.ms !== null && row?.ms !== undefined ? Math.min(maxSleepMs, Math.max(0, Number(row.ms))) : maxSleepMs;
      // A few ms past the end, so the database's clock has passed it too.
      return next + 5;
    },
  });
}
