import { describe, expect, it } from 'vitest';
import { createBulkPacer, type PacerClock } from '../../src/server/bulk-pacer.js';

/**
 * The bulk pacer: bulk background steps (the go-live fan-out, the push sender) one at a time, each
 * followed by a rest that keeps their share of the database's time. Driven by a clock of its own,
 * so nothing here waits or depends on the machine's speed.
 */

/** A clock that moves only when told: a step "takes" time by advancing it, a sleep advances it too. */
function manualClock() {
  let now = 0;
  const slept: number[] = [];
  const clock: PacerClock = {
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
  return { clock, slept, advance: (ms: number) => (now += ms), at: () => now };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('the bulk pacer', () => {
  it('runs one step at a time, in the order they came', async () => {
    const pacer = createBulkPacer({ clock: manualClock().clock });
    const events: string[] = [];
    const first = deferred();
    const a = pacer.run(async () => {
      events.push('a starts');
      await first.promise;
      events.push('a ends');
      return 'a';
    });
    const b = pacer.run(async () => {
      events.push('b starts');
      return 'b';
    });
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(['a starts']);
    first.resolve();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(events).toEqual(['a starts', 'a ends', 'b starts']);
  });

  it('rests after a step twice as long as it took, so bulk work has a third of the time', async () => {
    const time = manualClock();
    const pacer = createBulkPacer({ clock: time.clock });
    await pacer.run(async () => time.advance(30));
    await pacer.run(async () => time.advance(10));
    expect(time.slept).toEqual([60]);
    // The next step after that one rests 20 ms: the rest follows each step's own length.
    await pacer.run(async () => {});
    expect(time.slept).toEqual([60, 20]);
  });

  it('does not rest when the step comes after its rest is over', async () => {
    const time = manualClock();
    const pacer = createBulkPacer({ clock: time.clock });
    await pacer.run(async () => time.advance(30));
    time.advance(500);
    await pacer.run(async () => {});
    expect(time.slept).toEqual([]);
  });

  it('takes another share when told: a half rests as long as the step took', async () => {
    const time = manualClock();
    const pacer = createBulkPacer({ clock: time.clock, share: 0.5 });
    await pacer.run(async () => time.advance(40));
    await pacer.run(async () => {});
    expect(time.slept).toEqual([40]);
  });

  it("gives a failed step's error to its caller, counts its time, and runs the next step", async () => {
    const time = manualClock();
    const pacer = createBulkPacer({ clock: time.clock });
    const failed = pacer.run(async () => {
      time.advance(15);
      throw new Error('the database went away');
    });
    const next = pacer.run(async () => 'ran');
    await expect(failed).rejects.toThrow('the database went away');
    expect(await next).toBe('ran');
    expect(time.slept).toEqual([30]);
  });

  it('refuses a share that is not a part of the time', () => {
    expect(() => createBulkPacer({ share: 0 })).toThrow(/share/);
    expect(() => createBulkPacer({ share: 1.5 })).toThrow(/share/);
    expect(() => createBulkPacer({ share: Number.NaN })).toThrow(/share/);
  });
});
