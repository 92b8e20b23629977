import { useEffect, useRef } from 'react';

/** A <video> that shows the local camera's stream: set once per stream, and played as soon as there is one. */
export function useCameraElement(stream: MediaStream | null) {
  const videoRef = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = videoRef.current;
    if (!element) return;
    if (element.srcObject !== stream) element.srcObject = stream;
    if (stream) void element.play().catch(() => {});
  }, [stream]);
  return videoRef;
}
