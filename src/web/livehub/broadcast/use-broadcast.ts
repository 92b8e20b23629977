import { useCallback, useEffect, useRef, useState } from 'react';
import { ELAPSED_EVERY_MS, type LinkStats, NO_LINK_STATS, STATS_EVERY_MS, TRACK_CHECK_EVERY_MS, type VideoClientConfig } from '../../../domain/video.js';
import { isApiError } from '../../api/client';
import { isSessionEndedError, useStreamActions } from '../../api/live-hub';
import { getSocket } from '../../api/socket';
import { useTranslation } from '../../i18n';
import { loadVideoClient, type PublishHandle, type PublishStatus, VideoClientError } from '../../video/types';
import { captureConstraints } from './use-devices';

/** SPEC §4 "Broadcast state": not publishing, previewing, publishing; errors set 'error'. */
export type BroadcastPhase = 'idle' | 'previewing' | 'starting' | 'publishing' | 'stopping' | 'error';

export interface BroadcastOptions {
  /** The loaded session, or null ('Por favor carga una sesión…'). */
  sessionId: string | null;
  video: VideoClientConfig | null;
  cameraId: string | null;
  microphoneId: string | null;
  /** After the first capture: device labels become readable. */
  onDevicesAllowed?: () => void;
}

export interface Broadcast {
  phase: BroadcastPhase;
  /** The local camera + microphone, shown in the player while previewing or publishing. */
  stream: MediaStream | null;
  /** The Spanish message of the last failure, with its detail when there is one. */
  error: { title: string; detail: string | null } | null;
  /** The provider's link while publishing ('reconnecting' after a drop, until it is back). */
  link: PublishStatus | null;
  stats: LinkStats;
  /** epoch ms, while publishing. */
  startedAt: number | null;
  elapsedMs: number;
  muted: boolean;
  facing: 'user' | 'environment';
  preview(): Promise<void>;
  stopPreview(): void;
  /**
   * Publishes and tells the server. 'sessionEnded': the server refused because the session ended
   * (and `reopen` was not sent): nothing is published, the caller may ask and start again with it.
   */
  start(opts?: { reopen?: boolean }): Promise<'started' | 'sessionEnded' | 'failed'>;
  stop(): Promise<void>;
  toggleMute(): void;
  /** Another camera (by id, or the other facing on a phone) without stopping the show. */
  switchCamera(to: { deviceId: string | null } | { facing: 'user' | 'environment' }): Promise<void>;
  switchMicrophone(deviceId: string | null): Promise<void>;
  dismissError(): void;
}

/** Why 'Iniciar' failed: the server's own word on a refusal (a reopen conflict, say), else the provider's reason. */
function startFailureDetail(err: unknown, t: ReturnType<typeof useTranslation>['t']): string {
  if (isApiError(err) && err.status === 409 && !err.code.startsWith('HTTP_')) return err.message;
  const reason = err instanceof VideoClientError ? err.reason : isApiError(err) ? 'server' : 'failed';
  return t(`livehub.broadcast.reason.${reason}`);
}

