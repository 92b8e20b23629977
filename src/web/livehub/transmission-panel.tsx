import { Badge, Box, Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type LiveSessionPublic, livePath } from '../../domain/live.js';
import { BroadcastIcon, CopyIcon, EyeIcon } from '../components/icons';
import { absoluteLink } from './hub-layout';
import { SessionStatusBadge } from './session-bar';

/** The player's height cap (SPEC §9). */
const PLAYER_MAX_HEIGHT = 640;

async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The transmission panel without the video (SPEC §2): title, @slug, the public link's copy button,
 * the 9:16 player's place and the viewer count.
 */
export function TransmissionPanel({ session, viewerCount }: { session: LiveSessionPublic; viewerCount: number | null }) {
  const { t } = useTranslation();
  const [shownLink, setShownLink] = useState<string | null>(null);
  const link = absoluteLink(window.location.origin, livePath(session));

  const copy = async () => {
    if (await copyText(link)) notifications.show({ color: 'green', message: t('livehub.transmission.linkCopied') });
    else setShownLink(link);
  };

  return (
    <Paper radius="lg" p="md" component="section" aria-labelledby="livehub-transmission-title">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Box miw={0}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
              {t('livehub.transmission.title')}
            </Text>
            <Title order={2} size="h4" id="livehub-transmission-title" lineClamp={2}>
              {session.title}
            </Title>
            <Text size="sm" c="dimmed" data-testid="session-slug">
              @{session.sellerSlug}
            </Text>
          </Box>
          <SessionStatusBadge status={session.status} />
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Button variant="light" leftSection={<CopyIcon size={16} />} onClick={() => void copy()} style={{ flexShrink: 0 }}>
            {t('livehub.transmission.copyLink')}
          </Button>
          <Text size="xs" c="dimmed" truncate="end" miw={0} title={link}>
            {livePath(session)}
          </Text>
        </Group>
        {/* VIDEO(issue 13): the 9:16 player (camera preview / live stream, 'EN VIVO' / 'PREVIA' badge) mounts inside [data-video-slot]. */}
        <Box
          data-video-slot=""
          role="region"
          aria-label={t('livehub.transmission.playerLabel')}
          pos="relative"
          mx="auto"
          w="100%"
          style={{
            aspectRatio: '9 / 16',
            maxHeight: PLAYER_MAX_HEIGHT,
            maxWidth: (PLAYER_MAX_HEIGHT * 9) / 16,
            borderRadius: 16,
            background: 'linear-gradient(160deg, #221b30, #0f0d15)',
            border: '2px dashed rgba(255,255,255,0.18)',
            overflow: 'hidden',
          }}
        >
          <Stack align="center" justify="center" h="100%" gap="xs" c="gray.5" p="md">
            <BroadcastIcon size={36} />
            <Text size="sm" ta="center">
              {t('livehub.transmission.videoSlot')}
            </Text>
          </Stack>
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
        </Box>
      </Stack>
      <Modal
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
