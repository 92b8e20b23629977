import { ActionIcon, Badge, Button, Stack, Text, VisuallyHidden } from '@mantine/core';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { formatElapsed } from '../../../domain/video.js';
import type { LiveSessionData } from '../../api/live';
import { useUpdateSession } from '../../api/live-hub';
import { ChevronLeftIcon, EyeIcon } from '../../components/icons';
import { TOASTS_HEIGHT_VAR, TOASTS_TOP_VAR } from '../../components/notifications-place';
import { CameraIcon, FlipCameraIcon, MicIcon, MicOffIcon, PlayIcon, StopIcon } from '../../components/panel-icons';
import { RehearsalBanner } from '../../components/rehearsal-banner';
import layer from '../../components/video-layer.module.css';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { BroadcastAlerts } from '../broadcast/broadcast-alerts';
import type { Broadcast } from '../broadcast/use-broadcast';
import { useCameraElement } from '../broadcast/use-camera-element';
import { usePromptUnmute } from '../broadcast/use-prompt-unmute';
import { HubChatPanel } from '../chat/hub-chat-panel';
import { ReopenPrompt, useAskReopen } from '../hub-prompts';
import { HUB_WINDOW } from '../hub-windows';
import { SessionStatusBadge } from '../session-bar';
import { ShortenPrompt, useTimerActions } from '../timer-actions';
import { useSessionBroadcast } from '../use-session-broadcast';
import classes from './phone-hub.module.css';
import { PhoneLotActions } from './phone-lot-actions';
import { PhoneLotCard } from './phone-lot-card';
import { PhoneLotsSheet } from './phone-lots-sheet';
import { PhoneMoreSheet } from './phone-more-sheet';
import { AutoAdvanceStrip, PhoneQuestion, PhoneSheet } from './phone-sheet';
import { PHONE_WINDOW } from './phone-windows';

interface PhoneHubProps {
  detail: LiveSessionData;
  viewerCount: number | null;
  /** The current lot's leader, masked, while the Hub follows its bids. */
  leaderName: string | null;
  /** Back to the list of shows ('<' and 'Cambiar de show'), once the broadcast stopped if it was on. */
  onLeave: () => void;
  /** The windows the Hub screen owns (live-hub.tsx): the picker, the quick auction, 'Editar Sesión'. */
  onAddLot: () => void;
  onQuickAuction: () => void;
  onEditSession: () => void;
}

type Sheet = 'none' | 'lots' | 'chat' | 'more';
type Question = 'none' | 'leave' | 'end';

/**
 * The Live Hub on a phone: the seller runs the whole show with one hand. The camera fills the
 * screen; over its bottom third, in the thumb's reach, the auto-advance countdown, the lot on the
 * block (price, bids, the countdown), the timer buttons, 'Siguiente lote', the lots, the chat and
 * 'Más' (each a bottom sheet), and the broadcast's own controls: start or stop, the microphone, the
 * other camera. The desktop Hub's hooks do the work, so both screens behave alike. Leaving while on
 * the air asks first, and stops the broadcast.
 */
