import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIP_MAX_MS, cutClip, type FfmpegTools, probe } from '../../../../../src/server/features/replays/media/index.js';
import { colourAt, ffmpeg, makeSegment, makeTempDir, nice, requireTools, topLevelBoxes } from './fixtures.js';

let tools: FfmpegTools;
let dir: string;
let cleanup: () => Promise<void>;
let redThenBlue: string; // 3 s red, then 3 s blue, one keyframe only (at 0), with a tone
let long: string; // 130 s, tiny, without sound

beforeAll(async () => {
  tools = await requireTools();
  ({ dir, cleanup } = await makeTempDir());
  redThenBlue = path.join(dir, 'red-then-blue.mp4');
  await Promise.all([
    ffmpeg(tools, [
      ...['-f', 'lavfi', '-i', 'color=c=red:s=320x180:r=30:d=3'],
      ...['-f', 'lavfi', '-i', 'color=c=blue:s=320x180:r=30:d=3'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=6'],
      ...['-filter_complex', '[0:v][1:v]concat=n=2:v=1:a=0[v]', '-map', '[v]', '-map', '2:a'],
      // No keyframe at the change of colour: a cut that copied the stream would start red.
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-x264-params', 'keyint=600:min-keyint=600:scenecut=0', '-c:a', 'aac'],
      redThenBlue,
    ]),
    makeSegment(tools, { file: path.join(dir, 'long.mp4'), kind: 'mp4', seconds: 130, size: '160x90', rate: 5, hasAudio: false }).then((file) => {
      long = file;
    }),
  ]);
});
afterAll(() => cleanup?.());

const isRed = ([r, g, b]: number[]) => (r ?? 0) > 150 && (g ?? 0) < 80 && (b ?? 0) < 80;
const isBlue = ([r, g, b]: number[]) => (b ?? 0) > 150 && (r ?? 0) < 80 && (g ?? 0) < 80;

describe("cutting a sold lot's clip from the replay", () => {
  it('starts on the exact frame asked for, even far from a keyframe, and lasts the span asked for', async () => {
    const output = path.join(dir, 'clip.mp4');
    const made = await cutClip(tools, { input: redThenBlue, output, startMs: 2500, endMs: 4500, nice });

    expect(made).toMatchObject({ startMs: 2500, endMs: 4500 });
    const info = await probe(tools, output);
    expect(info.video).toEqual({ codec: 'h264', width: 320, height: 180 });
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.durationMs - 2000)).toBeLessThan(1000);
    expect(Math.abs(made.durationMs - 2000)).toBeLessThan(1000);
    // The colour changes 3 s into the replay: 0.5 s into the clip.
    expect(isRed(await colourAt(tools, output, 0.3))).toBe(true);
    expect(isBlue(await colourAt(tools, output, 0.7))).toBe(true);

    const boxes = await topLevelBoxes(output);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect((await readdir(dir)).filter((name) => name.includes('.part'))).toEqual([]);
  });

  it(`keeps the last ${CLIP_MAX_MS / 60_000} minutes, up to the hammer, of a longer span`, async () => {
    expect(CLIP_MAX_MS).toBe(120_000);
    const output = path.join(dir, 'long-clip.mp4');
    const made = await cutClip(tools, { input: long, output, startMs: 0, endMs: 130_000, nice });

    expect(made).toMatchObject({ startMs: 10_000, endMs: 130_000 });
    const info = await probe(tools, output);
    expect(Math.abs(info.durationMs - CLIP_MAX_MS)).toBeLessThan(1000);
  });

  it("stops a span that runs past the replay's end at the end", async () => {
    const output = path.join(dir, 'tail.mp4');
    const made = await cutClip(tools, { input: redThenBlue, output, startMs: 5000, endMs: 9000, nice });
    expect(Math.abs(made.durationMs - 1000)).toBeLessThan(1000);
    expect(made.endMs).toBeLessThanOrEqual(6100);
  });

  it('refuses a span that ends before it starts, or starts after the replay, and writes nothing', async () => {
    const output = path.join(dir, 'refused.mp4');
    await expect(cutClip(tools, { input: redThenBlue, output, startMs: 2000, endMs: 2000 })).rejects.toThrow(/end after it starts/);
    await expect(cutClip(tools, { input: redThenBlue, output, startMs: 3000, endMs: 1000 })).rejects.toThrow(/end after it starts/);
    await expect(cutClip(tools, { input: redThenBlue, output, startMs: 60_000, endMs: 61_000 })).rejects.toThrow(/after the replay ends/);
    await expect(cutClip(tools, { input: '-ss', output, startMs: 0, endMs: 1000 })).rejects.toThrow(/may not start with '-'/);
    await expect(cutClip(tools, { input: redThenBlue, output: '', startMs: 0, endMs: 1000 })).rejects.toThrow(/empty path/);
    expect(await readdir(dir)).not.toContain('refused.mp4');
  });
});
