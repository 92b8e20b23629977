import { useCallback, useEffect, useRef } from 'react';
import type { LinkStats } from '../../../domain/video.js';
import type { PublishHandle, PublishStatus } from '../../video/types';
import { type BroadcastError, type BroadcastPhase, useBroadcastStatus } from './use-broadcast-status';
import { type Facing, type LocalMediaOptions, stopTracks, useLocalMedia } from './use-local-media';
import { type PublishTarget, type StartOutcome, usePublishing } from './use-publishing';

export interface BroadcastOptions extends PublishTarget, LocalMediaOptions {}

export interface Broadcast {
  phase: BroadcastPhase;
  /** The local camera + microphone, shown in the player while previewing or publishing. */
  stream: MediaStream | null;
  error: BroadcastError;
  /** The provider's link while publishing ('reconnecting' after a drop, until it is back). */
  link: PublishStatus | null;
  stats: LinkStats;
  /** epoch ms, while publishing. */
  startedAt: number | null;
  elapsedMs: number;
  muted: boolean;
  facing: Facing;
  preview(): Promise<void>;
  stopPreview(): void;
  /**
   * Publishes and tells the server. 'sessionEnded': the server refused because the session ended
   * (and `reopen` was not sent): nothing is published, the caller may ask and start again with it.
   */
  start(opts?: { reopen?: boolean }): Promise<StartOutcome>;
  stop(): Promise<void>;
  /** The server stopped the broadcast while this page sent: stop sending, keep the camera, say `message`. */
  letGo(message: string): Promise<void>;
  toggleMute(): void;
  /** Another camera (by id, or the other facing on a phone) without stopping the show. */
  switchCamera(to: { deviceId: string | null } | { facing: Facing }): Promise<void>;
  switchMicrophone(deviceId: string | null): Promise<void>;
  dismissError(): void;
  /** A message about the broadcast that changes nothing else (shown where its errors are). */
  notify(title: string): void;
  /** Asks the provider for a keyframe from this camera, while it publishes (PublishHandle.requestKeyframe). */
  requestKeyframe(): void;
}

/**
 * The seller's side of the broadcast (SPEC §4, §9): the broadcast's phase and last error, the
 * local camera and microphone, and publishing them; the preview and the error's dismissal join
 * the three.
 */
export function useBroadcast(opts: BroadcastOptions): Broadcast {
  const status = useBroadcastStatus();
  const { setPhase, clearError } = status;
  // The provider's publish handle while it sends: publishing sets it, a device change sends through it.
  const handleRef = useRef<PublishHandle | null>(null);
  const media = useLocalMedia(
    { cameraId: opts.cameraId, microphoneId: opts.microphoneId, onDevicesAllowed: opts.onDevicesAllowed },
    { sender: handleRef, fail: status.fail, warn: status.warn },
  );
  const { capture, release, streamRef } = media;
  const publishing = usePublishing({ sessionId: opts.sessionId, video: opts.video }, { handle: handleRef, media, status });

  const preview = useCallback(async () => {
    clearError();
    if (await capture()) setPhase((p) => (p === 'publishing' ? p : 'previewing'));
  }, [capture, clearError, setPhase]);

  const stopPreview = useCallback(() => {
    if (handleRef.current) return;
    release();
    setPhase('idle');
  }, [release, setPhase]);

  const dismissError = useCallback(() => {
    clearError();
    setPhase((p) => (p === 'error' ? (streamRef.current ? 'previewing' : 'idle') : p));
  }, [clearError, setPhase, streamRef]);

  // Loading another session, or leaving the Hub, ends this broadcast's media (and usePublishing tells
  // the server it stopped).
  useEffect(() => {
    return () => {
      void handleRef.current?.stop().catch(() => {});
      handleRef.current = null;
      stopTracks(streamRef.current);
      streamRef.current = null;
    };
  }, [streamRef]);

  return {
    phase: status.phase,
    stream: media.stream,
    error: status.error,
    link: publishing.link,
    stats: publishing.stats,
    startedAt: publishing.startedAt,
    elapsedMs: publishing.elapsedMs,
    muted: media.muted,
    facing: media.facing,
    preview,
    stopPreview,
    requestKeyframe: () => handleRef.current?.requestKeyframe?.(),
    start: publishing.start,
    stop: publishing.stop,
    letGo: publishing.letGo,
    toggleMute: media.toggleMute,
    switchCamera: media.switchCamera,
    switchMicrophone: media.switchMicrophone,
    dismissError,
    notify: status.warn,
  };
}
