import { ActionIcon, Alert, Box, Button, Group, Modal, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { LiveSessionPublic } from '../../domain/live.js';
import { livePath } from '../../domain/live-public.js';
import type { AgoraConfigAnswer } from '../../domain/video.js';
import { api } from '../api/client';
import { usePublicConfig } from '../api/config';
import { getSocket } from '../api/socket';
import { VolumeIcon } from '../components/icons';
import { CameraIcon, CopyIcon, FlipCameraIcon, MicIcon, MicOffIcon, PlayIcon, StopIcon } from '../components/panel-icons';
import { useTranslation } from '../i18n';
import { Player } from './broadcast/player';
import { LinkReadouts, MicMeter } from './broadcast/readouts';
import { useBroadcast } from './broadcast/use-broadcast';
import { useMediaDevices } from './broadcast/use-devices';
import { absoluteLink } from './hub-layout';
import { ReopenPrompt, useAskReopen } from './hub-prompts';
import { HUB_WINDOW } from './hub-windows';
import { SessionStatusBadge } from './session-bar';

/** SPEC §9's mobile breakpoint: the flip-camera button shows below it (with more than one camera). */
const MOBILE_QUERY = '(max-width: 780px)';
/** SPEC's long labels ('Detener vista previa', 'Pedir a los espectadores activar audio') wrap on a phone instead of being cut. */
const WRAP = { h: 'auto', mih: 36, py: 6, styles: { label: { whiteSpace: 'normal', textAlign: 'center' } } } as const;

async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** SPEC §7: Agora answers whether it is configured; the Hub says so before anyone clicks 'Iniciar'. */
function useBroadcastDisabled(provider: string | undefined): boolean {
  const agora = useQuery({
    queryKey: ['video', 'agora-config'],
    queryFn: ({ signal }) => api.get<AgoraConfigAnswer>('/api/agora-config', signal),
    enabled: provider === 'agora',
    staleTime: 60_000,
  });
  return provider === 'agora' && agora.data?.enabled === false;
}

/**
 * The transmission panel (SPEC §2, §4 "Broadcast state", §9): title, @slug, the public link, the
 * camera and microphone, preview, start and stop, mute, the unmute prompt, the microphone meter,
 * the 9:16 player with 'EN VIVO' / 'PREVIA' and the viewer count, the flip-camera button on a
 * phone, the link readouts and the elapsed clock. Mounted per session (keyed), so loading another
 * session ends this one's media.
 */
export function TransmissionPanel({ session, viewerCount, canEdit }: { session: LiveSessionPublic | null; viewerCount: number | null; canEdit: boolean }) {
  const { t } = useTranslation();
  const [shownLink, setShownLink] = useState<string | null>(null);
  const link = session ? absoluteLink(window.location.origin, livePath(session)) : '';
  const config = usePublicConfig();
  const video = config.data?.video ?? null;
  const disabled = useBroadcastDisabled(video?.provider);
  const devices = useMediaDevices();
  const isMobile = useMediaQuery(MOBILE_QUERY) ?? false;
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

  const copy = async () => {
    if (await copyText(link)) notifications.show({ color: 'green', message: t('livehub.transmission.linkCopied') });
    else setShownLink(link);
  };

  const promptUnmute = async () => {
    if (!session) return;
    const answer = await getSocket()
      .timeout(5000)
      .emitWithAck('promptUnmute', { sessionId: session.id })
      .catch(() => null);
    if (answer?.ok) notifications.show({ color: 'green', message: t('livehub.broadcast.unmuteAsked') });
    else notifications.show({ color: 'yellow', message: t('livehub.broadcast.unmuteAskFailed') });
  };

  const { phase } = broadcast;
  const isLive = phase === 'publishing';
  const isBusy = phase === 'starting' || phase === 'stopping';
  const hasMedia = Boolean(broadcast.stream);
  // A broadcast the server still has open while this page does not publish (a reload, a crash).
  const isOrphaned = Boolean(session?.broadcasting) && !isLive && !isBusy;

  return (
    <Paper radius="lg" p="md" component="section" aria-labelledby="livehub-transmission-title" data-testid="transmission-panel" data-phase={phase}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Box miw={0}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
              {t('livehub.transmission.title')}
            </Text>
            <Title order={2} size="h4" id="livehub-transmission-title" lineClamp={2}>
              {session ? session.title : t('livehub.broadcast.noSession')}
            </Title>
            {session && (
              <Text size="sm" c="dimmed" data-testid="session-slug">
                @{session.sellerSlug}
              </Text>
            )}
          </Box>
          {session && <SessionStatusBadge status={session.status} />}
        </Group>
        {session ? (
          <Group gap="xs" wrap="nowrap">
            <Button variant="light" leftSection={<CopyIcon size={16} />} onClick={() => void copy()} style={{ flexShrink: 0 }}>
              {t('livehub.transmission.copyLink')}
            </Button>
            <Text size="xs" c="dimmed" truncate="end" miw={0} title={link}>
              {livePath(session)}
            </Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('livehub.broadcast.noSessionHint')}
          </Text>
        )}

        {disabled && (
          <Alert color="yellow" variant="light" data-testid="broadcast-disabled">
            {t('livehub.broadcast.disabled')}
          </Alert>
        )}
        {broadcast.error && (
          <Alert
            color="red"
            variant="light"
            role="alert"
            title={broadcast.error.title}
            withCloseButton
            onClose={broadcast.dismissError}
            closeButtonLabel={t('common.close')}
            data-testid="broadcast-error"
          >
            {broadcast.error.detail}
          </Alert>
        )}
        {isOrphaned && canEdit && (
          <Alert color="orange" variant="light" data-testid="broadcast-orphaned">
            {t('livehub.broadcast.orphaned')}
          </Alert>
        )}

        <Player broadcast={broadcast} viewerCount={viewerCount} />

        {canEdit && (
          <>
            <Group gap="xs" grow align="stretch">
              {isLive || phase === 'stopping' ? (
                <Button {...WRAP} color="red" leftSection={<StopIcon size={16} />} onClick={() => void broadcast.stop()} loading={phase === 'stopping'}>
                  {t('livehub.broadcast.stop')}
                </Button>
              ) : (
                <Button
                  {...WRAP}
                  color="red"
                  variant="filled"
                  leftSection={<PlayIcon size={16} />}
                  onClick={() => void startBroadcast()}
                  loading={phase === 'starting'}
                  disabled={disabled}
                >
                  {t('livehub.broadcast.start')}
                </Button>
              )}
              {hasMedia && !isLive ? (
                <Button {...WRAP} variant="default" leftSection={<CameraIcon size={16} />} onClick={broadcast.stopPreview} disabled={isBusy}>
                  {t('livehub.broadcast.stopPreview')}
                </Button>
              ) : (
                <Button {...WRAP} variant="default" leftSection={<CameraIcon size={16} />} onClick={() => void broadcast.preview()} disabled={isBusy || isLive}>
                  {t('livehub.broadcast.preview')}
                </Button>
              )}
            </Group>
            {isOrphaned && (
              <Button variant="subtle" color="red" size="xs" onClick={() => void broadcast.stop()} data-testid="close-orphaned">
                {t('livehub.broadcast.closeOrphaned')}
              </Button>
            )}
            <Group gap="xs" wrap="nowrap" align="stretch">
              <Button
                {...WRAP}
                variant={broadcast.muted ? 'filled' : 'light'}
                color={broadcast.muted ? 'red' : 'gray'}
                leftSection={broadcast.muted ? <MicOffIcon size={16} /> : <MicIcon size={16} />}
                onClick={broadcast.toggleMute}
                aria-pressed={broadcast.muted}
                data-testid="mute-toggle"
              >
                {broadcast.muted ? t('livehub.broadcast.unmute') : t('livehub.broadcast.mute')}
              </Button>
              <Button
                {...WRAP}
                variant="light"
                leftSection={<VolumeIcon size={16} />}
                onClick={() => void promptUnmute()}
                disabled={!isLive || !session}
                style={{ flex: 1 }}
              >
                {t('livehub.broadcast.askUnmute')}
              </Button>
              {isMobile && devices.cameras.length > 1 && (
                <Tooltip label={t('livehub.broadcast.flip')}>
                  <ActionIcon
                    variant="light"
                    size="lg"
                    aria-label={t('livehub.broadcast.flip')}
                    onClick={() => void broadcast.switchCamera({ facing: broadcast.facing === 'user' ? 'environment' : 'user' })}
                    disabled={!hasMedia}
                  >
                    <FlipCameraIcon size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
            <MicMeter track={broadcast.stream?.getAudioTracks()[0] ?? null} muted={broadcast.muted} />
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
              <Select
                label={t('livehub.broadcast.camera')}
                placeholder={t('livehub.broadcast.defaultDevice')}
                data={devices.cameras}
                value={devices.cameraId}
                onChange={(id) => {
                  devices.setCameraId(id);
                  if (hasMedia) void broadcast.switchCamera({ deviceId: id });
                }}
                clearable
                allowDeselect
                comboboxProps={{ withinPortal: true }}
                data-testid="camera-select"
              />
              <Select
                label={t('livehub.broadcast.microphone')}
                placeholder={t('livehub.broadcast.defaultDevice')}
                data={devices.microphones}
                value={devices.microphoneId}
                onChange={(id) => {
                  devices.setMicrophoneId(id);
                  if (hasMedia) void broadcast.switchMicrophone(id);
                }}
                clearable
                allowDeselect
                comboboxProps={{ withinPortal: true }}
                data-testid="microphone-select"
              />
            </SimpleGrid>
            {isLive && <LinkReadouts stats={broadcast.stats} />}
          </>
        )}
      </Stack>
      <ReopenPrompt stackId={HUB_WINDOW.streamReopen} {...reopen.prompt} />
      <Modal
        stackId={HUB_WINDOW.publicLink}
        opened={shownLink !== null}
        onClose={() => setShownLink(null)}
        title={t('livehub.transmission.copyFailedTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('livehub.transmission.copyFailedText')}</Text>
          <TextInput
            readOnly
            value={shownLink ?? ''}
            aria-label={t('livehub.transmission.publicLink')}
            onFocus={(e) => e.currentTarget.select()}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button onClick={() => setShownLink(null)}>{t('livehub.transmission.close')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
