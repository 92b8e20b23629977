import { sql } from 'drizzle-orm';
import type { BidOutcome } from '../../domain/bidding.js';
import { isUuid } from '../../domain/ids.js';
import { type Db, rows, type Tx } from '../db/connect.js';
import type { EngineLine, EngineState } from '../db/engine-rows.js';
import type { DomainEvent } from '../realtime/publisher.js';

/** One bid as the engine takes it (place_bids, src/server/db/functions/place-bids.sql). */
export interface BidRequest {
  auctionId: string;
  bidderId: string;
  amount: number;
  maxAmount: number | null;
  key: string | null;
}

/** What the engine's functions answer (src/server/db/functions/): a refusal, or the lines written and the new state. */
export interface EngineAnswer {
  error?:
    | 'PROFILE_INCOMPLETE'
    | 'NOT_FOUND'
    | 'AUCTION_CLOSED'
    | 'OWN_AUCTION'
    | 'BID_TOO_LOW'
    | 'BUY_NOW_UNAVAILABLE'
    | 'IDEMPOTENCY_REUSED'
    | 'BUYER_BLOCKED'
    | 'BUYER_STRUCK';
  replayed?: boolean;
  outcome?: BidOutcome;
  lines?: EngineLine[];
  allLines?: EngineLine[];
  previousLeaderId?: string | null;
  state?: EngineState;
}

/**
 * The engine's two calls for bids, and nothing else calls them: `place_bid` decides one bid,
 * `place_bids` a group in order, each as alone. Either runs in the caller's transaction when given one.
 */
export async function callPlaceBid(db: Db | Tx, request: BidRequest): Promise<EngineAnswer | undefined> {
  const [row] = rows<{ r: EngineAnswer }>(
    await db.execute(
      sql`select place_bid(${request.auctionId}::uuid, ${request.bidderId}::uuid, ${request.amount}::integer, ${request.maxAmount}::integer, ${request.key}::text) as r`,
    ),
  );
  return row?.r;
}

export async function callPlaceBids(db: Db | Tx, requests: readonly BidRequest[]): Promise<(EngineAnswer | undefined)[]> {
  const [row] = rows<{ r: EngineAnswer[] }>(await db.execute(sql`select place_bids(${JSON.stringify(requests)}::jsonb) as r`));
  return requests.map((_, i) => row?.r[i]);
}

/** The engine's view of one auction, without locking it; null when there is no such auction. */
export async function readEngineState(db: Db | Tx, auctionId: string): Promise<EngineState | null> {
  if (!isUuid(auctionId)) return null;
  const [row] = rows<{ s: EngineState }>(
    await db.execute(sql`select auction_bid_state(a, auction_bidding_config(a.id)) as s from auctions a where a.id = ${auctionId}::uuid`),
  );
  return row?.s ?? null;
}

/**
 * What the room and the overtaken leader hear of an answer, and the close it caused; nothing for a
 * replay. `state` is the answer's, stamped after the commit.
 */
export function answerEvents(answer: EngineAnswer, state: EngineState, actorId: string): DomainEvent[] {
  if (answer.replayed) return [];
  const outbid = answer.previousLeaderId ?? null;
  const placed: DomainEvent = { type: 'bidPlaced', state, lines: answer.allLines ?? [], outbidUserId: outbid !== actorId ? outbid : null };
  return state.status === 'ended' ? [placed, { type: 'auctionClosed', state }] : [placed];
}
