import { describe, expect, it } from 'vitest';
import { GopCache } from '../../../../src/server/providers/video/sfu/gop.js';

/** The embedded SFU's cache of the seller's video since its last keyframe (sfu/gop.ts). */

const packet = (seq: number, size = 100) => {
  const p = Buffer.alloc(size);
  p.writeUInt16BE(seq, 2);
  return p;
};
const seqs = (packets: readonly Buffer[] | null) => packets?.map((p) => p.readUInt16BE(2)) ?? null;

describe('the group of pictures the SFU replays to a new viewer', () => {
  it('holds nothing until a keyframe, then every packet since the newest keyframe, in order', () => {
    const gop = new GopCache({ maxAgeMs: 1000, maxBytes: 10_000 });
    gop.push(packet(1), false, 0);
    expect(gop.replay(0)).toBeNull();
    gop.push(packet(2), true, 10);
    gop.push(packet(3), false, 20);
    gop.push(packet(4), false, 30);
    expect(seqs(gop.replay(40))).toEqual([2, 3, 4]);
    gop.push(packet(5), true, 50);
    gop.push(packet(6), false, 60);
    expect(seqs(gop.replay(70))).toEqual([5, 6]);
  });

  it('keeps a copy: the forwarded buffer may be rewritten afterwards', () => {
    const gop = new GopCache({ maxAgeMs: 1000, maxBytes: 10_000 });
    const p = packet(7);
    gop.push(p, true, 0);
    p.writeUInt16BE(99, 2);
    expect(seqs(gop.replay(1))).toEqual([7]);
  });

  it('is not replayed once its keyframe is older than the limit', () => {
    const gop = new GopCache({ maxAgeMs: 1000, maxBytes: 10_000 });
    gop.push(packet(1), true, 0);
    gop.push(packet(2), false, 900);
    expect(seqs(gop.replay(1000))).toEqual([1, 2]);
    expect(gop.replay(1001)).toBeNull();
  });

  it('is dropped past its size limit, until the next keyframe', () => {
    const gop = new GopCache({ maxAgeMs: 1000, maxBytes: 250 });
    gop.push(packet(1), true, 0);
    gop.push(packet(2), false, 1);
    expect(seqs(gop.replay(2))).toEqual([1, 2]);
    gop.push(packet(3), false, 2);
    expect(gop.replay(3)).toBeNull();
    // Half a group would not decode: later deltas are not kept either.
    gop.push(packet(4), false, 3);
    expect(gop.replay(4)).toBeNull();
    gop.push(packet(5), true, 4);
    expect(seqs(gop.replay(5))).toEqual([5]);
  });

  it('forgets everything on clear (a new publisher)', () => {
    const gop = new GopCache({ maxAgeMs: 1000, maxBytes: 10_000 });
    gop.push(packet(1), true, 0);
    gop.clear();
    expect(gop.replay(1)).toBeNull();
  });
});
