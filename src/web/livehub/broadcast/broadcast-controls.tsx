import { ActionIcon, Button, Group, Select, SimpleGrid, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { VolumeIcon } from '../../components/icons';
import { CameraIcon, FlipCameraIcon, MicIcon, MicOffIcon, PlayIcon, StopIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { LinkReadouts, MicMeter } from './readouts';
import type { Broadcast } from './use-broadcast';
import type { useMediaDevices } from './use-devices';

/** SPEC §9's mobile breakpoint: the flip-camera button shows below it (with more than one camera). */
const MOBILE_QUERY = '(max-width: 780px)';
/** SPEC's long labels ('Detener vista previa', 'Pedir a los espectadores activar audio') wrap on a phone instead of being cut. */
const WRAP = { h: 'auto', mih: 36, py: 6, styles: { label: { whiteSpace: 'normal', textAlign: 'center' } } } as const;

interface BroadcastControlsProps {
  broadcast: Broadcast;
  devices: ReturnType<typeof useMediaDevices>;
  /** The provider is not configured: 'Iniciar' is off. */
  isDisabled: boolean;
  /** The server still has a broadcast open that this page does not publish. */
  isOrphaned: boolean;
  /** A session is loaded, so its viewers can be asked to turn the sound on. */
  hasSession: boolean;
  onStart: () => Promise<void>;
  onPromptUnmute: () => Promise<void>;
}

/**
 * An editor's controls over the player, in SPEC §2's order: the camera and microphone selectors,
 * start and stop, preview, closing an orphaned broadcast, mute, the unmute prompt, the flip-camera
 * button on a phone, the microphone meter and, while live, the link readouts.
 */
export function BroadcastControls({ broadcast, devices, isDisabled, isOrphaned, hasSession, onStart, onPromptUnmute }: BroadcastControlsProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery(MOBILE_QUERY) ?? false;
  const { phase } = broadcast;
  const isLive = phase === 'publishing';
  const isBusy = phase === 'starting' || phase === 'stopping';
  const hasMedia = Boolean(broadcast.stream);

  return (
    <>
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
            onClick={() => void onStart()}
            loading={phase === 'starting'}
            disabled={isDisabled}
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
          onClick={() => void onPromptUnmute()}
          disabled={!isLive || !hasSession}
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
      {isLive && <LinkReadouts stats={broadcast.stats} />}
    </>
  );
}
