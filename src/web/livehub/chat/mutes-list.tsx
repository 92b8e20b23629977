import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useChatModeration, useChatMutes } from '../../api/chat';
import { ActionNoticeLine, useActionNotice } from '../../components/chat/action-notice';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { formatDate } from '../../lib/dates';

/** The readers muted in this session, each with 'Quitar silencio'. */
export function MutesList({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const mutes = useChatMutes(sessionId);
  const { unmute } = useChatModeration(sessionId);
  const actionNotice = useActionNotice();

  if (mutes.isError && !mutes.data) {
    return (
      <Alert color="red" variant="light" role="alert">
        {t('livehub.chatPanel.mutes.loadFailed')}
      </Alert>
    );
  }
  const items = mutes.data?.items ?? [];
  if (mutes.isSuccess && items.length === 0) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {t('livehub.chatPanel.mutes.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <ActionNoticeLine notice={actionNotice.notice} />
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="hub-chat-mutes">
        {items.map((mute) => (
          <Group key={mute.userId} component="li" justify="space-between" gap="xs" wrap="nowrap" data-testid="hub-chat-mute">
            <Stack gap={0} miw={0}>
              <Text size="sm" fw={600} truncate>
                {mute.name}
              </Text>
              <Text size="xs" c="dimmed">
                {mute.until === null ? t('livehub.chatPanel.mutes.toEnd') : t('livehub.chatPanel.mutes.until', { time: formatDate(mute.until, 'HH:mm') })}
              </Text>
            </Stack>
            <Button
              size="xs"
              variant="light"
              aria-label={t('livehub.chatPanel.mutes.unmuteLabel', { name: mute.name })}
              loading={unmute.isPending && unmute.variables === mute.userId}
              onClick={() =>
                unmute.mutate(mute.userId, {
                  onSuccess: () => actionNotice.show(t('livehub.chatPanel.mutes.unmuted', { name: mute.name })),
                  onError: (error) =>
                    actionNotice.show(apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('live.chat.actions.failed') }), 'error'),
                })
              }
            >
              {t('livehub.chatPanel.mutes.unmute')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
