import { notifications } from '@mantine/notifications';
import { useCallback } from 'react';
import { getSocket } from '../../api/socket';
import { useTranslation } from '../../i18n';

/** 'Pedir a los espectadores activar audio': asks the session's viewers over the socket, and says whether it reached them. */
export function usePromptUnmute(sessionId: string | null): () => Promise<void> {
  const { t } = useTranslation();
  return useCallback(async () => {
    if (!sessionId) return;
    const answer = await getSocket()
      .timeout(5000)
      .emitWithAck('promptUnmute', { sessionId })
      .catch(() => null);
    if (answer?.ok) notifications.show({ color: 'green', message: t('livehub.broadcast.unmuteAsked') });
    else notifications.show({ color: 'yellow', message: t('livehub.broadcast.unmuteAskFailed') });
  }, [sessionId, t]);
}
