import { Badge, Paper, Tabs, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useChatReports } from '../../api/chat';
import { ChatBoard } from '../../components/chat/chat-panel';
import { useChatRoom } from '../../components/chat/use-chat-room';
import { useTranslation } from '../../i18n';
import classes from './hub-chat-panel.module.css';
import { ModeratorsList } from './moderators-list';
import { MutesList } from './mutes-list';
import { ReportsList } from './reports-list';

type Tab = 'chat' | 'reports' | 'mutes' | 'moderators';

interface HubChatPanelProps {
  sessionId: string;
  isEnded: boolean;
  /**
   * panel: beside the lots on a desktop, with its heading. sheet: the phone's bottom sheet (which has
   * its own title): the tabs in one row and the lines filling the sheet, the composer at the bottom.
   */
  variant?: 'panel' | 'sheet';
}

/**
 * The Live Hub's chat: the same board as the public page (every line the buyers see, system lines,
 * the pinned line and announcements, and the lines a muted word holds back, marked; each with its
 * moderation menu), slow mode, the reported lines, the muted readers and the session's moderators.
 */
export function HubChatPanel({ sessionId, isEnded, variant = 'panel' }: HubChatPanelProps) {
  const { t } = useTranslation();
  const room = useChatRoom(sessionId, isEnded);
  const [tab, setTab] = useState<Tab>('chat');
  const isModerator = Boolean(room.me?.isModerator);
  const reports = useChatReports(sessionId, isModerator);
  const reportCount = reports.data?.items.length ?? 0;
  const isSheet = variant === 'sheet';
  const layout = isSheet ? 'sheet' : 'panel';

  const body = !isModerator ? (
    <>
      {room.me && (
        <Text size="sm" c="dimmed" mb="xs">
          {t('livehub.chatPanel.notModerator')}
        </Text>
      )}
      <ChatBoard room={room} heading={false} layout={layout} />
    </>
  ) : (
    <Tabs
      value={tab}
      onChange={(value) => setTab((value as Tab | null) ?? 'chat')}
      keepMounted={false}
      classNames={isSheet ? { root: classes.sheetTabs, list: classes.sheetTabList, tab: classes.sheetTab, panel: classes.sheetPanel } : undefined}
    >
      <Tabs.List mb="sm">
        <Tabs.Tab value="chat">{isSheet ? t('livehub.chatPanel.tabs.chatShort') : t('livehub.chatPanel.tabs.chat')}</Tabs.Tab>
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
        <ChatBoard room={room} heading={false} layout={layout} />
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
  );

  if (isSheet) return <SheetBody>{body}</SheetBody>;
  return (
    <Paper radius="lg" p="md" component="section" aria-labelledby="livehub-chat-title" data-testid="hub-chat-panel">
      <Title order={2} size="h5" id="livehub-chat-title" mb="xs">
        {t('livehub.chatPanel.title')}
      </Title>
      {body}
    </Paper>
  );
}

/** The sheet's content: as tall as the sheet allows, so the lines fill it and the composer stays in reach. */
function SheetBody({ children }: { children: ReactNode }) {
  return (
    <div className={classes.sheet} data-testid="hub-chat-panel" data-variant="sheet">
      {children}
    </div>
  );
}
