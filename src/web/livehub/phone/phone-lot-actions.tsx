import { Alert, Button, CloseButton, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { TIMER_BUTTONS_SECONDS } from '../../../domain/live.js';
import type { LiveSessionData } from '../../api/live';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { ReopenPrompt } from '../hub-prompts';
import { useNextLot, type useTimerActions } from '../timer-actions';
import { currentLot, serverClock, timerChoice } from '../timer-view';
import { useNow } from '../use-now';
import classes from './phone-hub.module.css';
import { PHONE_WINDOW } from './phone-windows';

interface PhoneLotActionsProps {
  detail: LiveSessionData;
  /** The Hub's timer actions (shared with the custom seconds of 'Más' and the shorten question). */
  timers: ReturnType<typeof useTimerActions>;
  onOpenLots: () => void;
  onOpenChat: () => void;
  onOpenMore: () => void;
}

/**
 * The lot's controls in the thumb's reach: the three timer buttons ('Quedan N s', as on the
 * desktop: each sets the time left, with the same question before cutting a running lot's time),
 * 'Siguiente lote', which puts the next queued lot on the block and starts its timer, and the
 * lots, the chat and 'Más' (each a bottom sheet). A refusal shows here, above the buttons.
 */
export function PhoneLotActions({ detail, timers, onOpenLots, onOpenChat, onOpenMore }: PhoneLotActionsProps) {
  const { t } = useTranslation();
  const deviceNow = useNow();
  const { next, goNext, error: nextError, reopenPrompt } = useNextLot(detail);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { timer, source } = timers;
  const lot = currentLot(detail);
  const now = serverClock(detail, deviceNow);
  const errorText = (error: unknown, fallback: string) => apiErrorText(error, { networkMessage: t('common.networkError'), fallback });

  /** What the seconds would do at the moment of the tap decides: set, ask first, or say why not. */
  const tapTimer = (seconds: number) => {
    setRefusal(null);
    const outcome = timers.start(seconds, seconds);
    if (outcome.kind === 'blocked') setRefusal(outcome.reason === 'noLot' ? t('livehub.phone.noLot') : t(`livehub.timer.blocked.${outcome.reason}`));
  };

  const notice =
    refusal ??
    (timers.closedByBid ? t('livehub.timer.shortenClosed') : null) ??
    (timer.isError ? errorText(timer.error, t('livehub.timer.failed')) : null) ??
    (nextError ? errorText(nextError, t('livehub.phone.nextFailed')) : null);
  const dismiss = () => {
    setRefusal(null);
    timers.dismissClosedByBid();
    timer.reset();
    next.reset();
  };

  return (
    <>
      {notice && (
        <Alert color="red" variant="filled" role="alert" p="xs" data-testid="phone-refusal">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Text size="sm" style={{ flex: 1 }}>
              {notice}
            </Text>
            <CloseButton aria-label={t('common.close')} onClick={dismiss} variant="transparent" c="white" className={classes.square} />
          </Group>
        </Alert>
      )}
      {detail.canEdit && (
        <div className={classes.row}>
          {TIMER_BUTTONS_SECONDS.map((seconds) => {
            const choice = timerChoice(seconds, lot, now);
            return (
              <Button
                key={seconds}
                className={`${classes.grow} ${classes.touch}`}
                variant="white"
                color={choice.kind === 'shortens' ? 'orange' : 'dark'}
                onClick={() => tapTimer(seconds)}
                loading={timer.isPending && source === seconds}
                disabled={choice.kind === 'blocked'}
                data-choice={choice.kind}
                data-testid={`phone-timer-${seconds}`}
              >
                {t('livehub.timer.set', { seconds })}
              </Button>
            );
          })}
        </div>
      )}
      <div className={classes.row}>
        {detail.canEdit && (
          <Button
            className={`${classes.grow} ${classes.touch}`}
            color="martillo"
            onClick={() => {
              setRefusal(null);
              void goNext();
            }}
            loading={next.isPending}
            data-testid="phone-next"
          >
            {t('livehub.phone.next')}
          </Button>
        )}
        <Button className={classes.touch} variant="white" color="dark" onClick={onOpenLots} aria-haspopup="dialog" data-testid="phone-open-lots">
          {t('livehub.phone.lots')}
        </Button>
        <Button className={classes.touch} variant="white" color="dark" onClick={onOpenChat} aria-haspopup="dialog" data-testid="phone-open-chat">
          {t('livehub.phone.chat')}
        </Button>
        <Button className={classes.touch} variant="white" color="dark" onClick={onOpenMore} aria-haspopup="dialog" data-testid="phone-open-more">
          {t('livehub.phone.more')}
        </Button>
      </div>
      <ReopenPrompt stackId={PHONE_WINDOW.nextReopen} {...reopenPrompt} />
    </>
  );
}
