import { useCallback, useEffect, useState } from 'react';
import { CAMERA_STORAGE_KEY, MICROPHONE_STORAGE_KEY } from '../../../domain/video.js';

export interface DeviceOption {
  value: string;
  label: string;
}

function remembered(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function remember(key: string, value: string | null): void {
  try {
    if (value) window.localStorage.setItem(key, value);
    else window.localStorage.removeItem(key);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
}

/**
 * The cameras and microphones for the selectors (SPEC §2), the choice remembered in
 * `livehub.cameraId` / `livehub.microphoneId` (SPEC §7). Labels appear only once the page may use
 * the camera, so the list is read again after the first preview (`refresh`) and on `devicechange`.
 */
export function useMediaDevices() {
  const [cameras, setCameras] = useState<DeviceOption[]>([]);
  const [microphones, setMicrophones] = useState<DeviceOption[]>([]);
  const [cameraId, setCameraIdState] = useState<string | null>(() => remembered(CAMERA_STORAGE_KEY));
  const [microphoneId, setMicrophoneIdState] = useState<string | null>(() => remembered(MICROPHONE_STORAGE_KEY));

  const refresh = useCallback(async () => {
    if (!navigator.mediaDevices?.enumerateDevices) return;
    const devices = await navigator.mediaDevices.enumerateDevices().catch(() => [] as MediaDeviceInfo[]);
    const list = (kind: MediaDeviceKind, fallback: string) =>
      devices
        .filter((d) => d.kind === kind && d.deviceId)
        .map((d, i) => ({ value: d.deviceId, label: d.label || `${fallback} ${i + 1}` }))
        .filter((d, i, all) => all.findIndex((o) => o.value === d.value) === i);
    setCameras(list('videoinput', 'Cámara'));
    setMicrophones(list('audioinput', 'Micrófono'));
  }, []);

  useEffect(() => {
    void refresh();
    const media = navigator.mediaDevices;
    if (!media?.addEventListener) return;
    const onChange = () => void refresh();
    media.addEventListener('devicechange', onChange);
    return () => media.removeEventListener('devicechange', onChange);
  }, [refresh]);

  const setCameraId = useCallback((id: string | null) => {
    remember(CAMERA_STORAGE_KEY, id);
    setCameraIdState(id);
  }, []);
  const setMicrophoneId = useCallback((id: string | null) => {
    remember(MICROPHONE_STORAGE_KEY, id);
    setMicrophoneIdState(id);
  }, []);

  // A remembered device that is gone (unplugged, another computer) falls back to the default.
  const camera = cameraId && cameras.some((c) => c.value === cameraId) ? cameraId : null;
  const microphone = microphoneId && microphones.some((m) => m.value === microphoneId) ? microphoneId : null;

  return { cameras, microphones, cameraId: camera, microphoneId: microphone, setCameraId, setMicrophoneId, refresh };
}

/** The constraints of a camera + microphone capture for the 9:16 show. */
export function captureConstraints(cameraId: string | null, microphoneId: string | null, facingMode?: 'user' | 'environment'): MediaStreamConstraints {
  return {
    video: {
      ...(cameraId ? { deviceId: { exact: cameraId } } : facingMode ? { facingMode } : {}),
      width: { ideal: 1280 },
      height: { ideal: 720 },
      frameRate: { ideal: 30, max: 30 },
    },
    audio: {
      ...(microphoneId ? { deviceId: { exact: microphoneId } } : {}),
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
    },
  };
}
