import { Badge, Paper, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useChatReports } from '../../api/chat';
import { useTranslation } from '../../i18n';
import { ChatBoard } from '../../public/chat/chat-panel';
import { useChatRoom } from '../../public/chat/use-chat-room';
import { ModeratorsList } from './moderators-list';
import { MutesList } from './mutes-list';
import { ReportsList } from './reports-list';

type Tab = 'chat' | 'reports' | 'mutes' | 'moderators';

/**
 * The Live Hub's chat, beside the lots: the same board as the public page (lines with their
 * moderation menu, slow mode, the pinned line, announcements), the reported lines, the muted
 * readers and the session's moderators.
 */
export function HubChatPanel({ sessionId, isEnded }: { sessionId: string; isEnded: boolean }) {
  const { t } = useTranslation();
  const room = useChatRoom(sessionId, isEnded);
  const [tab, setTab] = useState<Tab>('chat');
  const isModerator = Boolean(room.me?.isModerator);
  const reports = useChatReports(sessionId, isModerator);
  const reportCount = reports.data?.items.length ?? 0;

  return (
    <Paper radius="lg" p="md" component="section" aria-labelledby="livehub-chat-title" data-testid="hub-chat-panel">
      <Title order={2} size="h5" id="livehub-chat-title" mb="xs">
        {t('livehub.chatPanel.title')}
      </Title>
      {!isModerator ? (
        <>
          {room.me && (
            <Text size="sm" c="dimmed" mb="xs">
              {t('livehub.chatPanel.notModerator')}
            </Text>
          )}
          <ChatBoard room={room} heading={false} />
        </>
      ) : (
        <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? 'chat')} keepMounted={false}>
          <Tabs.List mb="sm">
            <Tabs.Tab value="chat">{t('livehub.chatPanel.tabs.chat')}</Tabs.Tab>
            <Tabs.Tab
              value="reports"
              data-testid="hub-chat-tab-reports"
              rightSection={
                reportCount > 0 ? (
                  <Badge size="xs" color="red" circle>
                    {reportCount}
                  </Badge>
                ) : null
              }
            >
              {t('livehub.chatPanel.tabs.reports')}
            </Tabs.Tab>
            <Tabs.Tab value="mutes" data-testid="hub-chat-tab-mutes">
              {t('livehub.chatPanel.tabs.mutes')}
            </Tabs.Tab>
            <Tabs.Tab value="moderators" data-testid="hub-chat-tab-moderators">
              {t('livehub.chatPanel.tabs.moderators')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="chat">
            <ChatBoard room={room} heading={false} />
          </Tabs.Panel>
          <Tabs.Panel value="reports">
            <ReportsList room={room} reports={reports} />
          </Tabs.Panel>
          <Tabs.Panel value="mutes">
            <MutesList sessionId={sessionId} />
          </Tabs.Panel>
          <Tabs.Panel value="moderators">
            <ModeratorsList sessionId={sessionId} />
          </Tabs.Panel>
        </Tabs>
      )}
    </Paper>
  );
}