function stopTracks(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * The seller's side of the broadcast: the camera preview, publishing through the configured
 * provider (loaded on demand), the server's start/stop (SPEC §4), mute, device and camera changes
 * while live, the 2-second readouts, the elapsed clock and the 5-second video track check (SPEC §9).
 */
export function useBroadcast(opts: BroadcastOptions): Broadcast {
  const { t } = useTranslation();
  const streamAction = useStreamActions();
  const [phase, setPhase] = useState<BroadcastPhase>('idle');
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [error, setError] = useState<Broadcast['error']>(null);
  const [link, setLink] = useState<PublishStatus | null>(null);
  const [stats, setStats] = useState<LinkStats>(NO_LINK_STATS);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [muted, setMuted] = useState(false);
  const [facing, setFacing] = useState<'user' | 'environment'>('user');

  // What effects and callbacks share without re-rendering: the live stream, the handle, the session.
  const streamRef = useRef<MediaStream | null>(null);
  const handleRef = useRef<PublishHandle | null>(null);
  const publishingSessionRef = useRef<string | null>(null);
  const mutedRef = useRef(false);
  const optsRef = useRef(opts);
  optsRef.current = opts;

  const setLocalStream = useCallback((next: MediaStream | null) => {
    streamRef.current = next;
    setStream(next);
  }, []);

  const fail = useCallback((title: string, detail: string | null = null) => {
    setError({ title, detail });
    setPhase('error');
  }, []);

  /** The camera and microphone, asked once (the browser's permission prompt); a refusal is SPEC's preview message. */
  const capture = useCallback(async (): Promise<MediaStream | null> => {
    if (streamRef.current?.getTracks().some((track) => track.readyState === 'live')) return streamRef.current;
    if (!navigator.mediaDevices?.getUserMedia) {
      fail(t('livehub.broadcast.previewFailed'), t('livehub.broadcast.noMediaDevices'));
      return null;
    }
    const { cameraId, microphoneId } = optsRef.current;
    try {
      const media = await navigator.mediaDevices.getUserMedia(captureConstraints(cameraId, microphoneId));
      for (const track of media.getAudioTracks()) track.enabled = !mutedRef.current;
      setLocalStream(media);
      optsRef.current.onDevicesAllowed?.();
      return media;
    } catch (err) {
      const name = err instanceof DOMException ? err.name : '';
      const detail =
        name === 'NotFoundError' || name === 'OverconstrainedError'
          ? t('livehub.broadcast.noCamera')
          : name === 'NotReadableError'
            ? t('livehub.broadcast.cameraBusy')
            : null;
      fail(t('livehub.broadcast.previewFailed'), detail);
      return null;
    }
  }, [fail, setLocalStream, t]);

  const preview = useCallback(async () => {
    setError(null);
    if (await capture()) setPhase((p) => (p === 'publishing' ? p : 'previewing'));
  }, [capture]);

  const stopPreview = useCallback(() => {
    if (handleRef.current) return;
    stopTracks(streamRef.current);
    setLocalStream(null);
    setPhase('idle');
  }, [setLocalStream]);

  const start = useCallback(
    async (startOpts: { reopen?: boolean } = {}): Promise<'started' | 'sessionEnded' | 'failed'> => {
      const { sessionId, video } = optsRef.current;
      setError(null);
      if (!sessionId) {
        fail(t('livehub.broadcast.needSession'));
        return 'failed';
      }
      if (!video) {
        fail(t('livehub.broadcast.startFailed'), t('livehub.broadcast.reason.unavailable'));
        return 'failed';
      }
      if (handleRef.current) return 'failed';
      setPhase('starting');
      const media = await capture();
      if (!media) return 'failed';
      let handle: PublishHandle | null = null;
      try {
        const client = await loadVideoClient(video.provider);
        handle = await client.publish({ sessionId, stream: media, config: video, socket: getSocket(), onStatus: setLink });
        handleRef.current = handle;
        publishingSessionRef.current = sessionId;
        await streamAction(sessionId, 'start', { reopen: startOpts.reopen });
        setStartedAt(Date.now());
        setPhase('publishing');
        return 'started';
      } catch (err) {
        handleRef.current = null;
        publishingSessionRef.current = null;
        await handle?.stop().catch(() => {});
        setLink(null);
        if (!startOpts.reopen && isSessionEndedError(err)) {
          setPhase(streamRef.current ? 'previewing' : 'idle');
          return 'sessionEnded';
        }
        fail(t('livehub.broadcast.startFailed'), startFailureDetail(err, t));
        return 'failed';
      }
    },
    [capture, fail, streamAction, t],
  );

  const stop = useCallback(async () => {
    const handle = handleRef.current;
    const sessionId = publishingSessionRef.current ?? optsRef.current.sessionId;
    setPhase('stopping');
    handleRef.current = null;
    publishingSessionRef.current = null;
    await handle?.stop().catch(() => {});
    stopTracks(streamRef.current);
    setLocalStream(null);
    setLink(null);
    setStats(NO_LINK_STATS);
    setStartedAt(null);
    setPhase('idle');
    if (sessionId) {
      try {
        await streamAction(sessionId, 'stop');
      } catch {
        setError({ title: t('livehub.broadcast.stopFailed'), detail: null });
      }
    }
  }, [setLocalStream, streamAction, t]);

  const toggleMute = useCallback(() => {
    const next = !mutedRef.current;
    mutedRef.current = next;
    for (const track of streamRef.current?.getAudioTracks() ?? []) track.enabled = !next;
    setMuted(next);
  }, []);

  /** Replaces one kind of track in the local stream and, while publishing, in what is sent. */
  const replace = useCallback(
    async (constraints: MediaStreamConstraints, kind: 'video' | 'audio') => {
      const current = streamRef.current;
      if (!current) return;
      const media = await navigator.mediaDevices.getUserMedia(constraints);
      const track = kind === 'video' ? media.getVideoTracks()[0] : media.getAudioTracks()[0];
      if (!track) return;
      if (kind === 'audio') track.enabled = !mutedRef.current;
      await handleRef.current?.replaceTrack(track);
      const old = kind === 'video' ? current.getVideoTracks() : current.getAudioTracks();
      const next = new MediaStream([...current.getTracks().filter((x) => x.kind !== kind), track]);
      for (const o of old) o.stop();
      setLocalStream(next);
    },
    [setLocalStream],
  );

  const switchCamera = useCallback(
    async (to: { deviceId: string | null } | { facing: 'user' | 'environment' }) => {
      try {
        if ('facing' in to) {
          await replace({ video: captureConstraints(null, null, to.facing).video, audio: false }, 'video');
          setFacing(to.facing);
        } else {
          await replace({ video: captureConstraints(to.deviceId, null).video, audio: false }, 'video');
        }
      } catch {
        setError({ title: t('livehub.broadcast.cameraSwitchFailed'), detail: null });
      }
    },
    [replace, t],
  );

  const switchMicrophone = useCallback(
    async (deviceId: string | null) => {
      try {
        await replace({ audio: captureConstraints(null, deviceId).audio, video: false }, 'audio');
      } catch {
        setError({ title: t('livehub.broadcast.microphoneSwitchFailed'), detail: null });
      }
    },
    [replace, t],
  );

  const dismissError = useCallback(() => {
    setError(null);
    setPhase((p) => (p === 'error' ? (streamRef.current ? 'previewing' : 'idle') : p));
  }, []);

  const isPublishing = phase === 'publishing';

  // Another tab or device of an editor took the broadcast over: this page lets go (the session stays live).
  useEffect(() => {
    if (link !== 'replaced') return;
    const handle = handleRef.current;
    handleRef.current = null;
    publishingSessionRef.current = null;
    void handle?.stop().catch(() => {});
    stopTracks(streamRef.current);
    setLocalStream(null);
    setStats(NO_LINK_STATS);
    setStartedAt(null);
    setLink(null);
    fail(t('livehub.broadcast.replaced'));
  }, [link, fail, setLocalStream, t]);

  // SPEC §9: the 2-second readouts and the 1-second clock while publishing.
  useEffect(() => {
    if (!isPublishing) return;
    const sample = () =>
      void handleRef.current
        ?.stats()
        .then(setStats)
        .catch(() => {});
    sample();
    const statsTimer = window.setInterval(sample, STATS_EVERY_MS);
    const clock = window.setInterval(() => setNow(Date.now()), ELAPSED_EVERY_MS);
    return () => {
      window.clearInterval(statsTimer);
      window.clearInterval(clock);
    };
  }, [isPublishing]);

  // SPEC §4: every 5 s while publishing, a disabled video track is re-enabled.
  useEffect(() => {
    if (!isPublishing) return;
    const timer = window.setInterval(() => {
      for (const track of streamRef.current?.getVideoTracks() ?? []) if (!track.enabled) track.enabled = true;
    }, TRACK_CHECK_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [isPublishing]);

  // Loading another session, or leaving the Hub, ends this broadcast's media (not the server's state:
  // a reload may resume it).
  useEffect(() => {
    return () => {
      void handleRef.current?.stop().catch(() => {});
      handleRef.current = null;
      stopTracks(streamRef.current);
      streamRef.current = null;
    };
  }, []);

  return {
    phase,
    stream,
    error,
    link,
    stats,
    startedAt,
    elapsedMs: startedAt ? Math.max(0, now - startedAt) : 0,
    muted,
    facing,
    preview,
    stopPreview,
    start,
    stop,
    toggleMute,
    switchCamera,
    switchMicrophone,
    dismissError,
  };
}
