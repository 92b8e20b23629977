/**
 * The replays feature's public face: a show's replay and a sold lot's clip, as their pages read
 * them and their sellers change them.
 */

export { JANUS_RECORDER_EVERY_MS, startJanusRecorder } from './janus-recorder.js';
export { makeNextReplay, REPLAYS_EVERY_MS, startReplayMaker } from './maker.js';
export { findFfmpeg, replaysLine } from './media/index.js';
export { findJanusPpRec } from './media/janus.js';
export { RECORDER_EVERY_MS, startRecorder } from './recorder.js';
export { deleteExpiredReplays, REPLAY_RETENTION_EVERY_MS, startReplayRetention } from './retention.js';
export { replaysRoutes } from './routes.js';
