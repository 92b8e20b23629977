import type { Db } from '../db/connect.js';
import { pgErrorCode } from '../db/errors.js';
import { type BidRequest, callPlaceBid, callPlaceBids, type EngineAnswer } from './engine.js';

/**
 * Bids decided per group at most; a longer queue waits for the next group. It bounds how long one
 * transaction holds the auction row, and so how long the first bid of a group waits for its answer.
 */
const MAX_GROUP = 50;

/**
 * Group commit for bids. Bids on one auction are decided one at a time anyway (the row lock), so
 * while a group is being decided the next bids on that auction wait here, in arrival order, and
 * go to the database together as one `place_bids` call: one round trip and one commit for the
 * group, each bid still decided exactly as alone (place-bids.sql). A quiet auction's bid goes alone,
 * one turn of the event loop after it arrives.
 *
 * If the group's statement fails inside PostgreSQL (it was rolled back, nothing was written), each
 * bid is retried alone so one bad bid cannot fail its neighbours. A lost connection fails the
 * group's requests without a retry: the commit may have happened.
 */
export function createBidBatcher(db: Db) {
  const queues = new Map<string, { request: BidRequest; resolve: (answer: EngineAnswer | undefined) => void; reject: (err: unknown) => void }[]>();
  const placeOne = (request: BidRequest) => callPlaceBid(db, request);

  async function drain(auctionId: string): Promise<void> {
    const queue = queues.get(auctionId);
    while (queue && queue.length > 0) {
      const group = queue.splice(0, MAX_GROUP);
      try {
        if (group.length === 1) {
          const [only] = group;
          only?.resolve(await placeOne(only.request));
          continue;
        }
        const answers = await callPlaceBids(
          db,
          group.map((g) => g.request),
        );
        for (const [i, g] of group.entries()) g.resolve(answers[i]);
      } catch (err) {
        if (group.length > 1 && pgErrorCode(err)) {
          for (const g of group) await placeOne(g.request).then(g.resolve, g.reject);
        } else {
          for (const g of group) g.reject(err);
        }
      }
    }
    queues.delete(auctionId);
  }

  return {
    /** Resolves with place_bid's answer for this bid. */
    place(request: BidRequest): Promise<EngineAnswer | undefined> {
      return new Promise((resolve, reject) => {
        const queue = queues.get(request.auctionId);
        if (queue) {
          queue.push({ request, resolve, reject });
          return;
        }
        queues.set(request.auctionId, [{ request, resolve, reject }]);
        // After the requests read from the network in the same turn of the event loop: they join
        // this first group rather than wait for it.
        setImmediate(() => void drain(request.auctionId));
      });
    },
  };
}
export type BidBatcher = ReturnType<typeof createBidBatcher>;
