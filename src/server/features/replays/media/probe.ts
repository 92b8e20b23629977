import { MediaError, mediaPath, runMedia } from './run.js';
import type { FfmpegTools } from './tools.js';

/** What a media file holds, as the replays jobs need it. */
export interface MediaInfo {
  /** The file's length (0 when ffprobe cannot tell). */
  durationMs: number;
  /** The first video stream, its size as shown (a phone's 90° rotation already applied); null without video. */
  video: { codec: string; width: number; height: number } | null;
  /** The first audio stream; null without audio. */
  audio: { codec: string; channels: number } | null;
  /** The earliest timestamp in the file (ms, may be negative: Opus's pre-skip); a join shifts each input back to 0 by it. */
  startMs: number;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  channels?: number;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
}
interface FfprobeOutput {
  format?: { duration?: string; start_time?: string };
  streams?: FfprobeStream[];
}

/** Reads a file's length and streams with `ffprobe -v error -print_format json -show_format -show_streams`. */
export async function probe(tools: FfmpegTools, file: string, opts: { signal?: AbortSignal } = {}): Promise<MediaInfo> {
  const input = mediaPath(file, 'probe input');
  const json = await runMedia(tools.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input], {
    signal: opts.signal,
    paths: [file],
  });
  let parsed: FfprobeOutput;
  try {
    parsed = JSON.parse(json) as FfprobeOutput;
  } catch (err) {
    throw new MediaError('ffprobe answered something that is not JSON', { cause: err });
  }
  const streams = parsed.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video' && s.width && s.height);
  const a = streams.find((s) => s.codec_type === 'audio');
  if (!v && !a) throw new MediaError('no audio or video stream in the file');
  return {
    durationMs: durationMs(parsed, streams),
    video: v ? { codec: v.codec_name ?? 'unknown', ...shownSize(v) } : null,
    audio: a ? { codec: a.codec_name ?? 'unknown', channels: a.channels ?? 2 } : null,
    startMs: seconds(parsed.format?.start_time) ?? 0,
  };
}

/** The format's duration, else the longest stream's (Matroska keeps it in a DURATION tag, '00:00:03.000000000'), else 0. */
function durationMs(parsed: FfprobeOutput, streams: FfprobeStream[]): number {
  const fromFormat = seconds(parsed.format?.duration);
  if (fromFormat !== null && fromFormat > 0) return Math.round(fromFormat);
  let longest = 0;
  for (const s of streams) {
    const d = seconds(s.duration) ?? clockMs(s.tags?.DURATION ?? s.tags?.duration);
    if (d !== null && d > longest) longest = d;
  }
  return Math.round(longest);
}

function seconds(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n * 1000 : null;
}

function clockMs(value: string | undefined): number | null {
  const match = value ? /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(value) : null;
  if (!match) return null;
  return (Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3])) * 1000;
}

/** A stream's size as it is shown: ffmpeg turns a frame rotated by ±90° (display matrix or the old 'rotate' tag) upright when it decodes it. */
function shownSize(s: FfprobeStream): { width: number; height: number } {
  const width = s.width ?? 0;
  const height = s.height ?? 0;
  const rotation = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? Number(s.tags?.rotate ?? 0);
  return Math.abs(rotation) % 180 === 90 ? { width: height, height: width } : { width, height };
}
