import { type SQL, sql } from 'drizzle-orm';
import { normalizeBiddingConfig } from '../../../../domain/live.js';
import { type Db, rows, type Tx } from '../../../db/connect.js';
import type { SessionRow } from '../presenters.js';

/**
 * A session's queue as 'Siguiente lote' (next-lot.ts) and 'Avance automático' (auto-advance.ts)
 * read it: the current lot, and the first lot after it that can still be sold. Below the services
 * (no import of sessions.ts), so readSessionView can tell when the next lot opens by itself.
 */

/**
 * The lot `l` (its auction `a`) can still be sold: queued, no bids and no winner, not closed, not
 * running, not paid and not held by a payment. The aliases are the caller's SQL's.
 */
export function openToSell(l: string, a: string): SQL {
  const L = sql.raw(l);
  const A = sql.raw(a);
  return sql`${L}.status = 'queued' and ${A}.bid_count = 0 and ${A}.current_winner_id is null and ${A}.closed_at is null
    and not ${A}.is_paid and ${A}.status <> 'ended'
    and (${A}.status = 'pending' or ${A}.end_time is null or (${A}.end_time > clock_timestamp() and ${A}.status <> 'live'))
    and not exists (select 1 from payment_items pi where pi.auction_id = ${A}.id and pi.payment_status in ('draft', 'pending', 'paid'))`;
}

export interface CurrentFacts {
  id: string;
  order: number;
  /** Its auction takes bids and its end time has not come. */
  running: boolean;
  /** epoch ms, or null while it has not closed. */
  closedAt: number | null;
}
export interface NextFacts {
  id: string;
  status: string;
  auctionId: string;
}

/** The session's current lot (if any) and the first lot after it, by order, that can still be sold. */
export async function readQueue(
  db: Db | Tx,
  session: Pick<SessionRow, 'id' | 'currentLotId'>,
): Promise<{ current: CurrentFacts | null; next: NextFacts | null }> {
  const [current] = session.currentLotId
    ? rows<{ id: string; order: number; running: boolean; closed_at: string | number | null }>(
        await db.execute(sql`
          select l.id, l."order",
                 (a.closed_at is null and a.status in ('active', 'live') and a.end_time > clock_timestamp()) as running,
                 (extract(epoch from a.closed_at) * 1000)::bigint as closed_at
          from live_lots l join auctions a on a.id = l.auction_id
          where l.id = ${session.currentLotId}::uuid and l.session_id = ${session.id}::uuid`),
      )
    : [];
  const after = current ? Number(current.order) : 0;
  const [next] = rows<{ id: string; status: string; auction_id: string }>(
    await db.execute(sql`
      select l.id, l.status, l.auction_id
      from live_lots l join auctions a on a.id = l.auction_id
      where l.session_id = ${session.id}::uuid and l."order" > ${after} and ${openToSell('l', 'a')}
      order by l."order" limit 1`),
  );
  return {
    current: current
      ? {
          id: current.id,
          order: Number(current.order),
          running: Boolean(current.running),
          closedAt: current.closed_at === null ? null : Number(current.closed_at),
        }
      : null,
    next: next ? { id: next.id, status: next.status, auctionId: next.auction_id } : null,
  };
}

/**
 * When 'Avance automático' opens the next lot (epoch ms): N seconds after the current lot's auction
 * closed, while the session is live and not paused and a lot remains; else null.
 */
export async function autoAdvanceAtOf(db: Db | Tx, row: SessionRow): Promise<number | null> {
  const n = normalizeBiddingConfig(row.biddingConfig).autoAdvanceSeconds;
  if (n === null || row.status !== 'live' || row.autoAdvancePaused || !row.currentLotId) return null;
  const queue = await readQueue(db, row);
  if (!queue.current || queue.current.closedAt === null || !queue.next) return null;
  return queue.current.closedAt + n * 1000;
}
