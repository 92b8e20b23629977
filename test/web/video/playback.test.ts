import { describe, expect, it } from 'vitest';
import { playWithSound } from '../../../src/web/video/playback';

/**
 * A player whose browser allows sound or not (`soundAllowed`), as a phone does for a stream that
 * starts without a fresh tap; `abort` makes the next play() interrupted by a newer load.
 */
function player(opts: { soundAllowed: boolean; mutedAllowed?: boolean; abort?: boolean }) {
  const calls: boolean[] = [];
  const p = {
    muted: false,
    paused: true,
    calls,
    play(): Promise<void> {
      calls.push(p.muted);
      if (opts.abort) return Promise.reject(new DOMException('interrupted by a new load request', 'AbortError'));
      const allowed = p.muted ? (opts.mutedAllowed ?? true) : opts.soundAllowed;
      if (!allowed) return Promise.reject(new DOMException('play() needs a tap', 'NotAllowedError'));
      p.paused = false;
      return Promise.resolve();
    },
  };
  return p;
}

describe('playing the viewer with the sound the buyer chose', () => {
  it('plays with sound when the browser allows it', async () => {
    const p = player({ soundAllowed: true });
    expect(await playWithSound(p, true)).toBe('playing');
    expect(p).toMatchObject({ muted: false, paused: false, calls: [false] });
  });

  it('plays muted when the buyer has not turned the sound on', async () => {
    const p = player({ soundAllowed: false });
    expect(await playWithSound(p, false)).toBe('playing');
    expect(p).toMatchObject({ muted: true, paused: false, calls: [true] });
  });

  it('falls back to muted, still playing, when the browser refuses sound without a tap', async () => {
    const p = player({ soundAllowed: false });
    expect(await playWithSound(p, true)).toBe('muted');
    expect(p).toMatchObject({ muted: true, paused: false, calls: [false, true] });
  });

  it('changes nothing when a newer stream interrupted the play', async () => {
    const p = player({ soundAllowed: true, abort: true });
    expect(await playWithSound(p, true)).toBe('interrupted');
    expect(p).toMatchObject({ muted: false, calls: [false] });
  });

  it('says so when the browser will not play even muted', async () => {
    expect(await playWithSound(player({ soundAllowed: false, mutedAllowed: false }), true)).toBe('failed');
    expect(await playWithSound(player({ soundAllowed: false, mutedAllowed: false }), false)).toBe('failed');
  });
});
