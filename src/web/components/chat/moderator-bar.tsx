import { NativeSelect } from '@mantine/core';
import { SLOW_MODE_SECONDS, type SlowModeSeconds } from '../../../domain/chat.js';
import { useChatModeration } from '../../api/chat';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import type { ChatRoom } from './use-chat-room';

/** The moderators' chat-wide tool: slow mode (Apagado, 5, 10 or 30 s between a reader's lines). */
export function ModeratorBar({ room, onError }: { room: ChatRoom; onError: (message: string) => void }) {
  const { t } = useTranslation();
  const { slowMode } = useChatModeration(room.sessionId);
  const options = SLOW_MODE_SECONDS.map((seconds) => ({
    value: String(seconds),
    label: seconds === 0 ? t('live.chat.moderation.slowOff') : t('live.chat.moderation.slowSeconds', { seconds }),
  }));
  return (
    <NativeSelect
      size="xs"
      label={t('live.chat.moderation.slowMode')}
      data={options}
      value={String(room.slowModeSeconds)}
      disabled={slowMode.isPending}
      onChange={(event) =>
        slowMode.mutate(Number(event.currentTarget.value) as SlowModeSeconds, {
          onError: (error) => onError(apiErrorText(error, { networkMessage: t('common.networkError'), fallback: t('live.chat.actions.failed') })),
        })
      }
      data-testid="chat-slow-mode"
      w={130}
    />
  );
}
