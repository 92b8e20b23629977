import { CLIP_MAX_MS } from '../../../../domain/replays.js';
import { AAC_ARGS, checkNice, DEFAULT_NICE, FFMPEG_COMMON, H264_ARGS, MP4_ARGS } from './encoding.js';
import { probe } from './probe.js';
import { MediaError, mediaPath, runMedia, writeAtomically } from './run.js';
import type { FfmpegTools } from './tools.js';

export { CLIP_MAX_MS };

export interface CutClipOptions {
  /** The replay's MP4. */
  input: string;
  output: string;
  /** The lot's start on the replay's clock. */
  startMs: number;
  /** Its hammer on the replay's clock. */
  endMs: number;
  /** Niceness ffmpeg runs at (default 19). */
  nice?: number;
  signal?: AbortSignal;
}

/** The span actually cut: the clip's length and where it starts and ends on the replay's clock. */
export interface CutClipResult {
  durationMs: number;
  startMs: number;
  endMs: number;
}

/**
 * Cuts a sold lot's clip from the replay. A span longer than CLIP_MAX_MS keeps its last two
 * minutes: the clip is the buyer's video receipt, and the hammer is what it must show. A span past
 * the replay's end stops at the end; one that starts after it, or ends before it starts, is refused.
 *
 * The clip is re-encoded rather than copied. A stream copy can only start on a keyframe, up to 2 s
 * (the replay's GOP) before the lot's start, and players handle the edit list that would hide
 * those frames unevenly (Safari shows them); re-encoding starts on the exact frame and ends on
 * the exact one. Two minutes of 720p at `veryfast` take seconds, and clips are made once per sold lot.
 */
export async function cutClip(tools: FfmpegTools, opts: CutClipOptions): Promise<CutClipResult> {
  const input = mediaPath(opts.input, 'input');
  mediaPath(opts.output, 'output');
  const nice = checkNice(opts.nice ?? DEFAULT_NICE);
  let { startMs, endMs } = opts;
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || startMs < 0)
    throw new RangeError(`a clip needs a start from 0 and an end (got ${startMs}–${endMs})`);
  if (endMs <= startMs) throw new RangeError(`a clip must end after it starts (got ${startMs}–${endMs})`);

  const info = await probe(tools, opts.input, { signal: opts.signal });
  if (info.durationMs > 0) {
    if (startMs >= info.durationMs) throw new MediaError(`the clip starts at ${startMs} ms, after the replay ends (${info.durationMs} ms)`);
    endMs = Math.min(endMs, info.durationMs);
  }
  if (endMs - startMs > CLIP_MAX_MS) startMs = endMs - CLIP_MAX_MS;

  return writeAtomically(opts.output, async (temp) => {
    const args = [
      ...FFMPEG_COMMON,
      // Before -i while re-encoding: a fast seek to the keyframe before, then decoded frames are dropped up to the exact start.
      '-ss',
      (startMs / 1000).toFixed(3),
      '-i',
      input,
      '-t',
      ((endMs - startMs) / 1000).toFixed(3),
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      ...H264_ARGS,
      ...AAC_ARGS,
      ...MP4_ARGS,
      mediaPath(temp, 'output'),
    ];
    await runMedia(tools.ffmpeg, args, { nice, signal: opts.signal, paths: [opts.input, temp] });
    const made = await probe(tools, temp, { signal: opts.signal });
    if (!made.video) throw new MediaError('ffmpeg wrote a clip without video');
    return { durationMs: made.durationMs, startMs, endMs };
  });
}
