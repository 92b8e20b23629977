import { describe, expect, it } from 'vitest';
import { createSfuSupervisor, restartDelay } from '../../../../src/server/providers/video/sfu/supervisor.js';
import { until } from '../../../support/rtp-peers.js';

/**
 * How long the server waits before starting the SFU again: every show waits with it, so a child
 * that was serving comes back within 2 s however often it died (a crash loop driven by requests
 * once meant 30–40 s of refusals), while one that never starts (a broken install) is retried ever
 * more slowly.
 */

describe('the SFU restart delay', () => {
  it('doubles from 250 ms, up to 2 s after a crash while serving', () => {
    expect([0, 1, 2, 3, 4, 5, 10, 40].map((attempts) => restartDelay(attempts, true))).toEqual([250, 500, 1000, 2000, 2000, 2000, 2000, 2000]);
  });

  it('grows to 30 s while the child never comes up', () => {
    expect([0, 3, 6, 7, 8, 40].map((attempts) => restartDelay(attempts, false))).toEqual([250, 2000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('is what the supervisor waits after each crash of a real child', async () => {
    const delays: number[] = [];
    const sfu = createSfuSupervisor({
      config: { bindAddress: '127.0.0.1', publicIp: null, portRange: null, iceServers: [], rembBps: 1_500_000 },
      log: { info() {}, warn() {}, error: (obj) => delays.push((obj as { restartInMs?: number }).restartInMs ?? -1) },
      onEvent() {},
      onExit() {},
    });
    try {
      for (let crash = 0; crash < 5; crash++) {
        expect(await sfu.ready(30_000)).toBe(true);
        const pid = sfu.pid() as number;
        process.kill(pid, 'SIGKILL');
        await until(() => delays.length === crash + 1, 'the supervisor to notice', 30_000);
        // Wait for the restart (ready() answers false while it backs off).
        await until(() => sfu.pid() !== null && sfu.pid() !== pid, 'the restart', 30_000);
      }
      expect(delays).toEqual([250, 500, 1000, 2000, 2000]);
    } finally {
      await sfu.close();
    }
  }, 120_000);
});
