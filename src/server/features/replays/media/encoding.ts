/**
 * How replays and clips are encoded: H.264 + AAC in an MP4 every browser plays, iPhone Safari included.
 *
 * - libx264 `veryfast`: the job is low priority on a small shared server; `veryfast` takes about a
 *   third of `medium`'s CPU for a file some 10–15 % larger at the same quality.
 * - CRF 23: x264's default quality, good for a phone camera at 720p without a bitrate to tune.
 * - High profile, level 4.0: played by every iPhone since the 4S and by all desktop browsers; level
 *   4.0 covers 1080p30, so a REPLAY_HEIGHT of 1080 stays within it.
 * - yuv420p: the only chroma layout Safari and most hardware decoders take.
 * - A keyframe every 2 s (60 frames at 30 fps): a chapter or a seek lands within 2 s of decoding.
 * - AAC-LC 128 kb/s at 48 kHz (what Opus was recorded at, so no resampling to a new rate).
 * - `+faststart`: the index (moov) before the data, so playback starts before the download ends.
 */
export const REPLAY_FPS = 30;
export const KEYFRAME_EVERY_FRAMES = 60;

export const H264_ARGS = [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-crf',
  '23',
  '-profile:v',
  'high',
  '-level:v',
  '4.0',
  '-pix_fmt',
  'yuv420p',
  '-g',
  String(KEYFRAME_EVERY_FRAMES),
];
export const AAC_ARGS = ['-c:a', 'aac', '-b:a', '128k', '-ar', '48000'];
export const MP4_ARGS = ['-movflags', '+faststart', '-f', 'mp4'];

/** What every ffmpeg run starts with: no banner, no reading of stdin, only errors on stderr (they become the failure's reason). */
export const FFMPEG_COMMON = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];

/** The nice value jobs run at unless told: the lowest priority, so a live show on the same machine never waits for a replay. */
export const DEFAULT_NICE = 19;

/** Refuses a niceness `nice -n` would not take. */
export function checkNice(nice: number): number {
  if (!Number.isInteger(nice) || nice < -20 || nice > 19) throw new RangeError(`nice must be an integer from -20 to 19 (got ${nice})`);
  return nice;
}
