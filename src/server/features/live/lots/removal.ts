import { sql } from 'drizzle-orm';
import { deriveAuctionStatus } from '../../../../domain/auctions.js';
import { type LotRemovalBlock, lotRemovalBlock } from '../../../../domain/live.js';
import { rows, type Tx } from '../../../db/connect.js';
import type { EngineState } from '../../../db/engine-rows.js';
import { AppError } from '../../../http/errors.js';
import { messages } from '../../../messages.js';
import { onBlockHereSql } from '../../../reads/lot-runs.js';

/**
 * What may leave a session: a lot that sold carries the show's results (its sale, its winner's
 * bill) and a running one has bidders on it, so neither is removed, nor is a session holding one
 * deleted (src/domain/live.ts `lotRemovalBlock`, which the Live Hub reads to say why). A lot never
 * on the block in the show carries none of that, whatever its auction did on its own.
 */

/** `lotRemovalBlock` over the engine's state: the fields the bid presenter derives, read the same way. */
export function removalBlockOf(s: EngineState, offered = true): LotRemovalBlock | null {
  const won = s.status === 'ended' && s.winnerId !== null;
  return lotRemovalBlock(
    {
      status: deriveAuctionStatus(s.status, s.endTime, s.serverNow),
      bidCount: s.bidCount,
      winnerName: won ? (s.winnerName ?? '') : null,
      winnerTag: won ? s.winnerId : null,
      endTime: s.endTime,
    },
    s.serverNow,
    offered,
  );
}

/** The session's lots that were on its block (lot-runs.ts onBlockHereSql), read inside the caller's transaction. */
export async function offeredLots(tx: Tx, sessionId: string): Promise<Set<string>> {
  const found = rows<{ id: string }>(
    await tx.execute(sql`select l.id from live_lots l
                          where l.session_id = ${sessionId}::uuid
                            and ${onBlockHereSql({ id: sql`l.id`, sessionId: sql`l.session_id`, auctionId: sql`l.auction_id` })}`),
  );
  return new Set(found.map((r) => r.id));
}

/**
 * Locks the auctions' rows (the first locks of the transaction, in id order so two of these never
 * wait on each other in a circle) and reads their state: no bid or close changes them until commit.
 * NO KEY UPDATE: a lot row's key check (KEY SHARE) elsewhere does not wait on it.
 */
export async function lockAuctionStates(tx: Tx, auctionIds: readonly string[]): Promise<Map<string, EngineState>> {
  if (auctionIds.length === 0) return new Map();
  const ids = sql.join(
    [...new Set(auctionIds)].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const found = rows<{ s: EngineState }>(
    await tx.execute(sql`select auction_bid_state(a, auction_bidding_config(a.id)) as s from auctions a
                         where a.id in (${ids}) order by a.id for no key update`),
  );
  return new Map(found.map(({ s }) => [s.id, { ...s, endTime: s.endTime === null ? null : Number(s.endTime), serverNow: Number(s.serverNow) }]));
}

/** KEY SHARE on the auctions, in id order: what a lot row's key check takes, taken before the session (lot-order.ts). */
export async function keyShareAuctions(tx: Tx, auctionIds: readonly string[]): Promise<void> {
  if (auctionIds.length === 0) return;
  const ids = sql.join(
    [...new Set(auctionIds)].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await tx.execute(sql`select 1 from auctions where id in (${ids}) order by id for key share`);
}

/** 409 with the reason a lot may not leave its session. */
export function lotRemovalRefused(block: LotRemovalBlock): AppError {
  return new AppError('CONFLICT', block === 'sold' ? messages.live.lotRemoveSold : messages.live.lotRemoveRunning);
}

/** 409 when any of a session's lots may not leave it: the session stays (a sale first, it is the stronger reason). */
export function checkSessionDeletable(blocks: readonly (LotRemovalBlock | null)[]): void {
  if (blocks.includes('sold')) throw new AppError('CONFLICT', messages.live.deleteHasSales);
  if (blocks.includes('running')) throw new AppError('CONFLICT', messages.live.deleteRunning);
}
