import fc from 'fast-check';

/**
 * A reference model of the bid rules, written from the rules in words and sharing no code
 * with the engine (src/server/db/functions/place-bids.sql). The property tests replay the same
 * operations through the real engine and through this model and compare them step by step.
 *
 * The rules, as eBay applies them:
 *  - The increment at an amount: with a band table, the increment of the last band (ascending by
 *    `from`) whose `from` is not above the amount, the first band's below all of them; without
 *    one, the flat increment. Every "plus one increment" below is the increment at the amount
 *    being raised from.
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
 *
 * The clock (when the model is given the time of each bid): a bid at or after the end is refused
 * as late and changes nothing. Only a bid that takes the lead moves the end, by the format:
 *  - extend: with W seconds or fewer left (W above 0), the end becomes the bid's time plus W;
 *  - counterBid: with fewer than W seconds left, the end becomes the bid's time plus R, unless it
 *    already was later;
 *  - suddenDeath: never.
 *
 * Withdrawing a bidder's bids (their company blocked them): the auction becomes what the others'
 * accepted bids make of it, replayed in their order by the rules above as if the withdrawn bidder
 * had never bid (bids refused the first time are not replayed: they were never placed). The clock
 * does not move. Their later bids, if any, count as anyone's.
 */

export type ModelTimerMode = 'extend' | 'counterBid' | 'suddenDeath';

/** The timer format in force: W (`window`) and R (`reset`) in seconds. */
export interface ModelTimer {
  mode: ModelTimerMode;
  window: number;
  reset: number;
}

export interface ModelBand {
  from: number;
  increment: number;
}

/** The increment at an amount, by the rule above. */
export function modelIncrement(amount: number, flat: number, bands: readonly ModelBand[] | null | undefined): number {
  if (!bands || bands.length === 0) return flat;
  const below = bands.filter((band) => band.from <= amount);
  return (below.length > 0 ? below[below.length - 1] : bands[0])?.increment ?? flat;
}

/** Where the end stands after a bid that takes the lead at `now` (epoch ms), by the format. */
export function modelEndAfterLead(timer: ModelTimer, endTime: number, now: number): number {
  const left = endTime - now;
  switch (timer.mode) {
    case 'suddenDeath':
      return endTime;
    case 'counterBid':
      return left < timer.window * 1000 ? Math.max(endTime, now + timer.reset * 1000) : endTime;
    case 'extend':
      return timer.window > 0 && left <= timer.window * 1000 ? now + timer.window * 1000 : endTime;
  }
}

export interface ModelAuction {
  startingPrice: number;
  minIncrement: number;
  incrementBands?: readonly ModelBand[] | null;
  /** The format in force; the clock is modelled only for bids given a time, and only with an end. */
  timer?: ModelTimer;
  /** epoch ms */
  endTime?: number;
}

/** One bid request: who, the amount typed, and the optional maximum. */
export interface ModelOp {
  bidder: string;
  amount: number;
  max?: number | null;
  /** When the bid reaches the server (epoch ms); without it the clock is left out. */
  at?: number;
}

export type ModelOutcome = 'leading' | 'outbid' | 'maxRaised';

/** What one operation did, and the auction after it. */
export type ModelStep =
  | { accepted: false; reason: 'tooLow' | 'late'; minimum: number; leader: string | null; price: number | null; endTime: number | null }
  | { accepted: true; outcome: ModelOutcome; leader: string; price: number; leaderMax: number; endTime: number | null };

export class BiddingModel {
  leader: string | null = null;
  /** The leader's private maximum. */
  leaderMax: number | null = null;
  price: number | null = null;
  endTime: number | null;

  /** The bids accepted so far, in order (a raised maximum included): what a withdrawal replays. */
  private accepted: ModelOp[] = [];

  constructor(readonly auction: ModelAuction) {
    this.endTime = auction.endTime ?? null;
  }

