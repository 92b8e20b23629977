import { Group, Title } from '@mantine/core';
import { useId, useState } from 'react';
import type { ChatMessage } from '../../../domain/chat.js';
import { useTranslation } from '../../i18n';
import { LazyPart } from '../lazy-part';
import { ActionNoticeLine, useActionNotice } from './action-notice';
import classes from './chat.module.css';
import { ChatComposer } from './chat-composer';
import { ChatLine } from './chat-line';
import { ChatList } from './chat-list';
import { ChatProfile } from './chat-profile';
import type { ChatRoom } from './use-chat-room';

// A line's actions load when a reader first opens them, and the moderators' tools for moderators
// only: a visitor who only reads fetches neither.
const loadLineActions = () => import('./line-actions').then((m) => m.LineActions);
const loadModeratorBar = () => import('./moderator-bar').then((m) => m.ModeratorBar);

interface ChatBoardProps {
  room: ChatRoom;
  /** Shown above the list (the panel's heading); the sheet has its own title. */
  heading?: boolean;
  /** panel: a list of its own height; sheet: the list takes the height the sheet leaves, the composer at the bottom. */
  layout?: 'panel' | 'sheet';
}

/**
 * The whole chat: the moderators' slow mode, the pinned line, every line with 'load earlier' on
 * scrolling up, and the composer. The wide screens' panel, the phone's sheet and the Live Hub
 * (on a desktop and in the phone's sheet) show this same board. A moderator's action is confirmed
 * on the board itself.
 */
export function ChatBoard({ room, heading = true, layout = 'panel' }: ChatBoardProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [actionsFor, setActionsFor] = useState<ChatMessage | null>(null);
  const actionNotice = useActionNotice();
  const pinned = room.settings?.pinned ?? null;
  // Signed-in readers report; moderators act. Signed out, a line has no actions.
  const onActions = room.user ? setActionsFor : undefined;

  return (
    <section
      className={classes.board}
      data-layout={layout}
      aria-labelledby={heading ? titleId : undefined}
      aria-label={heading ? undefined : t('live.chat.title')}
      data-testid="chat-board"
    >
      {(heading || room.isModerator) && (
        <Group justify="space-between" align="flex-end" gap="xs" wrap="nowrap">
          {heading ? (
            <Title order={2} size="h5" id={titleId}>
              {t('live.chat.title')}
            </Title>
          ) : (
            <span />
          )}
          {room.isModerator && (
            <LazyPart
              load={loadModeratorBar}
              props={{ room, onError: (message: string) => actionNotice.show(message, 'error') }}
              loading={<span className={classes.moderatorBarLoading} />}
              failedMessage={t('live.chat.toolsLoadFailed')}
            />
          )}
        </Group>
      )}
      <ActionNoticeLine notice={actionNotice.notice} />
      {pinned && <ChatLine line={pinned} myTag={room.me?.tag ?? null} variant="panel" isPinned onActions={onActions} />}
      <ChatList room={room} onActions={onActions} />
      <ChatComposer room={room} variant="panel" />
      {actionsFor && (
        <LazyPart
          key={actionsFor.id}
          load={loadLineActions}
          props={{ room, line: actionsFor, onClose: () => setActionsFor(null), onDone: actionNotice.show }}
          loading={null}
          failedMessage={t('live.chat.toolsLoadFailed')}
        />
      )}
      <ChatProfile room={room} />
    </section>
  );
}
