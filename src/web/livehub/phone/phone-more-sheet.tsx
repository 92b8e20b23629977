import { Button, Stack, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import type { LiveSessionData } from '../../api/live';
import { BoltIcon } from '../../components/icons';
import { PlusIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { CustomSecondsField, type useTimerActions } from '../timer-actions';
import { currentLot, serverClock, timerChoice } from '../timer-view';
import classes from './phone-hub.module.css';
import { PhoneSheet } from './phone-sheet';

/** What 'Más' offers; each action closes the sheet first (the windows it opens, and the toasts, sit under an open sheet). */
export interface PhoneMoreActions {
  onAddLot: () => void;
  onQuickAuction: () => void;
  onEditSession: () => void;
  onPromptUnmute: () => void;
  onChangeShow: () => void;
  onEndShow: () => void;
}

/**
 * 'Más': the rest of the desktop Hub's controls during a show, thumb-sized: add a lot (the
 * picker), a quick auction, the custom seconds, asking viewers to turn their sound on, editing
 * the show, loading another show and ending this one. A read-only viewer of the Hub gets only the
 * way to another show.
 */
export function PhoneMoreSheet({
  detail,
  timers,
  actions,
  onClose,
}: {
  detail: LiveSessionData;
  timers: ReturnType<typeof useTimerActions>;
  actions: PhoneMoreActions;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [secondsError, setSecondsError] = useState<string | null>(null);
  const then = (action: () => void) => () => {
    onClose();
    action();
  };
  // A refusal the seller can fix stays in the field; anything else closes the sheet, so the
  // question before cutting the lot's time, or the server's answer, shows over the show.
  const applySeconds = (seconds: number) => {
    const choice = timerChoice(seconds, currentLot(detail), serverClock(detail, Date.now()));
    if (choice.kind === 'blocked' && choice.reason !== 'noLot') {
      setSecondsError(t(`livehub.timer.blocked.${choice.reason}`));
      return;
    }
    onClose();
    timers.start(seconds, 'custom');
  };
  const item = (label: string, onClick: () => void, opts: { color?: string; icon?: ReactNode; testId: string }) => (
    <Button
      variant={opts.color ? 'light' : 'default'}
      color={opts.color}
      fullWidth
      justify="flex-start"
      className={classes.touch}
      leftSection={opts.icon}
      onClick={onClick}
      data-testid={opts.testId}
    >
      {label}
    </Button>
  );

  return (
    <PhoneSheet detail={detail} title={t('livehub.phone.moreTitle')} onClose={onClose} testId="phone-more-sheet">
      <Stack gap="lg">
        {detail.canEdit && (
          <>
            <Stack gap="xs" component="section" aria-labelledby="phone-more-lots">
              <Title order={3} size="h6" id="phone-more-lots">
                {t('livehub.phone.moreLots')}
              </Title>
              {item(t('livehub.lots.add'), then(actions.onAddLot), { icon: <PlusIcon size={18} />, testId: 'phone-add-lot' })}
              {item(t('livehub.lots.quick'), then(actions.onQuickAuction), { color: 'oro', icon: <BoltIcon size={18} />, testId: 'phone-quick-auction' })}
            </Stack>
            <Stack gap="xs" component="section" aria-labelledby="phone-more-time">
              <Title order={3} size="h6" id="phone-more-time">
                {t('livehub.phone.moreTime')}
              </Title>
              <CustomSecondsField
                detail={detail}
                touch
                onApply={applySeconds}
                isPending={timers.timer.isPending && timers.source === 'custom'}
                error={secondsError}
                onTyped={() => setSecondsError(null)}
              />
            </Stack>
            <Stack gap="xs" component="section" aria-labelledby="phone-more-viewers">
              <Title order={3} size="h6" id="phone-more-viewers">
                {t('livehub.phone.moreViewers')}
              </Title>
              {item(t('livehub.broadcast.askUnmute'), then(actions.onPromptUnmute), { testId: 'phone-ask-unmute' })}
            </Stack>
          </>
        )}
        <Stack gap="xs" component="section" aria-labelledby="phone-more-show">
          <Title order={3} size="h6" id="phone-more-show">
            {t('livehub.phone.moreShow')}
          </Title>
          {detail.canEdit && item(t('livehub.phone.editShow'), then(actions.onEditSession), { testId: 'phone-edit-show' })}
          {item(t('livehub.phone.changeShow'), then(actions.onChangeShow), { testId: 'phone-change-show' })}
          {detail.canEdit &&
            detail.session.status !== 'ended' &&
            item(t('livehub.phone.endShow'), then(actions.onEndShow), { color: 'red', testId: 'phone-end-show' })}
        </Stack>
      </Stack>
    </PhoneSheet>
  );
}
