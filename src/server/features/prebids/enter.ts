import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { nextMinimumBid } from '../../../domain/bid-rules.js';
import type { PrebidOutcome } from '../../../domain/prebids.js';
import { callPlaceBids, readEngineState } from '../../bidding/engine.js';
import type { Tx } from '../../db/connect.js';
import type { EngineLine, EngineState } from '../../db/engine-rows.js';
import { auctions, prebids } from '../../db/schema.js';
import type { BidPresenter } from '../../realtime/bid-presenter.js';
import type { DomainEvent } from '../../realtime/publisher.js';
import { holdingShow } from './queries.js';

/** What a lot's opening made of its pre-bids: the events to publish once the opening commits. */
export interface PrebidsEntered {
  /** How many pre-bids entered the engine. */
  count: number;
  events: DomainEvent[];
}

async function engineState(tx: Tx, auctionId: string): Promise<EngineState> {
  const state = await readEngineState(tx, auctionId);
  if (!state) throw new Error('auction vanished');
  return state;
}

/**
 * Runs inside the transaction that opens a lot (the auction row locked, status live, end time
 * set): its waiting pre-bids enter the bid engine by `created_at`, so the lot opens at the proxy
 * price with the opening leader, and each pre-bid is marked entered with its outcome.
 *
 * Each pre-bid is one `place_bids` call, in line order, bidding the next minimum of the state the
 * previous call left with its maximum behind it, exactly as a buyer's bid with a maximum would; so
 * on equal maximums the earlier keeps the lead, as the engine decides any tie. A maximum below that
 * minimum is bid as itself, which the engine refuses as too low, and the engine alone refuses a
 * buyer blocked or left with an incomplete profile since they left it.
 */
export async function enterPrebids(tx: Tx, opts: { auctionId: string; present: BidPresenter }): Promise<PrebidsEntered> {
  const waiting = await tx
    .select()
    .from(prebids)
    .where(and(eq(prebids.auctionId, opts.auctionId), isNull(prebids.enteredAt)))
    .orderBy(asc(prebids.createdAt), asc(prebids.bidderId));
  if (waiting.length === 0) return { count: 0, events: [] };

  const [opened] = await tx.select({ endTime: auctions.endTime }).from(auctions).where(eq(auctions.id, opts.auctionId));
  let state = await engineState(tx, opts.auctionId);
  const lines: EngineLine[] = [];
  const decided: { bidderId: string; maxAmount: number; refusal: PrebidOutcome | null }[] = [];
  for (const prebid of waiting) {
    const amount = Math.min(nextMinimumBid(state), prebid.maxAmount);
    const request = [{ auctionId: opts.auctionId, bidderId: prebid.bidderId, amount, maxAmount: prebid.maxAmount, key: null }];
    const [answer] = await callPlaceBids(tx, request);
    if (!answer) throw new Error('bid engine returned no answer');
    if (answer.state) state = answer.state;
    if (answer.error) {
      decided.push({
        bidderId: prebid.bidderId,
        maxAmount: prebid.maxAmount,
        refusal: (answer.error === 'BUYER_STRUCK' ? 'BUYER_BLOCKED' : answer.error) as PrebidOutcome,
      });
      continue;
    }
    lines.push(...(answer.allLines ?? []));
    decided.push({ bidderId: prebid.bidderId, maxAmount: prebid.maxAmount, refusal: null });
  }

  // Pre-bids were left before the lot opened: they do not move the clock the seller just set, as a
  // bid in the closing seconds would.
  if (opened?.endTime && state.endTime !== opened.endTime.getTime()) {
    await tx.update(auctions).set({ endTime: opened.endTime }).where(eq(auctions.id, opts.auctionId));
    state = { ...state, endTime: opened.endTime.getTime() };
  }

  const outcomes = decided.map((d) => ({ ...d, outcome: d.refusal ?? (state.leaderId === d.bidderId ? 'leading' : 'outbid') }) as const);
  for (const d of outcomes) {
    await tx
      .update(prebids)
      .set({ enteredAt: sql`now()`, outcome: d.outcome })
      .where(and(eq(prebids.auctionId, opts.auctionId), eq(prebids.bidderId, d.bidderId)));
  }

  const show = await holdingShow(tx, opts.auctionId);
  const events: DomainEvent[] = [];
  // One event for the room: the opening state with every line the pre-bids wrote, as a bid publishes.
  if (lines.length > 0) events.push({ type: 'bidPlaced', state, lines, outbidUserId: null });
  for (const d of outcomes) {
    events.push({
      type: 'prebidResult',
      userId: d.bidderId,
      result: {
        auctionId: opts.auctionId,
        auctionName: state.name,
        sessionId: show?.sessionId ?? null,
        outcome: d.outcome,
        maxAmount: d.maxAmount,
        currentPrice: state.currentPrice,
      },
    });
  }
  return { count: outcomes.filter((d) => d.refusal === null).length, events };
}
