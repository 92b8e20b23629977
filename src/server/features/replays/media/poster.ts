import { stat } from 'node:fs/promises';
import { checkNice, DEFAULT_NICE, FFMPEG_COMMON } from './encoding.js';
import { probe } from './probe.js';
import { MediaError, mediaPath, runMedia, writeAtomically } from './run.js';
import type { FfmpegTools } from './tools.js';

/** A poster is at most this wide (its height follows, even). */
export const POSTER_MAX_WIDTH = 1280;

/**
 * Writes one JPEG frame of `input` taken at `atMs`, at most POSTER_MAX_WIDTH wide. A time past the
 * end, or past the last picture, takes the middle frame instead (or the first), so a short replay still gets its poster.
 */
export async function makePoster(
  tools: FfmpegTools,
  opts: { input: string; output: string; atMs: number /** Niceness ffmpeg runs at (default 19). */; nice?: number; signal?: AbortSignal },
): Promise<void> {
  const input = mediaPath(opts.input, 'input');
  mediaPath(opts.output, 'output');
  const nice = checkNice(opts.nice ?? DEFAULT_NICE);
  if (!Number.isFinite(opts.atMs) || opts.atMs < 0) throw new RangeError(`atMs must be a time from 0 (got ${opts.atMs})`);
  const info = await probe(tools, opts.input, { signal: opts.signal });
  if (!info.video) throw new MediaError('the file has no video to take a poster from');
  const middle = info.durationMs / 2;
  const atMs = info.durationMs > 0 && opts.atMs >= info.durationMs ? middle : opts.atMs;
  // The file's last picture can come before its length (its sound runs on): then the middle, then the first.
  const times = [...new Set([atMs, ...(info.durationMs > 0 ? [middle] : []), 0])];
  for (const [i, time] of times.entries()) {
    try {
      await posterAt(tools, opts, input, nice, time);
      return;
    } catch (err) {
      if (!(err instanceof NoFrameError) || i === times.length - 1) throw err;
    }
  }
}

class NoFrameError extends MediaError {}

async function posterAt(
  tools: FfmpegTools,
  opts: { input: string; output: string; signal?: AbortSignal },
  input: string,
  nice: number,
  atMs: number,
): Promise<void> {
  await writeAtomically(opts.output, async (temp) => {
    const args = [
      ...FFMPEG_COMMON,
      // Before -i: seeks to the keyframe before, then decodes up to the exact time.
      '-ss',
      (atMs / 1000).toFixed(3),
      '-i',
      input,
      '-frames:v',
      '1',
      '-an',
      // The quotes keep the comma inside min() from ending the filter.
      '-vf',
      `scale='min(${POSTER_MAX_WIDTH},iw)':-2:out_range=full,format=yuvj420p`,
      '-q:v',
      '3',
      '-f',
      'image2',
      '-update',
      '1',
      mediaPath(temp, 'output'),
    ];
    await runMedia(tools.ffmpeg, args, { nice, signal: opts.signal, paths: [opts.input, temp] });
    const written = await stat(temp).catch(() => null);
    if (!written || written.size === 0) throw new NoFrameError('ffmpeg found no frame to make the poster from');
  });
}
