import { ActionIcon, Alert, Badge, Button, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { formatElapsed } from '../../../domain/video.js';
import type { LiveSessionData } from '../../api/live';
import { ChevronLeftIcon, EyeIcon } from '../../components/icons';
import { NativeDialog } from '../../components/native-dialog';
import { CameraIcon, FlipCameraIcon, MicIcon, MicOffIcon, PlayIcon, StopIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import type { Broadcast } from '../broadcast/use-broadcast';
import { HubChatPanel } from '../chat/hub-chat-panel';
import { ReopenPrompt, useAskReopen } from '../hub-prompts';
import { HUB_WINDOW } from '../hub-windows';
import { SessionStatusBadge } from '../session-bar';
import { useSessionBroadcast } from '../use-session-broadcast';
import classes from './phone-hub.module.css';
import { PhoneLotActions } from './phone-lot-actions';
import { PhoneLotCard } from './phone-lot-card';
import { PhoneLotsSheet } from './phone-lots-sheet';
import { PHONE_WINDOW } from './phone-windows';

interface PhoneHubProps {
  detail: LiveSessionData;
  viewerCount: number | null;
  /** The current lot's leader, masked, while the Hub follows its bids. */
  leaderName: string | null;
  /** Back to the sessions (the header and the session bar). */
  onLeave: () => void;
}

type Sheet = 'none' | 'lots' | 'chat';

/**
 * The Live Hub on a phone: the seller runs the whole show with one hand. The camera fills the
 * screen; over its bottom third, in the thumb's reach, the lot on the block (price, bids, the
 * countdown), the timer buttons, 'Siguiente lote', the lots and the chat (each a bottom sheet), and
 * the broadcast's own controls: start or stop, the microphone, the other camera. The desktop Hub's
 * hooks do the work, so both screens behave alike.
 */
export function PhoneHub({ detail, viewerCount, leaderName, onLeave }: PhoneHubProps) {
  const { t } = useTranslation();
  const { session } = detail;
  const { broadcast, isDisabled, reopenPrompt, startBroadcast } = useSessionBroadcast(session);
  const [sheet, setSheet] = useState<Sheet>('none');
  const lotReopen = useAskReopen();
  const isLive = broadcast.phase === 'publishing';
  const isBusy = broadcast.phase === 'starting' || broadcast.phase === 'stopping';
  // A broadcast the server still has open while this page does not publish (a reload, a crash).
  const isOrphaned = session.broadcasting && !isLive && !isBusy;

  // On a phone the Hub is the camera: it shows as soon as the page opens (the permission prompt
  // is the browser's). A refusal is the broadcast's own message, with 'Vista previa' to try again.
  const { preview } = broadcast;
  const previewed = useRef(false);
  useEffect(() => {
    if (previewed.current || !detail.canEdit) return;
    previewed.current = true;
    void preview();
  }, [preview, detail.canEdit]);

  // The reopen question is a window of the Hub's stack, which an open sheet would hide: the sheet closes first.
  const askReopenFromSheet = () => {
    setSheet('none');
    return lotReopen.ask();
  };

  return (
    <main className={classes.stage} data-testid="phone-hub" data-session-id={session.id} data-phase={broadcast.phase} data-facing={broadcast.facing}>
      <CameraView broadcast={broadcast} />
      <div className={classes.layer}>
        <header className={classes.topBar}>
          <ActionIcon variant="filled" color="dark" radius="xl" className={classes.square} onClick={onLeave} aria-label={t('livehub.phone.back')}>
            <ChevronLeftIcon size={22} />
          </ActionIcon>
          <div className={classes.titleBlock}>
            <h1 className={classes.title}>{session.title}</h1>
            <SessionStatusBadge status={session.status} />
          </div>
          {broadcast.stream && (
            <Badge color={isLive ? 'red' : 'dark'} variant="filled" data-testid="player-badge">
              {isLive ? t('livehub.broadcast.liveBadge') : t('livehub.broadcast.previewBadge')}
            </Badge>
          )}
          {isLive && (
            <Badge color="dark" variant="filled" tt="none" data-testid="elapsed">
              {formatElapsed(broadcast.elapsedMs)}
            </Badge>
          )}
          <Badge color="dark" variant="filled" tt="none" leftSection={<EyeIcon size={12} aria-hidden="true" />} data-testid="viewer-count">
            <span aria-hidden="true">{viewerCount ?? 0}</span>
            <VisuallyHidden>{`${t('livehub.transmission.viewersLabel')}: ${viewerCount ?? 0}`}</VisuallyHidden>
          </Badge>
        </header>

        <Stack gap={8}>
          {isDisabled && (
            <Alert color="yellow" variant="filled" p="xs" data-testid="broadcast-disabled">
              <Text size="sm">{t('livehub.broadcast.disabled')}</Text>
            </Alert>
          )}
          {broadcast.error && (
            <Alert
              color="red"
              variant="filled"
              role="alert"
              p="xs"
              title={broadcast.error.title}
              withCloseButton
              onClose={broadcast.dismissError}
              closeButtonLabel={t('common.close')}
              data-testid="broadcast-error"
            >
              {broadcast.error.detail}
            </Alert>
          )}
          {isOrphaned && detail.canEdit && (
            <Alert color="orange" variant="filled" p="xs" data-testid="broadcast-orphaned">
              <Text size="sm">{t('livehub.broadcast.orphaned')}</Text>
            </Alert>
          )}
        </Stack>

        {!broadcast.stream && detail.canEdit ? (
          <div className={classes.idle}>
            <Button
              variant="white"
              color="dark"
              className={classes.touch}
              leftSection={<CameraIcon size={18} />}
              onClick={() => void broadcast.preview()}
              disabled={isBusy}
            >
              {t('livehub.broadcast.preview')}
            </Button>
          </div>
        ) : (
          <div className={classes.spacer} />
        )}

        <section className={classes.controls} aria-label={t('livehub.phone.controls')} data-testid="phone-controls">
          <PhoneLotCard detail={detail} leaderName={leaderName} />
          <PhoneLotActions detail={detail} onOpenLots={() => setSheet('lots')} onOpenChat={() => setSheet('chat')} />
          {detail.canEdit && <BroadcastRow broadcast={broadcast} isDisabled={isDisabled} onStart={startBroadcast} />}
        </section>
      </div>

      {sheet === 'lots' && <PhoneLotsSheet detail={detail} onClose={() => setSheet('none')} onAskReopen={askReopenFromSheet} />}
      {sheet === 'chat' && (
        <NativeDialog title={t('livehub.phone.chatTitle')} size="sheet" closable onClose={() => setSheet('none')}>
          <HubChatPanel sessionId={session.id} isEnded={session.status === 'ended'} variant="sheet" />
        </NativeDialog>
      )}
      <ReopenPrompt stackId={HUB_WINDOW.streamReopen} {...reopenPrompt} />
      <ReopenPrompt stackId={PHONE_WINDOW.sheetReopen} {...lotReopen.prompt} />
    </main>
  );
}

/** The local camera, filling the screen (muted: the seller must not hear itself). */
function CameraView({ broadcast }: { broadcast: Broadcast }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const { stream } = broadcast;
  useEffect(() => {
    const element = videoRef.current;
    if (!element) return;
    if (element.srcObject !== stream) element.srcObject = stream;
    if (stream) void element.play().catch(() => {});
  }, [stream]);
  return (
    <video
      ref={videoRef}
      className={classes.video}
      muted
      playsInline
      autoPlay
      data-facing={broadcast.facing}
      data-testid="hub-video"
      style={{ display: stream ? 'block' : 'none' }}
    />
  );
}

/** 'Iniciar' or 'Detener', the microphone, and the other camera: the broadcast keeps going through a flip. */
function BroadcastRow({ broadcast, isDisabled, onStart }: { broadcast: Broadcast; isDisabled: boolean; onStart: () => Promise<void> }) {
  const { t } = useTranslation();
  const { phase } = broadcast;
  const isLive = phase === 'publishing';
  const flipTo = broadcast.facing === 'user' ? 'environment' : 'user';
  return (
    <div className={classes.row}>
      {isLive || phase === 'stopping' ? (
        <Button
          className={`${classes.grow} ${classes.touch}`}
          color="red"
          leftSection={<StopIcon size={16} />}
          onClick={() => void broadcast.stop()}
          loading={phase === 'stopping'}
          data-testid="phone-stop"
        >
          {t('livehub.broadcast.stop')}
        </Button>
      ) : (
        <Button
          className={`${classes.grow} ${classes.touch}`}
          color="red"
          leftSection={<PlayIcon size={16} />}
          onClick={() => void onStart()}
          loading={phase === 'starting'}
          disabled={isDisabled}
          data-testid="phone-start"
        >
          {t('livehub.broadcast.start')}
        </Button>
      )}
      <ActionIcon
        className={classes.square}
        variant={broadcast.muted ? 'filled' : 'white'}
        color={broadcast.muted ? 'red' : 'dark'}
        onClick={broadcast.toggleMute}
        aria-pressed={broadcast.muted}
        aria-label={t('livehub.phone.mute')}
        data-testid="mute-toggle"
      >
        {broadcast.muted ? <MicOffIcon size={20} /> : <MicIcon size={20} />}
      </ActionIcon>
      <ActionIcon
        className={classes.square}
        variant="white"
        color="dark"
        onClick={() => void broadcast.switchCamera({ facing: flipTo })}
        disabled={!broadcast.stream}
        aria-label={t('livehub.broadcast.flip')}
        data-testid="flip-camera"
      >
        <FlipCameraIcon size={20} />
      </ActionIcon>
    </div>
  );
}
