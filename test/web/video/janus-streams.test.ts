import { describe, expect, it } from 'vitest';
import { mediaFreshness, mountpointStreams, STALE_MEDIA_MS, streamingResult, videoStreamMids } from '../../../src/web/video/janus-streams';

/** The Streaming plugin's answer to `info` for an edge's mountpoint (Janus 1.1): sound 'a', picture 'v'. */
function infoAnswer(audioAge: number | undefined, videoAge: number | undefined) {
  return {
    streaming: 'info',
    info: {
      id: 4321,
      name: 'show',
      enabled: true,
      type: 'live',
      viewers: 3,
      media: [
        { mid: 'a', mindex: 0, type: 'audio', label: 'audio', pt: 111, codec: 'opus', ...(audioAge === undefined ? {} : { age_ms: audioAge }) },
        { mid: 'v', mindex: 1, type: 'video', label: 'video', pt: 96, codec: 'vp8', ...(videoAge === undefined ? {} : { age_ms: videoAge }) },
      ],
    },
  };
}

describe("a viewer on a Janus edge's mountpoint", () => {
  it("reads the mountpoint's streams and how long ago the edge received each", () => {
    expect(mountpointStreams(infoAnswer(12, 40))).toEqual([
      { mid: 'a', type: 'audio', ageMs: 12 },
      { mid: 'v', type: 'video', ageMs: 40 },
    ]);
    expect(mountpointStreams(infoAnswer(undefined, -5)).map((s) => s.ageMs)).toEqual([null, null]);
    expect(mountpointStreams({ streaming: 'info', info: { media: [null, { mid: 7, type: 'video' }, { type: 'audio' }] } })).toEqual([]);
    expect(mountpointStreams({ streaming: 'event', error_code: 455, error: 'No such mountpoint/stream 4321' })).toEqual([]);
    expect(mountpointStreams(null)).toEqual([]);
  });

  it('plays while the seller sends and waits once nothing reached the edge for a while', () => {
    expect(mediaFreshness(mountpointStreams(infoAnswer(20, 35)), false)).toBe('live');
    expect(mediaFreshness(mountpointStreams(infoAnswer(STALE_MEDIA_MS, STALE_MEDIA_MS)), false)).toBe('live');
    expect(mediaFreshness(mountpointStreams(infoAnswer(STALE_MEDIA_MS + 1, 60_000)), false)).toBe('stale');
    // Heard but not seen (the camera stalled): the sound still plays.
    expect(mediaFreshness(mountpointStreams(infoAnswer(20, 60_000)), false)).toBe('live');
  });

  it("judges 'Ahorro de datos' by the sound alone", () => {
    expect(mediaFreshness(mountpointStreams(infoAnswer(60_000, 20)), true)).toBe('stale');
    expect(mediaFreshness(mountpointStreams(infoAnswer(20, 60_000)), true)).toBe('live');
  });

  it('leaves the decision to the tracks when Janus gives no age', () => {
    expect(mediaFreshness(mountpointStreams(infoAnswer(undefined, undefined)), false)).toBeNull();
    expect(mediaFreshness([{ mid: 'd', type: 'data', ageMs: 60_000 }], false)).toBeNull();
    expect(mediaFreshness([], true)).toBeNull();
  });

  it("turns off exactly the mountpoint's picture for 'Ahorro de datos'", () => {
    expect(videoStreamMids(mountpointStreams(infoAnswer(20, 35)))).toEqual(['v']);
  });

  it("reads the Streaming plugin's events", () => {
    expect(streamingResult({ streaming: 'event', result: { status: 'preparing' } })).toEqual({ status: 'preparing', event: null });
    expect(streamingResult({ streaming: 'event', result: { event: 'configured' } })).toEqual({ status: null, event: 'configured' });
    expect(streamingResult({ streaming: 'event', error_code: 455, error: 'No such mountpoint' })).toEqual({ status: null, event: null });
    expect(streamingResult(undefined)).toEqual({ status: null, event: null });
  });
});
