import { describe, expect, it } from 'vitest';
import { SERVABLE_KEY, VIDEO_KEY } from '../../../../src/server/providers/storage/types.js';

describe('the shape of video keys', () => {
  it("accepts replays' videos and posters and buyers' clips", () => {
    for (const key of ['replays/0f8e2c1a-6b1d-4c55-9a0e-2b6f0d1e3c4a/replay.mp4', 'replays/0f8e2c1a-6b1d/poster.jpg', 'clips/0f8e2c1a_6b1d.mp4']) {
      expect(VIDEO_KEY.test(key), key).toBe(true);
    }
  });

  it('refuses escapes, other extensions and a second dot', () => {
    for (const key of [
      '../replay.mp4',
      '/replays/x/replay.mp4',
      'replays//replay.mp4',
      'replays\\x\\replay.mp4',
      'replays/x/replay.mp4.exe',
      'replays/x/replay.tar.mp4',
      'replays/x/replay.mov',
      'replays/x/replay.MP4',
      'replays/x/.mp4',
      'replays/x/',
      'replays/x/replay.mp4\n',
    ]) {
      expect(VIDEO_KEY.test(key), key).toBe(false);
    }
  });

  it('leaves the public image keys as they were: a video is not one, nor a replay’s poster', () => {
    expect(SERVABLE_KEY.test('clips/0f8e2c1a.mp4')).toBe(false);
    expect(SERVABLE_KEY.test('replays/0f8e2c1a-6b1d/poster.jpg')).toBe(false);
    expect(SERVABLE_KEY.test('clips/0f8e2c1a.jpg')).toBe(false);
    expect(SERVABLE_KEY.test('images/2026/11/0f8e2c1a-thumb.jpg')).toBe(true);
  });
});
