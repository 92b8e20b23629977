import { AAC_ARGS, checkNice, DEFAULT_NICE, FFMPEG_COMMON, H264_ARGS, MP4_ARGS, REPLAY_FPS } from './encoding.js';
import { type MediaInfo, probe } from './probe.js';
import { abortError, MediaError, mediaPath, runMedia, writeAtomically } from './run.js';
import type { FfmpegTools } from './tools.js';

export interface MakeReplayOptions {
  /** The show's recorded segments, in the order they were recorded. */
  inputs: string[];
  /** The MP4 to write; it appears only once complete. */
  output: string;
  /** The replay's height in pixels (even); the width follows the recording's shape. */
  height: number;
  /** Niceness ffmpeg runs at (default 19, the lowest priority). */
  nice?: number;
  /** How much is done, from 0 to 1, never going back; 1 once the MP4 is in place. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Joins a show's segments into one H.264/AAC MP4 with faststart (settings in encoding.ts). Each
 * segment is brought to the same shape first: scaled into the output size and padded (a phone turned
 * sideways keeps its picture whole), square pixels, 30 fps, 48 kHz audio, silence where a segment
 * has no sound and black where it has no picture; then the concat filter joins them. Rejects with a
 * MediaError whose message ends with ffmpeg's own last words, and leaves no file behind.
 */
export async function makeReplay(tools: FfmpegTools, opts: MakeReplayOptions): Promise<{ durationMs: number }> {
  const { inputs, output, height, signal, onProgress } = opts;
  if (!Array.isArray(inputs) || inputs.length === 0) throw new MediaError('a replay needs at least one recorded segment');
  const inputArgs = inputs.flatMap((file, i) => ['-i', mediaPath(file, `input ${i + 1}`)]);
  mediaPath(output, 'output');
  if (!Number.isInteger(height) || height < 2 || height > 4320 || height % 2 !== 0)
    throw new RangeError(`height must be an even number of pixels (got ${height})`);
  const nice = checkNice(opts.nice ?? DEFAULT_NICE);

  const infos: MediaInfo[] = [];
  for (const file of inputs) infos.push(await probe(tools, file, { signal }));
  const size = outputSize(infos, height);
  const layout = infos.every((info) => !info.audio || info.audio.channels === 1) ? 'mono' : 'stereo';
  const totalUs = infos.reduce((sum, info) => sum + info.durationMs, 0) * 1000;

  let reported = -1;
  const report = (fraction: number) => {
    if (!onProgress || fraction <= reported) return;
    reported = fraction;
    onProgress(fraction);
  };
  report(0);

  const result = await writeAtomically(output, async (temp) => {
    const args = [
      ...FFMPEG_COMMON,
      '-progress',
      'pipe:1',
      '-nostats',
      ...inputArgs,
      '-filter_complex',
      joinGraph(infos, size, layout),
      '-map',
      '[v]',
      '-map',
      '[a]',
      ...H264_ARGS,
      ...AAC_ARGS,
      '-ac',
      layout === 'mono' ? '1' : '2',
      ...MP4_ARGS,
      mediaPath(temp, 'output'),
    ];
    await runMedia(tools.ffmpeg, args, {
      nice,
      signal,
      paths: [...inputs, temp],
      // Held under 1 until the file is checked and in place.
      onOutTimeUs: totalUs > 0 ? (us) => report(Math.min(0.99, Math.round((us / totalUs) * 1000) / 1000)) : undefined,
    });
    if (signal?.aborted) throw abortError(signal);
    const made = await probe(tools, temp, { signal });
    if (made.video?.codec !== 'h264' || made.audio?.codec !== 'aac') throw new MediaError('ffmpeg wrote a file without its H.264 video or AAC audio');
    return { durationMs: made.durationMs };
  });
  report(1);
  return result;
}

/** The output's size: `height` tall, as wide as the shape the show was mostly recorded in (by duration), the width even. */
export function outputSize(infos: MediaInfo[], height: number): { width: number; height: number } {
  const byShape = new Map<number, number>();
  for (const info of infos) {
    if (!info.video) continue;
    const aspect = Math.round((info.video.width / info.video.height) * 1000) / 1000;
    byShape.set(aspect, (byShape.get(aspect) ?? 0) + Math.max(info.durationMs, 1));
  }
  if (byShape.size === 0) throw new MediaError('none of the recorded segments has video');
  const [aspect] = [...byShape.entries()].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  return { width: Math.max(2, Math.round((height * aspect) / 2) * 2), height };
}

/**
 * The filter graph that joins the inputs. Each is shifted back to start at 0 by its file's earliest
 * timestamp (the concat filter needs every segment to start at 0; shifting audio and video by the same
 * amount keeps them in sync), `fps=…:start_time=0` and `aresample=…:first_pts=0` fill a late start,
 * and `async=1` fills the gaps a recording over a lossy network leaves in its audio.
 */
export function joinGraph(infos: MediaInfo[], size: { width: number; height: number }, layout: 'mono' | 'stereo'): string {
  const { width: w, height: h } = size;
  const parts: string[] = [];
  const pairs: string[] = [];
  infos.forEach((info, i) => {
    const shift = `setpts=PTS-(${(info.startMs / 1000).toFixed(6)})/TB`;
    const seconds = (info.durationMs / 1000).toFixed(3);
    if ((!info.video || !info.audio) && info.durationMs <= 0) throw new MediaError(`cannot tell how long segment ${i + 1} is`);
    parts.push(
      info.video
        ? `[${i}:v:0]${shift},scale=${w}:${h}:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,fps=${REPLAY_FPS}:start_time=0,format=yuv420p[v${i}]`
        : `color=c=black:s=${w}x${h}:r=${REPLAY_FPS}:d=${seconds},setsar=1,format=yuv420p[v${i}]`,
    );
    parts.push(
      info.audio
        ? `[${i}:a:0]a${shift},aresample=48000:async=1:first_pts=0,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=${layout}[a${i}]`
        : `anullsrc=r=48000:cl=${layout},atrim=duration=${seconds},aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=${layout}[a${i}]`,
    );
    pairs.push(`[v${i}][a${i}]`);
  });
  return `${parts.join(';')};${pairs.join('')}concat=n=${infos.length}:v=1:a=1[v][a]`;
}
