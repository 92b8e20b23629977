import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { BidHistory, BuyNowAnswer } from '../../../domain/bidding.js';
import { isUuid } from '../../../domain/ids.js';
import { recordAudit } from '../../audit.js';
import { answerEvents, type EngineAnswer, readEngineState } from '../../bidding/engine.js';
import { bidRefusal } from '../../bidding/place.js';
import { type Db, rows } from '../../db/connect.js';
import { bids } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Acting } from '../../http/request-context.js';
import { messages } from '../../messages.js';
import { refreshAuctionSearchText } from '../../reads/search-text.js';
import type { BidPresenter } from '../../realtime/bid-presenter.js';
import type { DomainEvent } from '../../realtime/publisher.js';

const notFound = () => new AppError('NOT_FOUND', messages.errors.notFound);

function engineAnswer(result: unknown): EngineAnswer {
  const [row] = rows<{ r: EngineAnswer }>(result);
  if (!row) throw new Error('bid engine returned no row');
  return row.r;
}

/** Buys at the buy-now price: the auction ends with the buyer as its winner (db/functions/buy-now.sql). */
export async function buyNow(
  db: Db,
  present: BidPresenter,
  opts: Acting<{ id: string }> & { auctionId: string; idempotencyKey: string | null },
): Promise<{ answer: BuyNowAnswer; events: DomainEvent[] }> {
  if (!isUuid(opts.auctionId)) throw notFound();
  const answer = await db.transaction(async (tx) => {
    const found = engineAnswer(await tx.execute(sql`select buy_now(${opts.auctionId}::uuid, ${opts.actor.id}::uuid, ${opts.idempotencyKey}::text) as r`));
    if (!found.error && !found.replayed) {
      // The winner's name is searchable in the admin table.
      await refreshAuctionSearchText(tx, { auctionIds: [opts.auctionId] });
      await recordAudit(tx, {
        by: opts,
        action: 'auction.buy_now',
        entityType: 'auction',
        entityId: opts.auctionId,
        after: { price: found.state?.currentPrice },
      });
    }
    return found;
  });
  if (answer.error || !answer.state) throw bidRefusal(answer, present);
  // Stamped now, after the commit (a grouped bid's own stamp is taken before its group commits).
  const state = { ...answer.state, serverNow: Date.now() };
  const [line] = answer.lines ?? [];
  if (!line) throw new Error('buy_now returned no line');
  return {
    answer: { bid: present.line(state.id, line), state: present.state(state), me: present.me(state, opts.actor.id) },
    events: answerEvents(answer, state, opts.actor.id),
  };
}

/** GET /api/auctions/{id}/bids: the public history (standing lines), newest first, a page at a time, with the state. */
export async function bidHistory(
  db: Db,
  present: BidPresenter,
  opts: { auctionId: string; viewerId: string | null; limit: number; before: number | null },
): Promise<BidHistory> {
  const state = await readEngineState(db, opts.auctionId);
  if (!state) throw notFound();
  const found = await db
    .select({
      seq: bids.seq,
      bidderId: bids.bidderId,
      bidderName: bids.bidderName,
      amount: bids.amount,
      isAutomatic: bids.isAutomatic,
      createdAt: bids.createdAt,
    })
    .from(bids)
    // Withdrawn lines (a blocked bidder's, and what answered them) are out of the history.
    .where(and(eq(bids.auctionId, state.id), isNull(bids.withdrawnAt), opts.before === null ? undefined : lt(bids.seq, opts.before)))
    .orderBy(desc(bids.seq))
    .limit(opts.limit);
  const items = found.map((b) => present.line(state.id, { ...b, createdAt: b.createdAt.getTime() }));
  const last = items[items.length - 1];
  return {
    items,
    total: state.bidCount,
    nextBefore: last && last.seq > 1 && items.length === opts.limit ? last.seq : null,
    state: present.state(state),
    me: opts.viewerId ? present.me(state, opts.viewerId) : null,
  };
}
