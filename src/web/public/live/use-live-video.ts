import { useEffect, useState } from 'react';
import { usePublicConfig } from '../../api/config';
import { getSocket } from '../../api/socket';
import { loadVideoClient } from '../../video/load-client';
import type { WatchHandle, WatchStatus } from '../../video/types';

export interface LiveVideoFeed {
  /** The seller's video and audio, once they arrive. */
  stream: MediaStream | null;
  /** null while the broadcast is off. */
  status: WatchStatus | null;
}

/**
 * Watches the session's video while the seller broadcasts (`broadcasting` from the session's
 * state, which the server keeps current). The provider's client reconnects by itself (a lost
 * network, a phone waking up, the seller reloading); the price and the countdown never come from
 * here. With `audioOnly` ('Ahorro de datos') only the sound is received; changing it watches again.
 */
export function useLiveVideo(sessionId: string, broadcasting: boolean, audioOnly = false): LiveVideoFeed {
  const config = usePublicConfig();
  const video = config.data?.video ?? null;
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [status, setStatus] = useState<WatchStatus | null>(null);

  useEffect(() => {
    if (!broadcasting || !video) {
      setStream(null);
      setStatus(null);
      return;
    }
    let handle: WatchHandle | null = null;
    let cancelled = false;
    setStatus('connecting');
    loadVideoClient(video.provider)
      .then((client) => {
        if (cancelled) return;
        handle = client.watch({
          sessionId,
          config: video,
          socket: getSocket(),
          audioOnly,
          onStream: (next) => {
            if (!cancelled) setStream(next);
          },
          onStatus: (next) => {
            if (!cancelled) setStatus(next);
          },
        });
      })
      .catch(() => {
        if (!cancelled) setStatus('failed');
      });
    return () => {
      cancelled = true;
      handle?.stop();
      setStream(null);
    };
  }, [sessionId, broadcasting, video, audioOnly]);

  return { stream, status };
}
