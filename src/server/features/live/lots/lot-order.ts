import { and, count, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { nextLotOrder } from '../../../../domain/live.js';
import type { Tx } from '../../../db/connect.js';
import { liveLots } from '../../../db/schema.js';
import type { SessionRow } from '../presenters.js';

type LotRow = typeof liveLots.$inferSelect;

/**
 * Lot orders are 1-based and dense, and every change holds the session row. The unique
 * (session_id, order) constraint is checked row by row, so a move never lands on an order still
 * taken. And PostgreSQL checks a lot row's auction key again (a KEY SHARE lock on the auction)
 * when the same transaction updates that row a second time: a session held while waiting there
 * would deadlock with a closing auction, whose close waits on the session. So an insert or a
 * removal moves each other lot once, one step, in an order that never collides; only a reorder
 * rewrites every lot twice, and it locks the lots' auctions before the session (lots.ts).
 */
const OFFSET = 1_000_000;

/** Orders 1..n in the given order (ids of this session's lots): every lot moved out of the way, then to its place. */
export async function renumber(tx: Tx, sessionId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`update live_lots set "order" = "order" + ${OFFSET} where session_id = ${sessionId}::uuid`);
  const values = ids.map((id, i) => sql`(${id}::uuid, ${i + 1}::integer)`);
  await tx.execute(sql`update live_lots l set "order" = v.o from (values ${sql.join(values, sql`, `)}) as v(id, o)
                      where l.id = v.id and l.session_id = ${sessionId}::uuid`);
}

export async function lotIdsInOrder(tx: Tx, sessionId: string): Promise<string[]> {
  const found = await tx.select({ id: liveLots.id }).from(liveLots).where(eq(liveLots.sessionId, sessionId)).orderBy(liveLots.order);
  return found.map((l) => l.id);
}

/** The lots after `order` move one step (down the list for +1, the last first; up for -1, the first first), each row once. */
async function shiftAfter(tx: Tx, sessionId: string, order: number, by: 1 | -1): Promise<void> {
  const moving = await tx
    .select({ id: liveLots.id, order: liveLots.order })
    .from(liveLots)
    .where(and(eq(liveLots.sessionId, sessionId), gt(liveLots.order, order), lt(liveLots.order, OFFSET)))
    .orderBy(by === 1 ? desc(liveLots.order) : liveLots.order);
  for (const lot of moving)
    await tx
      .update(liveLots)
      .set({ order: lot.order + by })
      .where(eq(liveLots.id, lot.id));
}

/** Closes the gap a removed lot left at `order`. */
export async function closeGap(tx: Tx, sessionId: string, order: number): Promise<void> {
  await shiftAfter(tx, sessionId, order, -1);
}

/**
 * A new lot for `auctionId` (an auction this transaction created: its key check waits on no one)
 * right after the session's current lot, the rest moving down one; last without a current lot.
 */
export async function insertAfterCurrent(tx: Tx, opts: { session: SessionRow; auctionId: string }): Promise<LotRow> {
  const { session } = opts;
  const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(liveLots).where(eq(liveLots.sessionId, session.id));
  const [current] = session.currentLotId
    ? await tx
        .select({ order: liveLots.order })
        .from(liveLots)
        .where(and(eq(liveLots.id, session.currentLotId), eq(liveLots.sessionId, session.id)))
    : [];
  const last = nextLotOrder(Number(n));
  const at = current && current.order + 1 < last ? current.order + 1 : last;
  const [lot] = await tx
    .insert(liveLots)
    .values({ sessionId: session.id, auctionId: opts.auctionId, order: at === last ? last : OFFSET + last })
    .returning();
  if (!lot) throw new Error('insert returned nothing');
  if (at === last) return lot;
  await shiftAfter(tx, session.id, at - 1, 1);
  const [placed] = await tx.update(liveLots).set({ order: at }).where(eq(liveLots.id, lot.id)).returning();
  if (!placed) throw new Error('lot vanished');
  return placed;
}
