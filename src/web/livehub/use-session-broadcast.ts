import { useEffect, useRef } from 'react';
import type { LiveSessionPublic } from '../../domain/live.js';
import { LOT_TIMER_EVENT } from '../../domain/realtime.js';
import { usePublicConfig } from '../api/config';
import { useSocketEvent } from '../api/socket';
import { useTranslation } from '../i18n';
import { useBroadcast } from './broadcast/use-broadcast';
import { useBroadcastDisabled } from './broadcast/use-broadcast-disabled';
import { useMediaDevices } from './broadcast/use-devices';
import { forgetLeftOnAir, leftOnAir } from './broadcast/use-publishing';
import { useAskReopen } from './hub-prompts';
import { setOnAir } from './on-air';

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

  const { t } = useTranslation();
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

  // Closing the tab or reloading while on the air asks first (the browser's own question); if the
  // seller leaves anyway, usePublishing tells the server the broadcast stopped.
  const isOnAir = currentPhase === 'publishing' || currentPhase === 'starting';
  // The Hub's screen asks before a move inside the app would stop this broadcast (on-air.ts).
  const onAirId = session?.id ?? null;
  useEffect(() => {
    if (!isOnAir || !onAirId) return;
    setOnAir(onAirId);
    return () => setOnAir(null);
  }, [isOnAir, onAirId]);
  useEffect(() => {
    if (!isOnAir) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [isOnAir]);

  // The server stopped the broadcast this page sends (it heard nothing from it for a while, or an
  // editor's other device pressed 'Detener'): this page stops sending too and says so, rather than
  // look live while buyers read that the video stopped. Only a change seen while publishing counts.
  const isBroadcasting = session?.broadcasting ?? false;
  const sawBroadcasting = useRef(false);
  const { letGo } = broadcast;
  useEffect(() => {
    if (currentPhase !== 'publishing') {
      sawBroadcasting.current = false;
      return;
    }
    if (isBroadcasting) {
      sawBroadcasting.current = true;
      return;
    }
    if (!sawBroadcasting.current || status === 'ended') return;
    sawBroadcasting.current = false;
    void letGo(t('livehub.broadcast.stoppedByServer'));
  }, [currentPhase, isBroadcasting, status, letGo, t]);

  // A lot goes on the block: with Janus, this page asks for the keyframe the lot's recording starts on
  // (the embedded SFU asks the camera itself; see the server's 'recording-keyframe' reaction).
  const { requestKeyframe } = broadcast;
  useSocketEvent(LOT_TIMER_EVENT, (event) => {
    if (event.sessionId === session?.id) requestKeyframe();
  });

  // This tab reloaded while on the air: its page told the server the broadcast stopped as it went
  // (usePublishing), so the seller reads why it is off and that 'Iniciar' brings it back.
  // Said again once a preview (which clears old messages; the phone starts one by itself) shows the camera.
  const sessionId = session?.id ?? null;
  const { notify } = broadcast;
  useEffect(() => {
    if (!sessionId || !leftOnAir(sessionId)) return;
    if (currentPhase === 'idle' || currentPhase === 'previewing') notify(t('livehub.broadcast.stoppedOnReload'));
    if (currentPhase !== 'idle') forgetLeftOnAir();
  }, [sessionId, currentPhase, notify, t]);

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
