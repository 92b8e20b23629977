import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSyntheticMedia, type SyntheticMedia, vp8RtpPayloads } from '../../../support/synthetic-media.js';

const run = promisify(execFile);

let media: SyntheticMedia;
let dir: string;

beforeAll(async () => {
  media = await makeSyntheticMedia({ seconds: 2, width: 160, height: 120, keyframeEvery: 25 });
  dir = await mkdtemp(path.join(tmpdir(), 'synthetic-media-test-'));
});
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

/** An IVF file of `frames` (VP8, 25 fps), as ffmpeg writes one: what the synthetic publisher sends, put back into a container. */
function ivf(frames: Buffer[], width: number, height: number): Buffer {
  const header = Buffer.alloc(32);
  header.write('DKIF', 0, 'latin1');
  header.writeUInt16LE(0, 4);
  header.writeUInt16LE(32, 6);
  header.write('VP80', 8, 'latin1');
  header.writeUInt16LE(width, 12);
  header.writeUInt16LE(height, 14);
  header.writeUInt32LE(25, 16);
  header.writeUInt32LE(1, 20);
  header.writeUInt32LE(frames.length, 24);
  const parts: Buffer[] = [header];
  frames.forEach((frame, pts) => {
    const frameHeader = Buffer.alloc(12);
    frameHeader.writeUInt32LE(frame.length, 0);
    frameHeader.writeBigUInt64LE(BigInt(pts), 4);
    parts.push(frameHeader, frame);
  });
  return Buffer.concat(parts);
}

describe('real media for the synthetic publisher', () => {
  it('has 25 VP8 frames a second with a keyframe where asked, and 50 Opus packets a second', () => {
    expect(media.width).toBe(160);
    expect(media.height).toBe(120);
    expect(media.video).toHaveLength(50);
    expect(media.video[0]?.keyframe).toBe(true);
    expect(media.video[1]?.keyframe).toBe(false);
    expect(media.video[25]?.keyframe).toBe(true);
    // The encoder's delay (pre-skip) can add a packet at the end.
    expect(Math.abs(media.audio.length - 100)).toBeLessThanOrEqual(2);
    // No header packet among the sound: OpusHead and OpusTags are 8-byte magic strings.
    expect(media.audio.some((packet) => packet.toString('latin1', 0, 4) === 'Opus')).toBe(false);
  });

  it('encodes once for the same options', async () => {
    expect(await makeSyntheticMedia({ seconds: 2, width: 160, height: 120, keyframeEvery: 25 })).toBe(media);
  });

  it('splits a VP8 frame into RTP payloads, the first marked as the start of the frame', () => {
    const frame = Buffer.from(Array.from({ length: 2500 }, (_, i) => i % 251));
    const payloads = vp8RtpPayloads(frame);
    expect(payloads.map((payload) => payload[0])).toEqual([0x10, 0x00, 0x00]);
    expect(payloads.every((payload) => payload.length <= 1100)).toBe(true);
    expect(Buffer.concat(payloads.map((payload) => payload.subarray(1))).equals(frame)).toBe(true);
  });

  it('decodes: its frames put back into IVF are a 160x120 video of 50 frames', async () => {
    const file = path.join(dir, 'frames.ivf');
    await writeFile(
      file,
      ivf(
        media.video.map((frame) => frame.data),
        media.width,
        media.height,
      ),
    );
    const { stdout } = await run('ffprobe', ['-v', 'error', '-count_frames', '-show_entries', 'stream=nb_read_frames,width,height', '-of', 'json', file], {
      timeout: 60_000,
    });
    const [stream] = (JSON.parse(stdout) as { streams: { width: number; height: number; nb_read_frames: string }[] }).streams;
    expect(stream).toEqual({ width: 160, height: 120, nb_read_frames: '50' });
  });
});
