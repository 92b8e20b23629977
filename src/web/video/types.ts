import type { LinkStats, VideoClientConfig } from '../../domain/video.js';
import type { AppSocket } from '../api/socket';

/**
 * The browser side of a video provider: the Live Hub publishes the seller's camera and
 * microphone through it, the public live page watches through it. Each provider is its own module,
 * loaded on demand (`loadVideoClient`), so a page carries only the one configured.
 */
export interface VideoClient {
  /**
   * Publishes `stream` (one video and one audio track) into the session. Resolves once the
   * provider accepted it (media may still be connecting: see `onStatus`); rejects with a
   * VideoClientError. The client reconnects by itself while the handle lives (a lost socket,
   * the embedded SFU restarting, a network change).
   */
  publish(opts: PublishOptions): Promise<PublishHandle>;
  /** Watches the session's video; retries by itself until stopped. */
  watch(opts: WatchOptions): WatchHandle;
}

/** 'replaced': an editor's other tab or device took the broadcast over; this one stopped sending. */
export type PublishStatus = 'connecting' | 'live' | 'reconnecting' | 'failed' | 'replaced';

export interface PublishOptions {
  sessionId: string;
  stream: MediaStream;
  config: VideoClientConfig;
  /** The page's Socket.IO client (embedded signalling). */
  socket: AppSocket;
  onStatus(status: PublishStatus): void;
}

export interface PublishHandle {
  /** Sends another camera or microphone (flip, device change) without renegotiating. */
  replaceTrack(track: MediaStreamTrack): Promise<void>;
  /** The panel's readouts (SPEC §2), sampled when called (every 2 s). */
  stats(): Promise<LinkStats>;
  /** Stops publishing; the local tracks stay the caller's. */
  stop(): Promise<void>;
  /**
   * Has the provider ask this camera for a keyframe now (a lot goes on the block: its recording
   * starts on a whole picture). Only Janus needs the page to ask: the embedded SFU asks by itself.
   */
  requestKeyframe?(): void;
}

/** 'waiting': nobody publishes yet; 'playing': media arrives; 'unsupported': this browser cannot receive it (no retry). */
export type WatchStatus = 'waiting' | 'connecting' | 'playing' | 'reconnecting' | 'failed' | 'unsupported';

export interface WatchOptions {
  sessionId: string;
  config: VideoClientConfig;
  socket: AppSocket;
  /**
   * 'Ahorro de datos': receive the seller's audio only. Each provider stops the video at its
   * source (the embedded SFU and Janus send none, Agora does not subscribe to it), so a prepaid
   * plan pays only for the sound. Changing it means watching again.
   */
  audioOnly?: boolean;
  /** The remote stream to attach to the player, or null when it went away. */
  onStream(stream: MediaStream | null): void;
  onStatus(status: WatchStatus): void;
}

export interface WatchHandle {
  stop(): void;
}

/**
 * Why publishing failed, for SPEC's messages: 'disabled' (the provider is not configured),
 * 'token' (refused: not an editor, or the token service failed), 'unavailable' (the video server
 * cannot be reached now), 'unsupported' (the video server cannot use this browser's offer: no VP8
 * or Opus), 'failed' (anything else).
 */
export type VideoFailure = 'disabled' | 'token' | 'unavailable' | 'unsupported' | 'failed';

export class VideoClientError extends Error {
  override name = 'VideoClientError';
  constructor(
    readonly reason: VideoFailure,
    message: string = reason,
  ) {
    super(message);
  }
}
