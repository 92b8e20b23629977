import { setTimeout } from 'node:timers/promises';

/**
 * The database's time for bulk background work: the go-live fan-out's batches and the push
 * sender's claims and outcomes, thousands of rows a second when a show with a large audience goes
 * live. That show's bids must not queue behind them, so bulk work goes through one pacer per
 * instance:
 * - one step at a time (the fan-out and the sender never write at once);
 * - after each step a rest, so that bulk work has at most `share` of the database's time (a third).
 *
 * Measured by bench:go-live: back to back, the fan-out's steps kept the database's core busy for a
 * second, and the bids in that second took twice as long (p50). Paced, their p50 does not move, and
 * 10,000 followers take about 3 s more to reach, well within the alert's half-minute. (A bid that
 * arrives during a step still waits for part of it: see bench/README.md.) Requests (a bid, a page)
 * are never paced.
 */
export interface BulkPacer {
  /** Runs `step` when the pacer allows, and counts its time. */
  run<T>(step: () => Promise<T>): Promise<T>;
}

/** The default share of the database's time bulk work may take. */
export const BULK_SHARE = 1 / 3;

/** The pacer's clock (a test's own, to run it without waiting). */
export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

export const realClock: PacerClock = { now: () => performance.now(), sleep: (ms) => setTimeout(ms) };

export function createBulkPacer(opts: { share?: number; clock?: PacerClock } = {}): BulkPacer {
  const share = opts.share ?? BULK_SHARE;
  const clock = opts.clock ?? realClock;
  if (!(share > 0 && share <= 1)) throw new Error(`share must be in (0, 1], not ${share}`);
  let turn: Promise<unknown> = Promise.resolve();
  let restUntil = 0;
  return {
    run(step) {
      const mine = turn.then(async () => {
        const rest = restUntil - clock.now();
        if (rest > 0) await clock.sleep(rest);
        const began = clock.now();
        try {
          return await step();
        } finally {
          const ended = clock.now();
          restUntil = ended + (ended - began) * (1 / share - 1);
        }
      });
      // The next step waits for this one, whether it failed or not.
      turn = mine.catch(() => {});
      return mine;
    },
  };
}

/** No pacing: each step at once (tests that drive a job's passes by hand). */
export const unpaced: BulkPacer = { run: (step) => step() };