export function PhoneHub({ detail, viewerCount, leaderName, onLeave, onAddLot, onQuickAuction, onEditSession }: PhoneHubProps) {
  const { t } = useTranslation();
  const { session } = detail;
  const { broadcast, isDisabled, reopenPrompt, startBroadcast } = useSessionBroadcast(session);
  const timers = useTimerActions(detail);
  const promptUnmute = usePromptUnmute(session.id);
  const update = useUpdateSession();
  const [sheet, setSheet] = useState<Sheet>('none');
  const [question, setQuestion] = useState<Question>('none');
  const [isLeaving, setLeaving] = useState(false);
  const lotReopen = useAskReopen();
  const isLive = broadcast.phase === 'publishing';
  const isBusy = broadcast.phase === 'starting' || broadcast.phase === 'stopping';
  const isOnAir = isLive || broadcast.phase === 'starting';
  // A broadcast the server still has open while this page does not publish (a reload, a crash).
  const isOrphaned = session.broadcasting && !isLive && !isBusy;
  const topRef = useRef<HTMLDivElement>(null);
  const controlsRef = useRef<HTMLElement>(null);
  useToastsBetween(topRef, controlsRef);

  // On a phone the Hub is the camera: it shows as soon as the page opens (the permission prompt
  // is the browser's), unless the show is over. A refusal is the broadcast's own message, with
  // 'Vista previa' to try again.
  const { preview } = broadcast;
  const previewed = useRef(false);
  const isEnded = session.status === 'ended';
  useEffect(() => {
    if (previewed.current || !detail.canEdit || isEnded) return;
    previewed.current = true;
    void preview();
  }, [preview, detail.canEdit, isEnded]);

  // The reopen question is a window of the Hub's stack, which an open sheet would hide: the sheet closes first.
  const askReopenFromSheet = () => {
    setSheet('none');
    return lotReopen.ask();
  };

  /** '<' and 'Cambiar de show': straight back to the shows, or, while on the air, after the question. */
  const requestLeave = () => {
    if (isOnAir) setQuestion('leave');
    else onLeave();
  };
  const leaveNow = async () => {
    setLeaving(true);
    await broadcast.stop();
    onLeave();
  };
  const endShow = () => update.mutate({ id: session.id, input: { status: 'ended' } }, { onSuccess: () => setQuestion('none') });

  return (
    <main className={classes.stage} data-testid="phone-hub" data-session-id={session.id} data-phase={broadcast.phase} data-facing={broadcast.facing}>
      <CameraView broadcast={broadcast} />
      <div className={`${layer.layer} ${classes.layer}`}>
        <div ref={topRef} className={classes.top}>
          <header className={classes.topBar}>
            <ActionIcon variant="filled" color="dark" radius="xl" className={classes.square} onClick={requestLeave} aria-label={t('livehub.phone.back')}>
              <ChevronLeftIcon size={22} />
            </ActionIcon>
            <div className={classes.titleBlock}>
              <h1 className={classes.title} data-testid="phone-title">
                {session.title}
              </h1>
              <div className={classes.badges}>
                <SessionStatusBadge status={session.status} />
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
              </div>
            </div>
          </header>
          {session.rehearsal && <RehearsalBanner where="phoneHub" />}
        </div>

        <Stack gap={8} className={classes.alerts}>
          <BroadcastAlerts broadcast={broadcast} isDisabled={isDisabled} isOrphaned={isOrphaned} canEdit={detail.canEdit} overVideo />
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

        <section ref={controlsRef} className={classes.controls} aria-label={t('livehub.phone.controls')} data-testid="phone-controls">
          <AutoAdvanceStrip detail={detail} place="stage" />
          <PhoneLotCard detail={detail} leaderName={leaderName} />
          <PhoneLotActions
            detail={detail}
            timers={timers}
            onOpenLots={() => setSheet('lots')}
            onOpenChat={() => setSheet('chat')}
            onOpenMore={() => setSheet('more')}
          />
          {detail.canEdit && <BroadcastRow broadcast={broadcast} isDisabled={isDisabled} onStart={startBroadcast} />}
        </section>
      </div>

      {sheet === 'lots' && <PhoneLotsSheet detail={detail} onClose={() => setSheet('none')} onAskReopen={askReopenFromSheet} />}
      {sheet === 'chat' && (
        <PhoneSheet detail={detail} title={t('livehub.phone.chatTitle')} onClose={() => setSheet('none')} testId="phone-chat-sheet">
          <HubChatPanel sessionId={session.id} isEnded={isEnded} variant="sheet" />
        </PhoneSheet>
      )}
      {sheet === 'more' && (
        <PhoneMoreSheet
          detail={detail}
          timers={timers}
          onClose={() => setSheet('none')}
          actions={{
            onAddLot,
            onQuickAuction,
            onEditSession,
            onPromptUnmute: () => void promptUnmute(),
            onChangeShow: requestLeave,
            onEndShow: () => {
              update.reset();
              setQuestion('end');
            },
          }}
        />
      )}
      {question === 'leave' && (
        <PhoneQuestion
          title={t('livehub.phone.leaveTitle')}
          cancelLabel={t('livehub.phone.leaveCancel')}
          confirmLabel={t('livehub.phone.leaveConfirm')}
          isPending={isLeaving}
          onCancel={() => setQuestion('none')}
          onConfirm={() => void leaveNow()}
          testId="phone-leave-question"
        >
          <Text size="sm">{t('livehub.phone.leaveText')}</Text>
        </PhoneQuestion>
      )}
      {question === 'end' && (
        <PhoneQuestion
          title={t('livehub.phone.endTitle')}
          cancelLabel={t('livehub.phone.endCancel')}
          confirmLabel={t('livehub.phone.endConfirm')}
          isPending={update.isPending}
          onCancel={() => setQuestion('none')}
          onConfirm={endShow}
          testId="phone-end-question"
        >
          <Text size="sm">{isOnAir ? t('livehub.phone.endTextLive') : t('livehub.phone.endText')}</Text>
          {session.rehearsal && <Text size="sm">{t('livehub.phone.endRehearsal')}</Text>}
          {update.isError && (
            <Text size="sm" c="red.8" role="alert">
              {apiErrorText(update.error, { networkMessage: t('common.networkError'), fallback: t('livehub.phone.endFailed') })}
            </Text>
          )}
        </PhoneQuestion>
      )}
      <ShortenPrompt prompt={timers.shortenPrompt} />
      <ReopenPrompt stackId={HUB_WINDOW.streamReopen} {...reopenPrompt} />
      <ReopenPrompt stackId={PHONE_WINDOW.sheetReopen} {...lotReopen.prompt} />
    </main>
  );
}

/**
 * Toasts (Mantine's notifications, notifications-container.tsx) show between the top bar and the
 * controls while the phone Hub is on screen: never over the title, the lot card or a button.
 */
function useToastsBetween(topRef: RefObject<HTMLElement | null>, bottomRef: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const top = topRef.current;
    const bottom = bottomRef.current;
    if (!top || !bottom) return;
    const root = document.documentElement.style;
    const place = () => {
      const from = top.getBoundingClientRect().bottom + TOAST_GAP_PX;
      const to = bottom.getBoundingClientRect().top - TOAST_GAP_PX;
      root.setProperty(TOASTS_TOP_VAR, `${Math.round(from)}px`);
      root.setProperty(TOASTS_HEIGHT_VAR, `${Math.max(0, Math.round(to - from))}px`);
    };
    place();
    const observer = new ResizeObserver(place);
    observer.observe(top);
    observer.observe(bottom);
    window.addEventListener('resize', place);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', place);
      root.removeProperty(TOASTS_TOP_VAR);
      root.removeProperty(TOASTS_HEIGHT_VAR);
    };
  }, [topRef, bottomRef]);
}

const TOAST_GAP_PX = 8;

/** The local camera, filling the screen (muted: the seller must not hear itself). */
function CameraView({ broadcast }: { broadcast: Broadcast }) {
  const { stream } = broadcast;
  const videoRef = useCameraElement(stream);
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
