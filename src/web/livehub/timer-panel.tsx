import { Alert, Badge, Button, Group, Kbd, Paper, Stack, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { TIMER_BUTTONS_SECONDS } from '../../domain/live.js';
import type { LiveSessionData } from '../api/live';
import { ClockIcon } from '../components/icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { ReopenPrompt } from './hub-prompts';
import { NEXT_KEY, TIMER_KEYS, useHubShortcuts } from './hub-shortcuts';
import {
  AutoAdvancePauseButton,
  autoAdvancePauseError,
  autoAdvanceText,
  CustomSecondsField,
  ShortenPrompt,
  type TimerSource,
  useAutoAdvance,
  useNextLot,
  useTimerActions,
} from './timer-actions';
import { currentLot, hubTimerBadge, serverClock, type TimerChoice, timerChoice } from './timer-view';
import { useNow } from './use-now';

/** The reopen question of 'Siguiente lote' on an ended session (a place in the Hub's Modal.Stack, hub-windows.ts). */
const NEXT_REOPEN_WINDOW = 'livehub-next-reopen';

const BADGE_COLORS = { idle: 'gray', ready: 'blue', running: 'green', finished: 'red' } as const;

/**
 * The timer panel (SPEC §2, §4 "Timer state"): the badge, the buttons that set the time left
 * ('Quedan 15 s', SPEC's +15s: endTime = now + 15 s) and the custom seconds. A button that would
 * cut a running lot's time asks first, or says why it cannot once bids stand. The phone Hub drives
 * the same actions (timer-actions.tsx).
 */
export function TimerPanel({ detail }: { detail: LiveSessionData }) {
  const { t } = useTranslation();
  const deviceNow = useNow();
  const reasonId = useId();
  const { timer, source, start: startTimer, shortenPrompt } = useTimerActions(detail);
  const { next, goNext, error: nextError, reopenPrompt } = useNextLot(detail);
  const auto = useAutoAdvance(detail, deviceNow);
  const pauseError = autoAdvancePauseError(t, auto);
  const [inputError, setInputError] = useState<string | null>(null);
  const badge = hubTimerBadge(detail, deviceNow);
  const lot = currentLot(detail);
  const now = serverClock(detail, deviceNow);
  const choices = new Map<number, TimerChoice>(TIMER_BUTTONS_SECONDS.map((s) => [s, timerChoice(s, lot, now)]));
  const blocked = [...choices.values()].find((c) => c.kind === 'blocked' && c.reason !== 'noLot');
  const shortening = [...choices.values()].some((c) => c.kind === 'shortens');

  const start = (seconds: number, from: TimerSource) => {
    const outcome = startTimer(seconds, from);
    if (outcome.kind === 'blocked' && outcome.reason !== 'noLot') setInputError(t(`livehub.timer.blocked.${outcome.reason}`));
  };
  useHubShortcuts(detail.canEdit, (shortcut) => {
    if (shortcut.kind === 'next') void goNext();
    else {
      const seconds = TIMER_BUTTONS_SECONDS[shortcut.index];
      if (seconds !== undefined && choices.get(seconds)?.kind !== 'blocked' && !timer.isPending) start(seconds, seconds);
    }
  });

  return (
    <Paper radius="lg" p="md" component="section" aria-labelledby="livehub-timer-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap={6} wrap="nowrap">
            <ClockIcon size={18} />
            <Title order={2} size="h5" id="livehub-timer-title">
              {t('livehub.timer.title')}
            </Title>
          </Group>
          <Badge
            size="lg"
            color={BADGE_COLORS[badge.key]}
            variant={badge.key === 'running' ? 'filled' : 'light'}
            tt="none"
            role="timer"
            aria-live="off"
            data-state={badge.key}
          >
            {badge.key === 'running' ? t('livehub.timer.running', { time: badge.time }) : t(`livehub.timer.${badge.key}`)}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed" lineClamp={1}>
          {lot ? t('livehub.timer.currentLot', { name: lot.auction.name || t('livehub.picker.unnamed') }) : t('livehub.timer.noCurrent')}
        </Text>
        {detail.canEdit && (
          <>
            <Button
              size="lg"
              fullWidth
              color="martillo"
              onClick={() => void goNext()}
              loading={next.isPending}
              aria-keyshortcuts={NEXT_KEY}
              rightSection={
                <Kbd size="xs" visibleFrom="sm" aria-hidden>
                  {NEXT_KEY}
                </Kbd>
              }
              data-testid="next-lot"
            >
              {t('livehub.flow.next')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('livehub.flow.nextHint', { seconds: detail.session.biddingConfig.timerSecondsDefault })}
            </Text>
            {nextError && (
              <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => next.reset()} closeButtonLabel={t('common.close')}>
                {apiErrorText(nextError, { networkMessage: t('common.networkError'), fallback: t('livehub.flow.nextFailed') })}
              </Alert>
            )}
            {auto.isOn && (
              <Group justify="space-between" gap="xs" wrap="wrap" data-testid="auto-advance">
                <Text size="sm" fw={auto.left !== null ? 700 : 400} c={auto.left !== null ? 'martillo' : 'dimmed'} aria-live="polite">
                  {autoAdvanceText(t, auto)}
                </Text>
                <AutoAdvancePauseButton auto={auto} size="compact-sm" variant="light" />
              </Group>
            )}
            {pauseError && (
              <Text size="xs" c="red" role="alert">
                {pauseError}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              {t('livehub.timer.setHint')}
            </Text>
            <Group gap="xs">
              {TIMER_BUTTONS_SECONDS.map((seconds, index) => {
                const choice = choices.get(seconds);
                const key = TIMER_KEYS[index];
                const isBlocked = choice?.kind === 'blocked';
                return (
                  <Button
                    key={seconds}
                    variant="light"
                    color={choice?.kind === 'shortens' ? 'orange' : 'green'}
                    onClick={() => start(seconds, seconds)}
                    loading={timer.isPending && source === seconds}
                    disabled={isBlocked}
                    aria-describedby={isBlocked && blocked ? reasonId : undefined}
                    data-choice={choice?.kind}
                    aria-keyshortcuts={key}
                    rightSection={
                      key ? (
                        <Kbd size="xs" visibleFrom="sm" aria-hidden>
                          {key}
                        </Kbd>
                      ) : undefined
                    }
                  >
                    {t('livehub.timer.set', { seconds })}
                  </Button>
                );
              })}
            </Group>
            {blocked?.kind === 'blocked' && (
              <Text size="xs" c="orange" id={reasonId} data-testid="timer-blocked">
                {t(`livehub.timer.blocked.${blocked.reason as 'sold' | 'bidsStand'}`)}
              </Text>
            )}
            {!blocked && shortening && badge.key === 'running' && (
              <Text size="xs" c="orange" data-testid="timer-shortens">
                {t('livehub.timer.shortensHint', { time: badge.time })}
              </Text>
            )}
            <Text size="xs" c="dimmed" visibleFrom="sm" data-testid="hub-shortcuts">
              {t('livehub.flow.shortcuts')}
            </Text>
            <CustomSecondsField
              detail={detail}
              onApply={(seconds) => start(seconds, 'custom')}
              isPending={timer.isPending && source === 'custom'}
              error={inputError}
              onTyped={() => setInputError(null)}
            />
          </>
        )}
        {timer.isError && (
          <Alert color="red" variant="filled" role="alert" withCloseButton onClose={() => timer.reset()} closeButtonLabel={t('common.close')}>
            {apiErrorText(timer.error, { networkMessage: t('common.networkError'), fallback: t('livehub.timer.failed') })}
          </Alert>
        )}
      </Stack>
      <ReopenPrompt stackId={NEXT_REOPEN_WINDOW} {...reopenPrompt} />
      <ShortenPrompt prompt={shortenPrompt} />
    </Paper>
  );
}
