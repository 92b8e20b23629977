import { type RefObject, useCallback, useRef, useState } from 'react';
import { useTranslation } from '../../i18n';
import type { PublishHandle } from '../../video/types';
import type { BroadcastStatus } from './use-broadcast-status';
import { captureConstraints } from './use-devices';

export type Facing = 'user' | 'environment';

export interface LocalMediaOptions {
  cameraId: string | null;
  microphoneId: string | null;
  /** After the first capture: device labels become readable. */
  onDevicesAllowed?: () => void;
}

export function stopTracks(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * The local camera and microphone: the capture (the browser's permission prompt), mute, and
 * changing the camera or microphone, in what is sent too while `sender` publishes.
 */
export function useLocalMedia(
  options: LocalMediaOptions,
  { sender, fail, warn }: { sender: RefObject<PublishHandle | null> } & Pick<BroadcastStatus, 'fail' | 'warn'>,
) {
  const { t } = useTranslation();
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [muted, setMuted] = useState(false);
  const [facing, setFacing] = useState<Facing>('user');

  // What callbacks share without re-rendering: the live stream, the mute, the chosen devices.
  const streamRef = useRef<MediaStream | null>(null);
  const mutedRef = useRef(false);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const setLocalStream = useCallback((next: MediaStream | null) => {
    streamRef.current = next;
    setStream(next);
  }, []);

  /** Stops the camera and microphone and forgets the stream. */
  const release = useCallback(() => {
    stopTracks(streamRef.current);
    setLocalStream(null);
  }, [setLocalStream]);

  /** The camera and microphone, asked once (the browser's permission prompt); a refusal is SPEC's preview message. */
  const capture = useCallback(async (): Promise<MediaStream | null> => {
    if (streamRef.current?.getTracks().some((track) => track.readyState === 'live')) return streamRef.current;
    if (!navigator.mediaDevices?.getUserMedia) {
      fail(t('livehub.broadcast.previewFailed'), t('livehub.broadcast.noMediaDevices'));
      return null;
    }
    const { cameraId, microphoneId } = optionsRef.current;
    try {
      const media = await navigator.mediaDevices.getUserMedia(captureConstraints(cameraId, microphoneId));
      for (const track of media.getAudioTracks()) track.enabled = !mutedRef.current;
      setLocalStream(media);
      optionsRef.current.onDevicesAllowed?.();
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
      await sender.current?.replaceTrack(track);
      const old = kind === 'video' ? current.getVideoTracks() : current.getAudioTracks();
      const next = new MediaStream([...current.getTracks().filter((x) => x.kind !== kind), track]);
      for (const o of old) o.stop();
      setLocalStream(next);
    },
    [sender, setLocalStream],
  );

  const switchCamera = useCallback(
    async (to: { deviceId: string | null } | { facing: Facing }) => {
      try {
        if ('facing' in to) {
          await replace({ video: captureConstraints(null, null, to.facing).video, audio: false }, 'video');
          setFacing(to.facing);
        } else {
          await replace({ video: captureConstraints(to.deviceId, null).video, audio: false }, 'video');
        }
      } catch {
        warn(t('livehub.broadcast.cameraSwitchFailed'));
      }
    },
    [replace, warn, t],
  );

  const switchMicrophone = useCallback(
    async (deviceId: string | null) => {
      try {
        await replace({ audio: captureConstraints(null, deviceId).audio, video: false }, 'audio');
      } catch {
        warn(t('livehub.broadcast.microphoneSwitchFailed'));
      }
    },
    [replace, warn, t],
  );

  return { stream, streamRef, muted, facing, capture, release, toggleMute, switchCamera, switchMicrophone };
}

export type LocalMedia = ReturnType<typeof useLocalMedia>;
