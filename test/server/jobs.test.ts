import { describe, expect, it } from 'vitest';
import { type Job, jobs, startJobs } from '../../src/server/jobs.js';
import { startPassLoop } from '../../src/server/pass-loop.js';
import { eventually } from '../support/wait.js';

/** The registry of what runs by itself (src/server/jobs.ts), started with jobs of the test's own. */

const quiet = { error() {} };

/** A job whose passes count themselves and run as `pass` says (each pass then sleeps a minute). */
function countingJob(name: string, pass: () => Promise<void> = async () => {}) {
  const seen = { passes: 0 };
  const job: Job<null> = {
    name,
    description: `${name}, for the test`,
    everyMs: 60_000,
    start: () =>
      startPassLoop({
        name,
        log: quiet,
        retryMs: 60_000,
        async pass() {
          seen.passes++;
          await pass();
          return 60_000;
        },
      }),
  };
  return { job, seen };
}

describe('the jobs registry', () => {
  it('names every job once, each with why it runs and how often', () => {
    expect(jobs.map((j) => j.name)).toEqual([
      'closing',
      'auto-advance',
      'rehearsal',
      'payment-expiry',
      'reminders',
      'push-sender',
      'viewer-sampler',
      'publisher-watch',
      'edge-feed',
      'show-alerts',
      'recorder',
      'replays',
      'replay-retention',
      'session-sweep',
      'live-keys-sweep',
    ]);
    for (const job of jobs) {
      expect(job.description.length, job.name).toBeGreaterThan(10);
      expect(job.everyMs, job.name).toBeGreaterThan(0);
    }
  });

  it('starts only the named jobs, and lists the others as not running', async () => {
    const a = countingJob('a');
    const b = countingJob('b');
    const handle = startJobs([a.job, b.job], ['b'], null);
    try {
      await eventually(() => b.seen.passes === 1);
      expect(a.seen.passes).toBe(0);
      const [first, second] = handle.status();
      expect(first).toMatchObject({ name: 'a', running: false, runs: 0, failures: 0, lastRunAt: null, lastError: null });
      expect(second).toMatchObject({ name: 'b', running: true, runs: 1, failures: 0, lastError: null });
      expect(second?.lastRunAt).toBeInstanceOf(Date);
    } finally {
      await handle.stop();
    }
  });

  it('starts every job with "all", and none with an empty list', async () => {
    const a = countingJob('a');
    const b = countingJob('b');
    const none = startJobs([a.job, b.job], [], null);
    expect(none.status().map((s) => s.running)).toEqual([false, false]);
    await none.stop();
    const all = startJobs([a.job, b.job], 'all', null);
    try {
      await eventually(() => a.seen.passes === 1 && b.seen.passes === 1);
      expect(all.status().map((s) => s.running)).toEqual([true, true]);
    } finally {
      await all.stop();
    }
  });

  it('refuses a name no job has', () => {
    const a = countingJob('a');
    expect(() => startJobs<null, string>([a.job], ['b'], null)).toThrow("No job is named 'b'");
  });

  it("records a failed pass's error and when it came, and counts it", async () => {
    const failing = countingJob('failing', async () => {
      throw new Error('database away');
    });
    const handle = startJobs([failing.job], 'all', null);
    try {
      await eventually(() => handle.status()[0]?.failures === 1);
      const [status] = handle.status();
      expect(status).toMatchObject({ name: 'failing', running: true, runs: 1, failures: 1, lastError: { message: 'database away' } });
      expect(status?.lastError?.at).toBeInstanceOf(Date);
    } finally {
      await handle.stop();
    }
  });

  it('stop waits for the pass under way, and then lists the job as not running', async () => {
    let release = () => {};
    let finished = false;
    const slow = countingJob('slow', async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      finished = true;
    });
    const handle = startJobs([slow.job], ['slow'], null);
    await eventually(() => slow.seen.passes === 1);
    let stopped = false;
    const stopping = handle.stop().then(() => {
      stopped = true;
    });
    // Let the stop run as far as it can: it must still be waiting for the pass.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
    expect(handle.status()[0]).toMatchObject({ name: 'slow', running: false, runs: 1 });
  });
});
