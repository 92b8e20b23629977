import { Badge, Box, Button, Center, Group, Loader, Stack, Text, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useCallback, useEffect, useRef } from 'react';
import { BroadcastIcon, EyeIcon, VolumeIcon, VolumeOffIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { playWithSound } from '../../video/playback';
import classes from './live-page.module.css';
import type { LivePageState } from './live-view';
import type { LiveVideoFeed } from './use-live-video';

const STATE_COLORS: Record<LivePageState, string> = { scheduled: 'gray', starting: 'oro', live: 'red', paused: 'orange', ended: 'dark' };

interface LiveVideoProps {
  title: string;
  coverImageUrl: string | null;
  pageState: LivePageState;
  viewerCount: number | null;
  /** The seller's video (use-live-video.ts); null before and after the broadcast. */
  feed: LiveVideoFeed;
  /** The page starts muted (browsers allow autoplay only so); 'Activar audio' turns it on. */
  muted: boolean;
  onMutedChange(muted: boolean): void;
  /** The seller stopped the broadcast while this page watched. */
  stopped: boolean;
  /** Shown over the bottom of the video (the lot on the block). */
  overlay?: ReactNode;
  /** The phone's show: the video fills the screen, and `controls` (drawn over it) replaces the state badge, the viewer count and the sound button. */
  fill?: boolean;
  controls?: (sound: VideoSound) => ReactNode;
  /** 'Ahorro de datos': the feed carries the sound only; the cover stays with a note, and the switch turns the video back on. */
  dataSaver?: boolean;
  onDataSaverChange?(on: boolean): void;
}

/** What a custom top bar needs to show the show's state and the sound button. */
export interface VideoSound {
  isPlaying: boolean;
  muted: boolean;
  /** The seller stopped the broadcast and no video plays. */
  isStopped: boolean;
  /** Call in the tap itself: phones allow sound only while handling one. */
  toggleSound: () => void;
  /** The seller broadcasts, so 'Ahorro de datos' has something to save. */
  canSaveData: boolean;
  dataSaver: boolean;
  toggleDataSaver: () => void;
}

/**
 * The 9:16 player (SPEC §2), with the show's state and the viewer count over it. The session's
 * cover fills it until the video arrives, and again when the broadcast stops.
 */
export function LiveVideo({
  title,
  coverImageUrl,
  pageState,
  viewerCount,
  feed,
  muted,
  onMutedChange,
  stopped,
  overlay,
  fill,
  controls,
  dataSaver = false,
  onDataSaverChange,
}: LiveVideoProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const { stream, status } = feed;

  // The buyer's sound choice, read when a new stream arrives (the seller resumed, a reconnect).
  const soundRef = useRef(!muted);
  soundRef.current = !muted;
  const onMutedChangeRef = useRef(onMutedChange);
  onMutedChangeRef.current = onMutedChange;

  /** Plays with the buyer's sound; a browser that refuses it without a tap plays the picture muted and the page offers 'Activar audio' again. */
  const play = useCallback((element: HTMLVideoElement) => {
    const sound = soundRef.current;
    void playWithSound(element, sound).then((outcome) => {
      if (outcome === 'muted' && soundRef.current === sound) onMutedChangeRef.current(true);
    });
  }, []);

  // The same <video> plays every stream of the page's life, so the sound the buyer turned on stays on.
  useEffect(() => {
    const element = videoRef.current;
    if (!element) return;
    if (element.srcObject !== stream) element.srcObject = stream;
    if (stream) play(element);
  }, [stream, play]);

  // The banner's 'Activar audio' (the toggle applies it in its own tap, below).
  useEffect(() => {
    const element = videoRef.current;
    if (!element || element.muted === muted) return;
    if (muted || !element.srcObject) element.muted = muted;
    else play(element);
  }, [muted, play]);

  // In the tap itself: phones allow sound only while handling one.
  const toggleSound = () => {
    const element = videoRef.current;
    soundRef.current = muted;
    if (element?.srcObject) play(element);
    onMutedChange(!muted);
  };

  const isPlaying = Boolean(stream) && status === 'playing';
  // With 'Ahorro de datos' the <video> plays the sound alone: the cover stays in its place.
  const showsPicture = isPlaying && !dataSaver;
  const canSaveData = status !== null && Boolean(onDataSaverChange);
  const toggleDataSaver = () => onDataSaverChange?.(!dataSaver);
  // Stopping sets the session back to scheduled (SPEC §4), which alone would read 'Por comenzar'
  // under the notice that the seller stopped: the badge says what happened instead.
  const isStopped = stopped && !stream;
  const notice =
    status === 'connecting' || status === 'waiting'
      ? t(status === 'waiting' ? 'live.video.waiting' : 'live.video.connecting')
      : status === 'reconnecting' || status === 'failed'
        ? t(status === 'failed' ? 'live.video.failed' : 'live.video.reconnecting')
        : status === 'unsupported'
          ? t('live.video.unsupported')
          : null;

  return (
    <Box
      // Filling the phone's screen it is the stage the show's controls sit on, not a region of its own.
      component={fill ? 'div' : 'section'}
      aria-label={fill ? undefined : t('live.video.label')}
      className={classes.video}
      data-video-slot
      data-fill={fill || undefined}
      data-state={pageState}
      data-video-status={status ?? 'off'}
    >
      {!showsPicture &&
        (coverImageUrl ? (
          <img src={coverImageUrl} alt={t('live.video.cover', { title })} className={classes.cover} />
        ) : (
          <Center className={classes.videoPlaceholder}>
            <BroadcastIcon size={56} />
          </Center>
        ))}
      <video
        ref={videoRef}
        className={classes.player}
        muted
        autoPlay
        playsInline
        data-testid="live-player"
        style={{ visibility: showsPicture ? 'visible' : 'hidden' }}
      />
      {isPlaying && dataSaver && (
        <Text className={classes.audioOnlyNote} size="sm" fw={600} role="status" data-testid="audio-only-note">
          {t('live.video.audioOnly')}
        </Text>
      )}
      {controls ? controls({ isPlaying, muted, isStopped, toggleSound, canSaveData, dataSaver, toggleDataSaver }) : null}
      {!controls && (
        <Group className={classes.overlayTop} justify="space-between" wrap="nowrap">
          <Badge color={isStopped ? 'gray' : STATE_COLORS[pageState]} variant="filled" size="lg" tt="none" data-testid="live-status">
            {t(isStopped ? 'live.status.stopped' : `live.status.${pageState}`)}
          </Badge>
          {viewerCount !== null && (
            <Group
              gap={4}
              wrap="nowrap"
              className={classes.viewers}
              title={t('live.viewers', { count: viewerCount })}
              data-testid="viewer-count"
              data-count={viewerCount}
            >
              <EyeIcon size={16} />
              <Text size="sm" fw={600} span aria-hidden="true">
                {viewerCount}
              </Text>
              <VisuallyHidden>{t('live.viewers', { count: viewerCount })}</VisuallyHidden>
            </Group>
          )}
        </Group>
      )}
      {(notice || isStopped) && (
        <Stack className={classes.videoNotice} gap={6} align="center" role="status" data-testid={isStopped ? 'video-stopped' : 'video-notice'}>
          {notice && status !== 'failed' && status !== 'unsupported' && <Loader size="sm" color="white" />}
          <Text size="sm" ta="center" fw={600}>
            {isStopped ? t('live.video.stopped') : notice}
          </Text>
        </Stack>
      )}
      {isPlaying && !controls && (
        <Button
          className={classes.audioToggle}
          size="xs"
          variant={muted ? 'white' : 'filled'}
          color={muted ? 'dark' : 'dark'}
          leftSection={muted ? <VolumeIcon size={14} /> : <VolumeOffIcon size={14} />}
          onClick={toggleSound}
          data-testid="audio-toggle"
          aria-pressed={!muted}
        >
          {muted ? t('live.video.unmute') : t('live.video.mute')}
        </Button>
      )}
      {canSaveData && !controls && (
        <Button
          className={classes.dataSaverToggle}
          size="xs"
          variant={dataSaver ? 'filled' : 'white'}
          color="dark"
          onClick={toggleDataSaver}
          data-testid="data-saver-toggle"
          aria-pressed={dataSaver}
          title={t('live.video.dataSaverHint')}
        >
          {t('live.video.dataSaver')}
        </Button>
      )}
      {overlay}
    </Box>
  );
}
