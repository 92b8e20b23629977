import { Badge, Box, Stack, Text } from '@mantine/core';
import { formatElapsed } from '../../../domain/video.js';
import { BroadcastIcon, EyeIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import type { Broadcast } from './use-broadcast';
import { useCameraElement } from './use-camera-element';

/** The player's height cap (SPEC §9). */
const PLAYER_MAX_HEIGHT = 640;
/** Below this the camera is too small to check the framing; the page scrolls instead. */
const PLAYER_MIN_HEIGHT = 240;
/**
 * What the window shows above the player: the Hub's header, the session bar, the panel's title and
 * link, the selectors, 'Iniciar', the microphone. The player takes the rest of the screen's height
 * (up to 640 px), so on a 1366x900 laptop the controls and the camera both show without scrolling.
 */
const BESIDE_PLAYER = 600;
const PLAYER_HEIGHT = `clamp(${PLAYER_MIN_HEIGHT}px, 100dvh - ${BESIDE_PLAYER}px, ${PLAYER_MAX_HEIGHT}px)`;

/** The 9:16 player: the local camera (muted: the seller must not hear itself), its badge, the viewer count and the clock. */
export function Player({ broadcast, viewerCount }: { broadcast: Broadcast; viewerCount: number | null }) {
  const { t } = useTranslation();
  const { stream, phase, link } = broadcast;
  const isLive = phase === 'publishing';
  const videoRef = useCameraElement(stream);

  return (
    <Box
      data-video-slot=""
      role="region"
      aria-label={t('livehub.transmission.playerLabel')}
      pos="relative"
      mx="auto"
      w="100%"
      style={{
        aspectRatio: '9 / 16',
        maxHeight: PLAYER_HEIGHT,
        maxWidth: `calc(${PLAYER_HEIGHT} * 9 / 16)`,
        borderRadius: 16,
        background: 'linear-gradient(160deg, #221b30, #0f0d15)',
        border: stream ? 'none' : '2px dashed rgba(255,255,255,0.18)',
        overflow: 'hidden',
      }}
    >
      <video
        ref={videoRef}
        muted
        playsInline
        autoPlay
        data-testid="hub-video"
        style={{
          width: '100%',
          height: '100%',
          objectFit: 'cover',
          display: stream ? 'block' : 'none',
          transform: broadcast.facing === 'user' ? 'scaleX(-1)' : undefined,
        }}
      />
      {!stream && (
        <Stack align="center" justify="center" h="100%" gap="xs" c="gray.5" p="md" pos="absolute" top={0} left={0} right={0}>
          <BroadcastIcon size={36} />
          <Text size="sm" ta="center">
            {t('livehub.broadcast.playerIdle')}
          </Text>
        </Stack>
      )}
      {stream && (
        <Badge pos="absolute" top={10} left={10} color={isLive ? 'red' : 'gray'} variant="filled" data-testid="player-badge">
          {isLive ? t('livehub.broadcast.liveBadge') : t('livehub.broadcast.previewBadge')}
        </Badge>
      )}
      <Badge
        pos="absolute"
        top={10}
        right={10}
        color="dark"
        variant="filled"
        leftSection={<EyeIcon size={12} />}
        tt="none"
        aria-label={`${t('livehub.transmission.viewersLabel')}: ${viewerCount ?? 0}`}
        data-testid="viewer-count"
      >
        {viewerCount ?? 0}
      </Badge>
      {isLive && (
        <Badge pos="absolute" bottom={10} left={10} color="dark" variant="filled" tt="none" data-testid="elapsed">
          {formatElapsed(broadcast.elapsedMs)}
        </Badge>
      )}
      {isLive && link === 'reconnecting' && (
        <Badge pos="absolute" bottom={10} right={10} color="orange" variant="filled" tt="none" data-testid="reconnecting">
          {t('livehub.broadcast.reconnecting')}
        </Badge>
      )}
    </Box>
  );
}
