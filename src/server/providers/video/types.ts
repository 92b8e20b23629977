import type { VideoGrant, VideoProviderName, VideoRole } from '../../../domain/video.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import type { Realtime } from '../../realtime/index.js';

/**
 * One live-video provider behind the server (VIDEO.md), chosen by VIDEO_PROVIDER in providers/index.ts:
 * - embedded.ts: an SFU on node-datachannel in a child process, signalled over Socket.IO;
 * - janus.ts: a Janus VideoRoom per session through janode;
 * - agora.ts: SPEC §7's cloud, with tokens from `agora-token`.
 *
 * The caller has already decided who may publish (`canEditSession`): a provider never hands a
 * publisher grant to anyone else, and the embedded SFU checks again on its socket events.
 */
export interface VideoProvider {
  readonly name: VideoProviderName;
  /** Origins the browser must reach for this provider, added to the CSP's connect-src (and media-src). */
  readonly cspConnectSrc: string[];
  /**
   * What a browser needs to publish into (an editor) or watch the session's video. Throws
   * VideoUnavailableError when the provider cannot answer now (Janus down, SFU restarting).
   */
  grant(sessionId: string, role: VideoRole): Promise<VideoGrant>;
  /** The session's broadcast stopped or the session was deleted: drop its room, publisher and viewers. */
  endSession(sessionId: string): Promise<void>;
  /**
   * Whether a publisher is in the session's video now (the seller's page joined and has not gone):
   * null when this provider cannot tell (Agora's channels are the cloud's) or cannot answer now.
   * The server stops a broadcast whose publisher stays gone (features/live/show/publisher-watch.ts).
   */
  hasPublisher(sessionId: string): Promise<boolean | null>;
  close(): Promise<void>;
  /** For tests and benches: the embedded SFU's child process id (null while it is down) and its counters. */
  debug?: { workerPid(): number | null; stats(): Promise<unknown> };
}

export class VideoUnavailableError extends Error {
  override name = 'VideoUnavailableError';
}

export interface VideoProviderDeps {
  config: Config;
  db: Db;
  realtime: Realtime;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}
