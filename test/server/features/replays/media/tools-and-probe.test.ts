import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FfmpegTools,
  findFfmpeg,
  probe,
  REPLAYS_OFF_REASON,
  replaysLine,
  replaysOffLine,
} from '../../../../../src/server/features/replays/media/index.js';
import { ffmpeg, makeSegment, makeTempDir, requireTools } from './fixtures.js';

let tools: FfmpegTools;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  tools = await requireTools();
  ({ dir, cleanup } = await makeTempDir());
});
afterAll(() => cleanup?.());

describe('finding ffmpeg', () => {
  it('finds ffmpeg and ffprobe on PATH and reads the version', async () => {
    const found = await findFfmpeg({ PATH: '/nowhere:/usr/local/bin:/usr/bin:/bin' });
    expect(found).not.toBeNull();
    expect(path.basename(found?.ffmpeg ?? '')).toBe('ffmpeg');
    expect(path.basename(found?.ffprobe ?? '')).toBe('ffprobe');
    expect(found?.version).toMatch(/^\S*\d/);
  });

  it('answers null with an empty PATH, and the server says why replays are off', async () => {
    expect(await findFfmpeg({ PATH: '' })).toBeNull();
    expect(await findFfmpeg({})).toBeNull();
    expect(REPLAYS_OFF_REASON).toBe('ffmpeg not found: apt-get install ffmpeg');
    expect(replaysOffLine()).toBe('replays  off (ffmpeg not found: apt-get install ffmpeg)');
    expect(replaysLine(null)).toBe('replays  off (ffmpeg not found: apt-get install ffmpeg)');
    expect(replaysLine({ ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe', version: '5.1.6' })).toBe('replays  on (ffmpeg 5.1.6)');
    // With Janus, its recordings need janus-pp-rec as well.
    const tools = { ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe', version: '5.1.6' };
    expect(replaysLine(tools, { ppRec: '/usr/bin/janus-pp-rec' })).toBe('replays  on (ffmpeg 5.1.6)');
    expect(replaysLine(tools, { ppRec: null })).toBe('replays  off (janus-pp-rec not found: apt-get install janus-tools)');
    expect(replaysLine(null, { ppRec: null })).toBe('replays  off (ffmpeg not found: apt-get install ffmpeg)');
  });

  it('takes FFMPEG_PATH and FFPROBE_PATH over PATH, and answers null when one names no program', async () => {
    const env = { PATH: '', FFMPEG_PATH: tools.ffmpeg, FFPROBE_PATH: tools.ffprobe };
    expect(await findFfmpeg(env)).toMatchObject({ ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe });
    expect(await findFfmpeg({ ...env, FFPROBE_PATH: path.join(dir, 'no-ffprobe') })).toBeNull();
    // Only ffprobe found: replays need both.
    expect(await findFfmpeg({ PATH: '/usr/bin', FFMPEG_PATH: path.join(dir, 'no-ffmpeg') })).toBeNull();
  });

  it('answers null when the program found is not a working ffmpeg', async () => {
    const fake = path.join(dir, 'ffmpeg');
    await writeFile(fake, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    expect(await findFfmpeg({ PATH: '/usr/bin', FFMPEG_PATH: fake })).toBeNull();
  });
});

describe('probing a recording', () => {
  it('reads the length, the video and the audio of a VP8/Opus WebM', async () => {
    const file = await makeSegment(tools, { file: path.join(dir, 'a.webm'), kind: 'webm', seconds: 2 });
    const info = await probe(tools, file);
    expect(info.video).toEqual({ codec: 'vp8', width: 640, height: 360 });
    expect(info.audio?.codec).toBe('opus');
    expect(Math.abs(info.durationMs - 2000)).toBeLessThan(100);
  });

  it('answers null audio for a segment without sound', async () => {
    const file = await makeSegment(tools, { file: path.join(dir, 'b.mkv'), kind: 'mkv', seconds: 1, hasAudio: false });
    const info = await probe(tools, file);
    expect(info.video?.codec).toBe('h264');
    expect(info.audio).toBeNull();
  });

  it("reports a phone's rotated video at the size it is shown", async () => {
    const file = await makeSegment(tools, { file: path.join(dir, 'c.mkv'), kind: 'mkv', seconds: 1, size: '640x360', hasAudio: false });
    const rotated = path.join(dir, 'rotated.mp4');
    await ffmpeg(tools, ['-i', file, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', rotated]);
    expect((await probe(tools, rotated)).video).toEqual({ codec: 'h264', width: 360, height: 640 });
  });

  it('rejects a file that is not media with a reason naming it, and reads a protocol-like name as a file', async () => {
    const junk = path.join(dir, 'junk.webm');
    await writeFile(junk, 'not a recording');
    await expect(probe(tools, junk)).rejects.toThrow(/junk\.webm: Invalid data found when processing input/);
    await expect(probe(tools, 'http://127.0.0.1:9/replay.mp4')).rejects.toThrow(/No such file or directory/);
    await expect(probe(tools, '-version')).rejects.toThrow(/may not start with '-'/);
    await expect(probe(tools, '')).rejects.toThrow(/empty path/);
  });
});
