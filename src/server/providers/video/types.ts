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
  grant(sessionId: string, role: VideoRole, opts?: { viewer?: string }): Promise<VideoGrant>;
  /** The session's broadcast stopped or the session was deleted: drop its room, publisher and viewers. */
  endSession(sessionId: string): Promise<void>;
  /**
   * Whether a publisher is in the session's video now (the seller's page joined and has not gone):
   * null when this provider cannot tell (Agora's channels are the cloud's) or cannot answer now.
   * The server stops a broadcast whose publisher stays gone (features/live/show/publisher-watch.ts).
   */
  hasPublisher(sessionId: string): Promise<boolean | null>;
  close(): Promise<void>;
  /** The embedded SFU's copy of each show's media to a recorder on this machine; the other providers record on their own side. */
  readonly tap?: MediaTap;
  /** Janus's own recording of each room, switched on and off by features/replays/janus-recorder.ts. */
  readonly roomRecording?: RoomRecording;
  /** Janus edges (JANUS_EDGES): kept fed by the `edge-feed` job. */
  readonly edges?: EdgeFeed;
  /**
   * For tests and benches: the embedded SFU's child process id (null while it is down), its counters, and
   * whether it is up, starting it and waiting up to `timeoutMs` (a test's first publish must not race its start).
   */
  debug?: { workerPid(): number | null; stats(): Promise<unknown>; ready(timeoutMs: number): Promise<boolean> };
}

/**
 * A show's media as the SFU receives it, copied (not re-encoded) to a recorder listening on
 * loopback UDP ports: what features/replays/recorder.ts records with ffmpeg.
 */
export interface MediaTap {
  /** Each session whose publisher is connected through this instance now → that publisher's id (a new one after a reload). */
  publishing(): Map<string, string>;
  /** Copies `pubId`'s media to `ports`, from its next keyframe; false when it is not the session's publisher (any more). */
  record(sessionId: string, pubId: string, ports: { video: number; audio: number }): Promise<boolean>;
  /** Stops the session's copy (nothing when there is none). */
  stop(sessionId: string): Promise<void>;
  /** Asks the recorded publisher for a keyframe (a lot begins): nothing when the session is not recorded. */
  keyframe(sessionId: string): Promise<void>;
  /** Publishers coming and going, a copy's first keyframe (its clock's zero), the SFU restarting: answers the unsubscribe. */
  subscribe(listener: (event: MediaTapEvent) => void): () => void;
}

/**
 * A provider that records its rooms itself (Janus: `.mjr` files, one per stream and publisher
 * join, under `dir/<session id>/`), told by the recorder job which sessions to record.
 */
export interface RoomRecording {
  /** Where the provider writes, as this server reads it (the same folder, or a shared mount). */
  readonly dir: string;
  /**
   * Turns the session room's recording on or off. `room` is false when the session has no room
   * now (nobody has broadcast yet, or it ended); `publishers` is how many publish into it.
   * Throws VideoUnavailableError when the provider cannot answer now.
   */
  set(sessionId: string, on: boolean): Promise<{ room: boolean; publishers: number }>;
}

/** Viewers through Janus edges: the origin's forwarders to each edge's mountpoint of a show. */
export interface EdgeFeed {
  /** Forwards the session's newest feed to every edge that answers, and stops what is stale. */
  feed(sessionId: string): Promise<void>;
  /** Each edge's viewers (as its mountpoints last said) and whether it answered. */
  load(): { url: string; viewers: number; up: boolean }[];
}

export type MediaTapEvent =
  | { type: 'publisher'; sessionId: string }
  | { type: 'started'; sessionId: string; pubId: string; at: number }
  /** The SFU's process died: every copy ended with it. */
  | { type: 'restart' };

export class VideoUnavailableError extends Error {
  override name = 'VideoUnavailableError';
}

export interface VideoProviderDeps {
  config: Config;
  db: Db;
  realtime: Realtime;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}