  /** Withdraws every bid `bidder` placed so far: the others' are replayed without them, by the same rules. */
  withdraw(bidder: string): void {
    const replayed = new BiddingModel({ ...this.auction, endTime: undefined });
    for (const op of this.accepted) if (op.bidder !== bidder) replayed.bid({ bidder: op.bidder, amount: op.amount, max: op.max ?? null });
    this.leader = replayed.leader;
    this.leaderMax = replayed.leaderMax;
    this.price = replayed.price;
    this.accepted = replayed.accepted;
  }

  /** The increment at an amount. */
  incrementAt(amount: number): number {
    return modelIncrement(amount, this.auction.minIncrement, this.auction.incrementBands);
  }

  /** The lowest amount a bid may have now. */
  minimum(): number {
    return this.price === null ? this.auction.startingPrice : this.price + this.incrementAt(this.price);
  }

  bid(op: ModelOp): ModelStep {
    const minimum = this.minimum();
    const refused = { accepted: false as const, minimum, leader: this.leader, price: this.price, endTime: this.endTime };
    if (op.at !== undefined && this.endTime !== null && op.at >= this.endTime) return { ...refused, reason: 'late' };
    if (op.amount < minimum) return { ...refused, reason: 'tooLow' };
    const myMax = Math.max(op.amount, op.max ?? op.amount);
    this.accepted.push(op);

    if (this.leader === null) {
      this.leader = op.bidder;
      this.leaderMax = myMax;
      this.price = op.amount;
      this.leadTaken(op);
      return this.acceptedStep('leading');
    }

    if (this.leader === op.bidder) {
      this.leaderMax = Math.max(this.leaderMax ?? 0, myMax);
      return this.acceptedStep('maxRaised');
    }

    // Two maximums compete; the earlier (the leader's) wins a tie.
    const incumbent = { bidder: this.leader, max: this.leaderMax ?? 0 };
    const newcomer = { bidder: op.bidder, max: myMax };
    const newcomerWins = newcomer.max > incumbent.max;
    const winner = newcomerWins ? newcomer : incumbent;
    const loser = newcomerWins ? incumbent : newcomer;
    const price = Math.max(op.amount, Math.min(winner.max, loser.max + this.incrementAt(loser.max)));

    this.leader = winner.bidder;
    this.leaderMax = winner.max;
    this.price = price;
    if (newcomerWins) this.leadTaken(op);
    return this.acceptedStep(newcomerWins ? 'leading' : 'outbid');
  }

  /** A bid took the lead: the clock answers by the format, when the model keeps one. */
  private leadTaken(op: ModelOp) {
    if (op.at !== undefined && this.endTime !== null && this.auction.timer) this.endTime = modelEndAfterLead(this.auction.timer, this.endTime, op.at);
  }

  private acceptedStep(outcome: ModelOutcome): ModelStep {
    return {
      accepted: true,
      outcome,
      leader: this.leader as string,
      price: this.price as number,
      leaderMax: this.leaderMax as number,
      endTime: this.endTime,
    };
  }
}

/** Replays a whole sequence on a fresh auction. */
export function replay(auction: ModelAuction, ops: readonly ModelOp[]): { steps: ModelStep[]; model: BiddingModel } {
  const model = new BiddingModel(auction);
  const steps = ops.map((op) => model.bid(op));
  return { steps, model };
}

/** A band table as a seller may save it: ascending, the first `from` 0. */
export const bandTables: fc.Arbitrary<ModelBand[]> = fc
  .uniqueArray(fc.integer({ min: 1, max: 20_000 }), { maxLength: 6 })
  .chain((edges) =>
    fc
      .array(fc.integer({ min: 1, max: 500 }), { minLength: edges.length + 1, maxLength: edges.length + 1 })
      .map((increments) => [0, ...[...edges].sort((a, b) => a - b)].map((from, i) => ({ from, increment: increments[i] as number }))),
  );
