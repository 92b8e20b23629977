import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FfmpegTools, makeReplay, probe } from '../../../../../src/server/features/replays/media/index.js';
import { colourAt, makeSegment, makeTempDir, nice, niceOf, processesMentioning, requireTools, topLevelBoxes } from './fixtures.js';

let tools: FfmpegTools;
let dir: string;
let cleanup: () => Promise<void>;
let landscape: string; // VP8/Opus, 640x360, 3 s
let portrait: string; // H.264/Opus in Matroska, 360x640, 2 s
let silent: string; // VP8 without audio, 640x360, 2 s

beforeAll(async () => {
  tools = await requireTools();
  ({ dir, cleanup } = await makeTempDir());
  [landscape, portrait, silent] = await Promise.all([
    makeSegment(tools, { file: path.join(dir, 'landscape.webm'), kind: 'webm', seconds: 3 }),
    makeSegment(tools, { file: path.join(dir, 'portrait.mkv'), kind: 'mkv', seconds: 2, size: '360x640' }),
    makeSegment(tools, { file: path.join(dir, 'silent.webm'), kind: 'webm', seconds: 2, hasAudio: false }),
  ]);
});
afterAll(() => cleanup?.());

const leftovers = async (folder: string) => (await readdir(folder)).filter((name) => name.includes('.part'));

describe('making a replay from recorded segments', () => {
  it('joins VP8 and H.264 segments, a portrait one and a silent one, into one 720p H.264/AAC MP4 with its index first', async () => {
    const output = path.join(dir, 'replay.mp4');
    const progress: number[] = [];
    const made = await makeReplay(tools, { inputs: [landscape, portrait, silent], output, height: 720, nice, onProgress: (f) => progress.push(f) });

    const info = await probe(tools, output);
    expect(info.video).toEqual({ codec: 'h264', width: 1280, height: 720 });
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.durationMs - 7000)).toBeLessThan(500);
    expect(made.durationMs).toBe(info.durationMs);

    const boxes = await topLevelBoxes(output);
    expect(boxes).toContain('moov');
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));

    // The portrait segment (3–5 s) is shown whole between black bars, not stretched.
    const [r, g, b] = await colourAt(tools, output, 4, '8:8:0:0');
    expect(r + g + b).toBeLessThan(30);
    const [r2, g2, b2] = await colourAt(tools, output, 1, '8:8:0:0');
    expect(r2 + g2 + b2).toBeGreaterThan(30);

    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress.length).toBeGreaterThan(2);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1] as number);
    expect(await leftovers(dir)).toEqual([]);
  });

  it('makes the replay at the height asked, keeping the shape with an even width', async () => {
    const output = path.join(dir, 'replay-480.mp4');
    await makeReplay(tools, { inputs: [silent], output, height: 480, nice });
    const info = await probe(tools, output);
    expect(info.video).toEqual({ codec: 'h264', width: 854, height: 480 });
    // A segment without sound still gets an audio track (silence), so every replay plays the same way.
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.durationMs - 2000)).toBeLessThan(500);
  });

  it('stops ffmpeg when aborted, at the lowest priority while it ran, and leaves no file behind', async () => {
    const folder = path.join(dir, 'aborted');
    await mkdir(folder);
    const controller = new AbortController();
    let running!: () => void;
    const started = new Promise<void>((resolve) => {
      running = resolve;
    });
    const making = makeReplay(tools, {
      inputs: [landscape, portrait, silent, landscape, portrait, silent],
      output: path.join(folder, 'replay.mp4'),
      height: 720,
      signal: controller.signal,
      onProgress: (f) => f > 0 && running(),
    });
    making.catch(() => {});
    await started;
    const pids = await processesMentioning(folder);
    expect(pids).toHaveLength(1);
    expect(await niceOf(pids[0] as number)).toBe(19);
    expect(await leftovers(folder)).toHaveLength(1);
    controller.abort();

    await expect(making).rejects.toMatchObject({ name: 'AbortError' });
    expect(await processesMentioning(folder)).toEqual([]);
    expect(await readdir(folder)).toEqual([]);
  });

  it('does not start when already aborted', async () => {
    const output = path.join(dir, 'never.mp4');
    await expect(makeReplay(tools, { inputs: [silent], output, height: 720, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(await readdir(dir)).not.toContain('never.mp4');
  });

  it('rejects a corrupt segment with a short readable reason and writes nothing', async () => {
    const folder = path.join(dir, 'corrupt');
    await mkdir(folder);
    const corrupt = path.join(folder, 'segment-2.webm');
    await writeFile(corrupt, Buffer.from('this is not a recording, only some bytes\n'.repeat(500)));
    const output = path.join(folder, 'replay.mp4');

    const error = await makeReplay(tools, { inputs: [landscape, corrupt], output, height: 720, nice }).catch((err: Error) => err);
    expect(error).toBeInstanceOf(Error);
    const { message } = error as Error;
    expect(message).toMatch(/Invalid data found when processing input/);
    expect(message).toContain('segment-2.webm');
    expect(message).not.toContain(folder);
    expect(message.length).toBeLessThanOrEqual(500);
    expect(await readdir(folder)).toEqual(['segment-2.webm']);
  });

  it('refuses paths ffmpeg would read as options, and empty ones, before running anything', async () => {
    const output = path.join(dir, 'refused.mp4');
    await expect(makeReplay(tools, { inputs: ['-i'], output, height: 720 })).rejects.toThrow(/may not start with '-'/);
    await expect(makeReplay(tools, { inputs: [silent, ''], output, height: 720 })).rejects.toThrow(/empty path/);
    await expect(makeReplay(tools, { inputs: [silent], output: '-y', height: 720 })).rejects.toThrow(/may not start with '-'/);
    await expect(makeReplay(tools, { inputs: [], output, height: 720 })).rejects.toThrow(/at least one/);
    await expect(makeReplay(tools, { inputs: [silent], output, height: 721 })).rejects.toThrow(/even/);
    expect(await readdir(dir)).not.toContain('refused.mp4');
  });
});
