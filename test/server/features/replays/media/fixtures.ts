import { execFile } from 'node:child_process';
import { mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type FfmpegTools, findFfmpeg } from '../../../../../src/server/features/replays/media/index.js';

const run = promisify(execFile);

/**
 * The priority the tests run ffmpeg at, their own: at the default 19 a machine busy with other work
 * starves it and a 1-second clip takes 15 s. The abort test checks the default.
 */
export const nice = 0;

/** ffmpeg and ffprobe as the server would find them; these tests need Debian's (apt-get install ffmpeg). */
export async function requireTools(): Promise<FfmpegTools> {
  const tools = await findFfmpeg();
  if (!tools) throw new Error('these tests need ffmpeg and ffprobe on PATH (apt-get install ffmpeg)');
  return tools;
}

export async function makeTempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'martillo-replay-media-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface SegmentSpec {
  file: string;
  seconds: number;
  size?: string;
  rate?: number;
  /** 'webm': VP8/Opus; 'mkv': H.264/Opus; 'mp4': H.264/AAC. */
  kind: 'webm' | 'mkv' | 'mp4';
  hasAudio?: boolean;
}

/** A synthetic recorded segment: ffmpeg's test pattern and a 440 Hz tone, encoded as a recorder would write it. */
export async function makeSegment(tools: FfmpegTools, spec: SegmentSpec): Promise<string> {
  const { size = '640x360', rate = 30, hasAudio = true } = spec;
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${rate}`];
  if (hasAudio) args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000');
  args.push('-t', String(spec.seconds));
  if (spec.kind === 'webm') args.push('-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '16', '-lag-in-frames', '0', '-b:v', '300k');
  else args.push('-c:v', 'libx264', '-preset', 'ultrafast');
  if (hasAudio) args.push('-c:a', spec.kind === 'mp4' ? 'aac' : 'libopus');
  args.push(spec.file);
  await run(tools.ffmpeg, args);
  return spec.file;
}

/** Runs ffmpeg with the given arguments (for inputs no helper above makes). */
export async function ffmpeg(tools: FfmpegTools, args: string[]): Promise<void> {
  await run(tools.ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args]);
}

/** The average colour of a patch (ffmpeg's crop: 'w:h' centred, or 'w:h:x:y') of the frame at `seconds` into `file`, as [r, g, b]. */
export async function colourAt(tools: FfmpegTools, file: string, seconds: number, crop = '8:8'): Promise<[number, number, number]> {
  const { stdout } = await run(
    tools.ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-ss',
      seconds.toFixed(3),
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      `crop=${crop},scale=1:1`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { encoding: 'buffer' },
  );
  return [stdout[0] ?? -1, stdout[1] ?? -1, stdout[2] ?? -1];
}

/** The order of an MP4's top-level boxes ('ftyp', 'moov', 'mdat', …), read from the file's own bytes. */
export async function topLevelBoxes(file: string): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const boxes: string[] = [];
    let offset = 0;
    const header = Buffer.alloc(16);
    while (offset + 8 <= size && boxes.length < 32) {
      await handle.read(header, 0, 16, offset);
      let boxSize = header.readUInt32BE(0);
      const type = header.toString('latin1', 4, 8);
      if (boxSize === 1) boxSize = Number(header.readBigUInt64BE(8));
      else if (boxSize === 0) boxSize = size - offset;
      if (boxSize < 8) break;
      boxes.push(type);
      offset += boxSize;
    }
    return boxes;
  } finally {
    await handle.close();
  }
}

/** The ids of live processes whose command line mentions `text` (Linux's /proc). */
export async function processesMentioning(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) found.push(Number(entry));
  }
  return found;
}

/** A process's niceness, from /proc/<pid>/stat (null once it is gone). */
export async function niceOf(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  // The fields after the command name, which is in parentheses and may hold spaces; niceness is field 19.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[16]);
}
