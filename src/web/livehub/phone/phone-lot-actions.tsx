import { Alert, Button, CloseButton, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { TIMER_BUTTONS_SECONDS } from '../../../domain/live.js';
import { formatTimer } from '../../../domain/live-public.js';
import type { LiveSessionData } from '../../api/live';
import { isSessionEndedError, useLotActions } from '../../api/live-hub';
import { useTranslation } from '../../i18n';
import { apiErrorText } from '../../lib/api-errors';
import { ConfirmWindow, ReopenPrompt, useAskReopen } from '../hub-prompts';
import { HUB_WINDOW } from '../hub-windows';
import { currentLot, serverClock, timerChoice } from '../timer-view';
import { useNow } from '../use-now';
import classes from './phone-hub.module.css';
import { PHONE_WINDOW } from './phone-windows';

/**
 * The lot's controls in the thumb's reach: the three timer buttons (each sets the time left, as the
 * desktop's 'Quedan N s', with the same question before cutting a running lot's time) and
 * 'Siguiente lote', which puts the next queued lot on the block and starts its timer.
 */
export function PhoneLotActions({ detail, onOpenLots, onOpenChat }: { detail: LiveSessionData; onOpenLots: () => void; onOpenChat: () => void }) {
  const { t } = useTranslation();
  const deviceNow = useNow();
  const { timer, next } = useLotActions(detail.session.id);
  const reopen = useAskReopen();
  const [source, setSource] = useState<number | null>(null);
  const [toConfirm, setToConfirm] = useState<{ seconds: number; remainingMs: number } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const lot = currentLot(detail);
  const now = serverClock(detail, deviceNow);
  const errorText = (error: unknown, fallback: string) => apiErrorText(error, { networkMessage: t('common.networkError'), fallback });

  const send = (seconds: number) => {
    setSource(seconds);
    setRefusal(null);
    timer.mutate(seconds, { onError: (error) => setRefusal(errorText(error, t('livehub.timer.failed'))) });
  };
  /** What the seconds would do at the moment of the tap decides: set, ask first, or say why not. */
  const tapTimer = (seconds: number) => {
    const choice = timerChoice(seconds, currentLot(detail), serverClock(detail, Date.now()));
    if (choice.kind === 'shortens') setToConfirm({ seconds, remainingMs: choice.remainingMs });
    else if (choice.kind === 'blocked') setRefusal(choice.reason === 'noLot' ? t('livehub.phone.noLot') : t(`livehub.timer.blocked.${choice.reason}`));
    else send(seconds);
  };

  // On an ended session the next lot opens it again: ask first, as 'Establecer actual' does.
  const goNext = async (confirmed = false) => {
    let isReopen = confirmed;
    if (!isReopen && detail.session.status === 'ended') {
      if (!(await reopen.ask())) return;
      isReopen = true;
    }
    setRefusal(null);
    next.mutate(
      { reopen: isReopen },
      {
        onError: async (error) => {
          if (!isReopen && isSessionEndedError(error)) {
            if (await reopen.ask()) void goNext(true);
            return;
          }
          setRefusal(errorText(error, t('livehub.phone.nextFailed')));
        },
      },
    );
  };

  return (
    <>
      {refusal && (
        <Alert color="red" variant="filled" role="alert" p="xs" data-testid="phone-refusal">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Text size="sm" style={{ flex: 1 }}>
              {refusal}
            </Text>
            <CloseButton aria-label={t('common.close')} onClick={() => setRefusal(null)} variant="transparent" c="white" className={classes.square} />
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
                {t('livehub.timer.add', { seconds })}
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
            onClick={() => void goNext()}
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
      </div>
      <ReopenPrompt stackId={PHONE_WINDOW.nextReopen} {...reopen.prompt} />
      <ConfirmWindow
        stackId={HUB_WINDOW.timerShorten}
        opened={toConfirm !== null}
        title={t('livehub.timer.shortenTitle')}
        cancelLabel={t('livehub.timer.shortenCancel')}
        confirmLabel={t('livehub.timer.shortenConfirm', { seconds: toConfirm?.seconds ?? 0 })}
        confirmColor="orange"
        onCancel={() => setToConfirm(null)}
        onConfirm={() => {
          const chosen = toConfirm;
          setToConfirm(null);
          if (chosen) send(chosen.seconds);
        }}
      >
        <Text size="sm">{t('livehub.timer.shortenText', { remaining: formatTimer(toConfirm?.remainingMs ?? 0), seconds: toConfirm?.seconds ?? 0 })}</Text>
      </ConfirmWindow>
    </>
  );
}
