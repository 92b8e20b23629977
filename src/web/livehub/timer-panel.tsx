import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { TIMER_BUTTONS_SECONDS, TIMER_MIN_SECONDS, TIMER_STEP_SECONDS } from '../../domain/live.js';
import type { LiveSessionData } from '../api/live';
import { useLotActions } from '../api/live-hub';
import { ClockIcon } from '../components/icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { defaultCustomSeconds, parseCustomSeconds } from './session-form';
import { currentLot, hubTimerState, timerBadge } from './timer-view';

/** The device clock, ticking once a second (SPEC §9: the countdown refreshes every second). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const BADGE_COLORS = { idle: 'gray', running: 'green', finished: 'red' } as const;

/** The timer panel (SPEC §2, §4 "Timer state"): the badge, +15s/+30s/+60s and the custom seconds. */
export function TimerPanel({ detail }: { detail: LiveSessionData }) {
  const { t } = useTranslation();
  const now = useNow();
  const { timer } = useLotActions(detail.session.id);
  const [typed, setTyped] = useState(() => defaultCustomSeconds(detail.session.biddingConfig));
  const [inputError, setInputError] = useState<string | null>(null);
  const [source, setSource] = useState<number | 'custom' | null>(null);
  const badge = timerBadge(hubTimerState(detail, now));
  const lot = currentLot(detail);

  const start = (seconds: number, from: number | 'custom') => {
    setSource(from);
    timer.reset();
    timer.mutate(seconds);
  };
  const applyCustom = () => {
    const parsed = parseCustomSeconds(typed);
    if (!parsed.ok) {
      setInputError(t(`livehub.errors.${parsed.errors.seconds ?? 'timerInvalid'}` as 'livehub.errors.invalid'));
      return;
    }
    setInputError(null);
    start(parsed.value, 'custom');
  };

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
            <Group gap="xs">
              {TIMER_BUTTONS_SECONDS.map((seconds) => (
                <Button key={seconds} variant="light" color="green" onClick={() => start(seconds, seconds)} loading={timer.isPending && source === seconds}>
                  {t('livehub.timer.add', { seconds })}
                </Button>
              ))}
            </Group>
            <TextInput
              label={t('livehub.timer.custom')}
              description={t('livehub.timer.customHint')}
              type="number"
              inputMode="numeric"
              min={TIMER_MIN_SECONDS}
              step={TIMER_STEP_SECONDS}
              value={typed}
              onChange={(e) => {
                setTyped(e.currentTarget.value);
                setInputError(null);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') applyCustom();
              }}
              error={inputError}
              maw={320}
              inputContainer={(input) => (
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <div style={{ flex: 1 }}>{input}</div>
                  <Button onClick={applyCustom} loading={timer.isPending && source === 'custom'}>
                    {t('livehub.timer.apply')}
                  </Button>
                </Group>
              )}
            />
          </>
        )}
        {timer.isError && (
          <Alert color="red" variant="filled" role="alert" withCloseButton onClose={() => timer.reset()} closeButtonLabel={t('common.close')}>
            {apiErrorText(timer.error, { networkMessage: t('common.networkError'), fallback: t('livehub.timer.failed') })}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
