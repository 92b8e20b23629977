import { Button } from '@mantine/core';
import { remindShow } from '../../api/follows';
import { useTranslation } from '../../i18n';
import { CheckIcon } from '../icons';
import { BellIcon } from './follow-icons';
import { usePushOffer } from './push-prompt';
import { useOptimisticToggle } from './use-toggle';
import './strings';

/**
 * *Avísame* / *Te avisaremos* on a scheduled show: one tap bookmarks it, one tap undoes. Signed out,
 * the tap signs in and comes back. After a bookmark, alerts on this phone are offered.
 */
export function RemindButton({ sessionId, reminded, title, size = 'sm' }: { sessionId: string; reminded: boolean; title: string; size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useTranslation();
  const push = usePushOffer();
  const { value, toggle, isSending } = useOptimisticToggle({
    value: { isOn: reminded },
    optimistic: (_current, next) => ({ isOn: next }),
    send: async (next) => {
      const answer = await remindShow(sessionId, next);
      return answer ? { isOn: answer.reminded } : null;
    },
    failedText: (next) => t(next ? 'follow.remindFailed' : 'follow.unremindFailed'),
    onTurnedOn: push.offer,
  });

  return (
    <>
      <Button
        size={size}
        variant={value.isOn ? 'light' : 'outline'}
        leftSection={value.isOn ? <CheckIcon size={16} /> : <BellIcon size={16} />}
        aria-pressed={value.isOn}
        aria-label={value.isOn ? t('follow.remindedLabel', { title }) : t('follow.remindLabel', { title })}
        onClick={() => void toggle()}
        disabled={isSending}
        data-testid="remind-button"
        data-reminded={value.isOn}
      >
        {value.isOn ? t('follow.reminded') : t('follow.remind')}
      </Button>
      {push.prompt}
    </>
  );
}
