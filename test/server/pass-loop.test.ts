import { describe, expect, it } from 'vitest';
import { startPassLoop } from '../../src/server/pass-loop.js';
import { eventually } from '../support/wait.js';

/** The loop behind the background jobs (closing, auto-advance, expiry, reminders, viewer samples). */

/** The loop's log: only its errors, as lines. */
function captureLog() {
  const lines: { msg: string; err: unknown }[] = [];
  const log = {
    error(obj: { err: unknown }, msg: string) {
      lines.push({ msg, err: obj.err });
    },
  };
  return { log, lines };
}

describe('a pass loop', () => {
  it('runs the next pass after the delay the previous one answered', async () => {
    const { log } = captureLog();
    const answers = [0, 0, 60_000];
    let passes = 0;
    const loop = startPassLoop({ name: 'test', log, retryMs: 60_000, pass: async () => answers[passes++] ?? 60_000 });
    await eventually(() => passes === 3);
    await loop.stop();
    // The third pass asked for a minute's sleep: no fourth pass came before the stop.
    expect(passes).toBe(3);
  });

  it('logs a failed pass with its name and tries again after the retry delay', async () => {
    const { log, lines } = captureLog();
    let passes = 0;
    const loop = startPassLoop({
      name: 'payment expiry',
      log,
      retryMs: 1,
      pass: async () => {
        passes++;
        if (passes === 1) throw new Error('database away');
        return 60_000;
      },
    });
    await eventually(() => passes === 2);
    await loop.stop();
    expect(lines.map((l) => l.msg)).toEqual(['payment expiry pass failed']);
  });

  it('stop waits for the pass under way, which can see it is stopping, and logs nothing for it', async () => {
    const { log, lines } = captureLog();
    let release = () => {};
    let sawStop = false;
    let started = false;
    const loop = startPassLoop({
      name: 'test',
      log,
      retryMs: 1,
      pass: async (isStopped) => {
        started = true;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        sawStop = isStopped();
        throw new Error('interrupted by the stop');
      },
    });
    await eventually(() => started);
    let isStopDone = false;
    const stopping = loop.stop().then(() => {
      isStopDone = true;
    });
    await Promise.resolve();
    expect(isStopDone).toBe(false);
    release();
    await stopping;
    expect(sawStop).toBe(true);
    expect(lines).toEqual([]);
  });

  it('counts its passes and failed passes, and keeps the last error after a pass that succeeds', async () => {
    const { log } = captureLog();
    let passes = 0;
    const loop = startPassLoop({
      name: 'test',
      log,
      retryMs: 1,
      pass: async () => {
        passes++;
        if (passes === 1) throw new Error('database away');
        return passes === 2 ? 0 : 60_000;
      },
    });
    expect(loop.status()).toEqual({ runs: 0, failures: 0, lastRunAt: null, lastError: null });
    await eventually(() => loop.status().runs === 3);
    await loop.stop();
    const status = loop.status();
    expect(status).toMatchObject({ runs: 3, failures: 1, lastError: { message: 'database away' } });
    expect(status.lastRunAt?.getTime()).toBeGreaterThanOrEqual(status.lastError?.at.getTime() ?? Number.POSITIVE_INFINITY);
  });
});
