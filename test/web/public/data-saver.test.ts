import { describe, expect, it } from 'vitest';
import { DATA_SAVER_STORAGE_KEY, readDataSaver, writeDataSaver } from '../../../src/web/public/live/data-saver';
import { videoStreamMids } from '../../../src/web/video/janus-streams';

/** A Storage with a Map behind it; `broken` throws as Safari's private mode and a full quota do. */
function storage(broken = false) {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => {
      if (broken) throw new Error('SecurityError');
      return map.get(key) ?? null;
    },
    setItem: (key: string, value: string) => {
      if (broken) throw new Error('QuotaExceededError');
      map.set(key, value);
    },
    removeItem: (key: string) => {
      if (broken) throw new Error('SecurityError');
      map.delete(key);
    },
  };
}

describe('Ahorro de datos', () => {
  it('remembers the choice on the device, and forgets it when turned off', () => {
    const s = storage();
    expect(readDataSaver(s)).toBe(false);
    writeDataSaver(s, true);
    expect(s.map.get(DATA_SAVER_STORAGE_KEY)).toBe('on');
    expect(readDataSaver(s)).toBe(true);
    writeDataSaver(s, false);
    expect(s.map.has(DATA_SAVER_STORAGE_KEY)).toBe(false);
    expect(readDataSaver(s)).toBe(false);
  });

  it('starts with the video on when storage is blocked, and never throws', () => {
    const s = storage(true);
    expect(readDataSaver(s)).toBe(false);
    expect(() => writeDataSaver(s, true)).not.toThrow();
    expect(readDataSaver(null)).toBe(false);
  });

  it('stops exactly the video streams of a Janus subscription', () => {
    const streams = [
      { type: 'audio', mid: '0', feed_id: 1 },
      { type: 'video', mid: '1', feed_id: 1 },
      { type: 'data', mid: '2' },
      { type: 'video', mid: 3 },
      null,
    ];
    expect(videoStreamMids(streams)).toEqual(['1']);
    expect(videoStreamMids(undefined)).toEqual([]);
    expect(videoStreamMids('nope')).toEqual([]);
  });
});
