import { Alert, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { type ChatMessage, MUTE_MINUTES_DEFAULT } from '../../../domain/chat.js';
import { useChatAuthor, useChatModeration, useReportChatLine } from '../../api/chat';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { NativeDialog } from '../native-dialog';
import { blockAnswerText } from './block-answer-text';
import type { ChatRoom } from './use-chat-room';

interface LineActionsProps {
  room: ChatRoom;
  line: ChatMessage;
  onClose: () => void;
  /**
   * A moderator's action went through: its confirmation, for the board to show. Said there, not in
   * a toast: on a phone the chat is a sheet, a modal dialog above the page's toasts.
   */
  onDone: (message: string) => void;
}

type Action = 'report' | 'delete' | 'mute5' | 'muteToEnd' | 'pin' | 'unpin' | 'block';

/**
 * A line's actions, as a sheet: 'Reportar' for every signed-in reader, and for the show's
 * moderators Eliminar, Silenciar 5 min / hasta el final, Fijar / Desfijar and 'Bloquear de mis
 * shows' (asked once more). A mute or block first asks the server who wrote the line.
 */
export function LineActions({ room, line, onClose, onDone }: LineActionsProps) {
  const { t } = useTranslation();
  const report = useReportChatLine(room.sessionId);
  const moderation = useChatModeration(room.sessionId);
  const [isConfirmingBlock, setConfirmingBlock] = useState(false);
  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** 'Reportar' went through: the dialog says thank you and what happens next, until closed. */
  const [isReported, setReported] = useState(false);
  const name = line.authorName ?? '';
  const isPinned = room.settings?.pinned?.id === line.id;
  // A line held back by a muted word is not everyone's to read: it cannot be pinned.
  const mayPin = !line.onlyAuthor || isPinned;
  const isMine = room.me !== null && line.authorTag === room.me.tag;
  const mayActOnAuthor = room.isModerator && !isMine && !line.authorIsModerator;
  const author = useChatAuthor(room.sessionId, line.id, mayActOnAuthor);
  // A block applies to the show's company: its editors know it from the session, others from the author's answer.
  const companyId = room.companyId ?? author.data?.companyId ?? null;

  const run = async (action: Action) => {
    setBusy(action);
    setError(null);
    try {
      const done = await perform(action);
      if (action === 'report') {
        setReported(true);
        setBusy(null);
        return;
      }
      onDone(done);
      onClose();
    } catch (caught) {
      setError(apiErrorText(caught, { networkMessage: t('common.networkError'), fallback: t('live.chat.actions.failed') }));
      setBusy(null);
    }
  };

  const authorOf = async () => author.data ?? (await author.refetch({ throwOnError: true })).data ?? Promise.reject(author.error);

  const perform = async (action: Action): Promise<string> => {
    switch (action) {
      case 'report':
        await report.mutateAsync(line.id);
        return t('live.chat.actions.reported');
      case 'delete':
        await moderation.remove.mutateAsync(line.id);
        return t('live.chat.actions.deleted');
      case 'pin':
        await moderation.pin.mutateAsync(line.id);
        return t('live.chat.actions.pinnedDone');
      case 'unpin':
        await moderation.pin.mutateAsync(null);
        return t('live.chat.actions.unpinnedDone');
      case 'mute5':
      case 'muteToEnd': {
        const { userId } = await authorOf();
        await moderation.mute.mutateAsync({ userId, minutes: action === 'mute5' ? MUTE_MINUTES_DEFAULT : null });
        return t('live.chat.actions.muted', { name });
      }
      case 'block': {
        const { userId } = await authorOf();
        if (!companyId) throw new Error('The show has no company to block from');
        return blockAnswerText(await moderation.block.mutateAsync({ companyId, userId }), name, t);
      }
    }
  };

  const button = (action: Action, label: string, color?: string) => (
    <Button
      key={action}
      variant={color ? 'light' : 'default'}
      color={color}
      fullWidth
      justify="flex-start"
      loading={busy === action}
      disabled={busy !== null && busy !== action}
      onClick={() => (action === 'block' ? setConfirmingBlock(true) : void run(action))}
      data-testid={`chat-action-${action}`}
    >
      {label}
    </Button>
  );

  return (
    <NativeDialog
      title={isConfirmingBlock ? t('live.chat.actions.blockTitle', { name }) : t('live.chat.actions.title', { name })}
      onClose={onClose}
      closable={busy === null}
    >
      <Stack gap="sm" data-testid="chat-actions">
        {isReported ? (
          <>
            <Text size="sm" role="status" data-testid="chat-reported">
              {t('live.chat.actions.reported')}
            </Text>
            <Button onClick={onClose} data-autofocus data-testid="chat-reported-close">
              {t('live.chat.actions.reportedClose')}
            </Button>
          </>
        ) : isConfirmingBlock ? (
          <>
            <Text size="sm">{t('live.chat.actions.blockConfirm')}</Text>
            <Button variant="default" onClick={() => setConfirmingBlock(false)} disabled={busy !== null} data-autofocus>
              {t('live.chat.actions.cancel')}
            </Button>
            <Button color="red" loading={busy === 'block'} onClick={() => void run('block')} data-testid="chat-block-confirm">
              {t('live.chat.actions.blockYes')}
            </Button>
          </>
        ) : (
          <>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {line.text}
            </Text>
            {!isMine && button('report', t('live.chat.actions.report'))}
            {room.isModerator && (
              <>
                {button('delete', t('live.chat.actions.delete'), 'red')}
                {mayActOnAuthor && button('mute5', t('live.chat.actions.mute5'))}
                {mayActOnAuthor && button('muteToEnd', t('live.chat.actions.muteToEnd'))}
                {mayPin && (isPinned ? button('unpin', t('live.chat.actions.unpin')) : button('pin', t('live.chat.actions.pin')))}
                {mayActOnAuthor && companyId !== null && button('block', t('live.chat.actions.block'), 'red')}
              </>
            )}
          </>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert" data-testid="chat-action-error">
            {error}
          </Alert>
        )}
      </Stack>
    </NativeDialog>
  );
}
