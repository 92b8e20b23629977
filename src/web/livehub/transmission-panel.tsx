import { Box, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { LiveSessionPublic } from '../../domain/live.js';
import { useTranslation } from '../i18n';
import { BroadcastAlerts } from './broadcast/broadcast-alerts';
import { BroadcastControls } from './broadcast/broadcast-controls';
import { Player } from './broadcast/player';
import { usePromptUnmute } from './broadcast/use-prompt-unmute';
import { ReopenPrompt } from './hub-prompts';
import { HUB_WINDOW } from './hub-windows';
import { SessionStatusBadge } from './session-bar';
import { SessionLink } from './session-link';
import { useSessionBroadcast } from './use-session-broadcast';

/**
 * The transmission panel (SPEC §2, §4 "Broadcast state", §9): title, @slug, the public link, the
 * broadcast's messages, an editor's controls, and the 9:16 player with 'EN VIVO' / 'PREVIA' and the
 * viewer count. Mounted per session (keyed), so loading another session ends this one's media.
 */
export function TransmissionPanel({ session, viewerCount, canEdit }: { session: LiveSessionPublic | null; viewerCount: number | null; canEdit: boolean }) {
  const { t } = useTranslation();
  const { broadcast, devices, isDisabled, reopenPrompt, startBroadcast } = useSessionBroadcast(session);
  const promptUnmute = usePromptUnmute(session?.id ?? null);

  const { phase } = broadcast;
  const isLive = phase === 'publishing';
  const isBusy = phase === 'starting' || phase === 'stopping';
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
        <SessionLink session={session} />

        <BroadcastAlerts broadcast={broadcast} isDisabled={isDisabled} isOrphaned={isOrphaned} canEdit={canEdit} />

        {canEdit && (
          <BroadcastControls
            broadcast={broadcast}
            devices={devices}
            isDisabled={isDisabled}
            isOrphaned={isOrphaned}
            hasSession={Boolean(session)}
            onStart={startBroadcast}
            onPromptUnmute={promptUnmute}
          />
        )}

        {/* Under the controls (SPEC §2's order), so they stay in sight on a laptop's screen whatever the player's size. */}
        <Player broadcast={broadcast} viewerCount={viewerCount} />
      </Stack>
      <ReopenPrompt stackId={HUB_WINDOW.streamReopen} {...reopenPrompt} />
    </Paper>
  );
}
