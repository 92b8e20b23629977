/**
 * A reference model of the bid rules, written from the rules in words and sharing no code
 * with the engine (src/server/db/functions/place-bids.sql). The property tests replay the same
 * operations through the real engine and through this model and compare them step by step.
 *
 * The rules, as eBay applies them:
 *  - The lowest bid accepted is the starting price while nobody has bid, then the price plus one
 *    increment. Anything lower is refused and changes nothing.
 *  - Every bidder has a private maximum: the one they typed, or the amount itself when they typed
 *    none (a maximum below the amount counts as the amount).
 *  - The leader bidding again (with an amount that reaches the minimum) only raises their maximum
 *    to the higher of the two; the price and the lead stay as they are.
 *  - Otherwise two maximums compete: the leader's and the newcomer's. The higher one wins; on equal
 *    maximums the earlier one, the leader, wins. The price becomes the loser's maximum plus one
 *    increment, never above the winner's maximum, and never below the amount the newcomer typed.
 *  - The very first bid leads at the amount typed.
 *  - A bidder who loses a contest has used up their maximum (the price has reached it), so only the
 *    leader's maximum ever matters later.
 */

export interface ModelAuction {
  startingPrice: number;
  minIncrement: number;
}

/** One bid request: who, the amount typed, and the optional maximum. */
export interface ModelOp {
  bidder: string;
  amount: number;
  max?: number | null;
}

export type ModelOutcome = 'leading' | 'outbid' | 'maxRaised';

/** What one operation did, and the auction after it. */
export type ModelStep =
  | { accepted: false; reason: 'tooLow'; minimum: number; leader: string | null; price: number | null }
  | { accepted: true; outcome: ModelOutcome; leader: string; price: number; leaderMax: number };

export class BiddingModel {
  leader: string | null = null;
  /** The leader's private maximum. */
  leaderMax: number | null = null;
  price: number | null = null;

  constructor(readonly auction: ModelAuction) {}

  /** The lowest amount a bid may have now. */
  minimum(): number {
    return this.price === null ? this.auction.startingPrice : this.price + this.auction.minIncrement;
  }

  bid(op: ModelOp): ModelStep {
    const minimum = this.minimum();
    if (op.amount < minimum) return { accepted: false, reason: 'tooLow', minimum, leader: this.leader, price: this.price };
    const myMax = Math.max(op.amount, op.max ?? op.amount);

    if (this.leader === null) {
      this.leader = op.bidder;
      this.leaderMax = myMax;
      this.price = op.amount;
      return this.accepted('leading');
    }

    if (this.leader === op.bidder) {
      this.leaderMax = Math.max(this.leaderMax ?? 0, myMax);
      return this.accepted('maxRaised');
    }

    // Two maximums compete; the earlier (the leader's) wins a tie.
    const incumbent = { bidder: this.leader, max: this.leaderMax ?? 0 };
    const newcomer = { bidder: op.bidder, max: myMax };
    const newcomerWins = newcomer.max > incumbent.max;
    const winner = newcomerWins ? newcomer : incumbent;
    const loser = newcomerWins ? incumbent : newcomer;
    const price = Math.max(op.amount, Math.min(winner.max, loser.max + this.auction.minIncrement));

    this.leader = winner.bidder;
    this.leaderMax = winner.max;
    this.price = price;
    return this.accepted(newcomerWins ? 'leading' : 'outbid');
  }

  private accepted(outcome: ModelOutcome): ModelStep {
    return { accepted: true, outcome, leader: this.leader as string, price: this.price as number, leaderMax: this.leaderMax as number };
  }
}

/** Replays a whole sequence on a fresh auction. */
export function replay(auction: ModelAuction, ops: readonly ModelOp[]): { steps: ModelStep[]; model: BiddingModel } {
  const model = new BiddingModel(auction);
  const steps = ops.map((op) => model.bid(op));
  return { steps, model };
}
