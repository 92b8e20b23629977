import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FfmpegTools, makePoster, POSTER_MAX_WIDTH, probe } from '../../../../../src/server/features/replays/media/index.js';
import { ffmpeg, makeSegment, makeTempDir, nice, requireTools } from './fixtures.js';

let tools: FfmpegTools;
let dir: string;
let cleanup: () => Promise<void>;
let wide: string; // 1920x1080
let small: string; // 640x360

beforeAll(async () => {
  tools = await requireTools();
  ({ dir, cleanup } = await makeTempDir());
  [wide, small] = await Promise.all([
    makeSegment(tools, { file: path.join(dir, 'wide.mp4'), kind: 'mp4', seconds: 2, size: '1920x1080', rate: 5, hasAudio: false }),
    makeSegment(tools, { file: path.join(dir, 'small.mp4'), kind: 'mp4', seconds: 2, size: '640x360', rate: 10, hasAudio: false }),
  ]);
});
afterAll(() => cleanup?.());

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

describe("making a replay's poster", () => {
  it(`writes one JPEG frame scaled down to ${POSTER_MAX_WIDTH} wide`, async () => {
    const output = path.join(dir, 'poster.jpg');
    await makePoster(tools, { input: wide, output, atMs: 1000, nice });
    expect((await readFile(output)).subarray(0, 3)).toEqual(JPEG_MAGIC);
    expect((await probe(tools, output)).video).toEqual({ codec: 'mjpeg', width: 1280, height: 720 });
    expect((await readdir(dir)).filter((name) => name.includes('.part'))).toEqual([]);
  });

  it('keeps a smaller frame at its own size', async () => {
    const output = path.join(dir, 'small.jpg');
    await makePoster(tools, { input: small, output, atMs: 500, nice });
    expect((await probe(tools, output)).video).toEqual({ codec: 'mjpeg', width: 640, height: 360 });
  });

  it('takes the middle frame when asked for a time past the end', async () => {
    const output = path.join(dir, 'late.jpg');
    await makePoster(tools, { input: small, output, atMs: 60_000, nice });
    expect((await readFile(output)).subarray(0, 3)).toEqual(JPEG_MAGIC);
  });

  it('takes an earlier frame when the time asked for is after the last picture (the sound runs on)', async () => {
    // One second of pictures in three seconds of sound: 2.5 s and the middle are inside the file, past its last frame.
    const input = path.join(dir, 'sound-runs-on.mp4');
    await ffmpeg(tools, [
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x180:rate=10:duration=1',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000:duration=3',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      input,
    ]);
    expect((await probe(tools, input)).durationMs).toBeGreaterThan(2500);
    const output = path.join(dir, 'after-the-pictures.jpg');
    await makePoster(tools, { input, output, atMs: 2500, nice });
    expect((await readFile(output)).subarray(0, 3)).toEqual(JPEG_MAGIC);
  });

  it('refuses a path ffmpeg would read as an option', async () => {
    await expect(makePoster(tools, { input: small, output: '-f', atMs: 0 })).rejects.toThrow(/may not start with '-'/);
  });
});
