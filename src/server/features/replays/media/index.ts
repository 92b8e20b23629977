/**
 * The replays' media toolbox: ffmpeg and ffprobe, run at low priority, for the jobs that join a
 * show's recorded segments into its replay, take its poster and cut each sold lot's clip. No
 * database and no HTTP here; every output appears only once complete.
 */
export { CLIP_MAX_MS, type CutClipOptions, type CutClipResult, cutClip } from './clip.js';
export { DEFAULT_NICE } from './encoding.js';
export { makePoster, POSTER_MAX_WIDTH } from './poster.js';
export { type MediaInfo, probe } from './probe.js';
export { MediaError } from './run.js';
export { type FfmpegTools, findFfmpeg, REPLAYS_OFF_REASON, replaysLine, replaysOffLine } from './tools.js';
export { type MakeReplayOptions, makeReplay } from './transcode.js';
