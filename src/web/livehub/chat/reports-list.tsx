import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ChatMessage, ChatReport } from '../../../domain/chat.js';
import { useChatModeration, type useChatReports } from '../../api/chat';
import { ActionNoticeLine, useActionNotice } from '../../components/chat/action-notice';
import { LineActions } from '../../components/chat/line-actions';
import type { ChatRoom } from '../../components/chat/use-chat-room';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { formatDate } from '../../lib/dates';

interface ReportsListProps {
  room: ChatRoom;
  reports: ReturnType<typeof useChatReports>;
}

/** The reported lines, most reported first as the server sends them, each with its act buttons. */
export function ReportsList({ room, reports }: ReportsListProps) {
  const { t } = useTranslation();
  const { remove } = useChatModeration(room.sessionId);
  const [actionsFor, setActionsFor] = useState<ChatMessage | null>(null);
  const actionNotice = useActionNotice();

  if (reports.isError && !reports.data) {
    return (
      <Alert color="red" variant="light" role="alert">
        {t('livehub.chatPanel.reports.loadFailed')}
      </Alert>
    );
  }
  const items = reports.data?.items ?? [];
  if (reports.isSuccess && items.length === 0) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {t('livehub.chatPanel.reports.empty')}
      </Text>
    );
  }

  const removeLine = (report: ChatReport) =>
    remove.mutate(report.messageId, {
      onSuccess: () => {
        actionNotice.show(t('live.chat.actions.deleted'));
        void reports.refetch();
      },
      onError: (error) =>
        actionNotice.show(apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('live.chat.actions.failed') }), 'error'),
    });

  return (
    <Stack gap="xs">
      <ActionNoticeLine notice={actionNotice.notice} />
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="hub-chat-reports">
        {items.map((report) => (
          <Paper key={report.messageId} component="li" withBorder radius="md" p="sm" data-testid="hub-chat-report" data-message-id={report.messageId}>
            <Stack gap={6}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" fw={700}>
                  {report.message.authorName}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('livehub.chatPanel.reports.count', { count: report.reports })} · {formatDate(report.lastReportedAt, 'HH:mm')}
                </Text>
              </Group>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="hub-chat-report-text">
                {report.message.text}
              </Text>
              <Group gap="xs">
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  loading={remove.isPending && remove.variables === report.messageId}
                  onClick={() => removeLine(report)}
                >
                  {t('live.chat.actions.delete')}
                </Button>
                <Button size="xs" variant="default" onClick={() => setActionsFor(report.message)}>
                  {t('live.chat.actions.title', { name: report.message.authorName ?? '' })}
                </Button>
              </Group>
            </Stack>
          </Paper>
        ))}
        {actionsFor && (
          <LineActions
            room={room}
            line={actionsFor}
            onClose={() => {
              setActionsFor(null);
              void reports.refetch();
            }}
            onDone={actionNotice.show}
          />
        )}
      </Stack>
    </Stack>
  );
}
