import { useEffect, useRef } from 'react';
import type { LiveSessionPublic } from '../../domain/live.js';
import { usePublicConfig } from '../api/config';
import { useBroadcast } from './broadcast/use-broadcast';
import { useBroadcastDisabled } from './broadcast/use-broadcast-disabled';
import { useMediaDevices } from './broadcast/use-devices';
import { useAskReopen } from './hub-prompts';

/**
 * The loaded session's broadcast: the configured provider, the chosen devices, and the session's
 * status followed: an ended session stops publishing, and 'Iniciar' on one asks to reopen it.
 */
export function useSessionBroadcast(session: LiveSessionPublic | null) {
  const config = usePublicConfig();
  const video = config.data?.video ?? null;
  const isDisabled = useBroadcastDisabled(video?.provider);
  const devices = useMediaDevices();
  const broadcast = useBroadcast({
    sessionId: session?.id ?? null,
    video,
    cameraId: devices.cameraId,
    microphoneId: devices.microphoneId,
    onDevicesAllowed: () => void devices.refresh(),
  });

  const reopen = useAskReopen();
  const status = session?.status ?? null;

  // The session ended (the status dropdown here, or an event from another tab): the show is over,
  // so this page stops publishing and turns the camera off.
  const lastStatus = useRef(status);
  const { phase: currentPhase, stop, stopPreview } = broadcast;
  useEffect(() => {
    const was = lastStatus.current;
    lastStatus.current = status;
    if (status !== 'ended' || was === 'ended') return;
    if (currentPhase === 'publishing' || currentPhase === 'starting') void stop();
    else stopPreview();
  }, [status, currentPhase, stop, stopPreview]);

  /** 'Iniciar': on an ended session, ask before it opens again; ask too when it ended meanwhile. */
  const startBroadcast = async () => {
    let isReopen = false;
    if (status === 'ended') {
      if (!(await reopen.ask())) return;
      isReopen = true;
    }
    const outcome = await broadcast.start({ reopen: isReopen });
    if (outcome === 'sessionEnded' && (await reopen.ask())) await broadcast.start({ reopen: true });
  };

  return { broadcast, devices, isDisabled, reopenPrompt: reopen.prompt, startBroadcast };
}
