import { Alert, Badge, Button, Group, Kbd, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { TIMER_BUTTONS_SECONDS, TIMER_MIN_SECONDS, TIMER_STEP_SECONDS } from '../../domain/live.js';
import { formatTimer } from '../../domain/live-public.js';
import type { LiveSessionData } from '../api/live';
import { isSessionEndedError, useLotActions, useUpdateSession } from '../api/live-hub';
import { ClockIcon } from '../components/icons';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { ConfirmWindow, ReopenPrompt, useAskReopen } from './hub-prompts';
import { NEXT_KEY, TIMER_KEYS, useHubShortcuts } from './hub-shortcuts';
import { HUB_WINDOW } from './hub-windows';
import { defaultCustomSeconds, parseCustomSeconds } from './session-form';
import { currentLot, hubTimerBadge, serverClock, type TimerChoice, timerChoice } from './timer-view';
import { useNow } from './use-now';

/** The reopen question of 'Siguiente lote' on an ended session (a place in the Hub's Modal.Stack, hub-windows.ts). */
const NEXT_REOPEN_WINDOW = 'livehub-next-reopen';

const BADGE_COLORS = { idle: 'gray', ready: 'blue', running: 'green', finished: 'red' } as const;

/**
 * The timer panel (SPEC §2, §4 "Timer state"): the badge, the buttons that set the time left
 * ('Quedan 15 s', SPEC's +15s: endTime = now + 15 s) and the custom seconds. A button that would
 * cut a running lot's time asks first, or says why it cannot once bids stand.
 */
export function TimerPanel({ detail }: { detail: LiveSessionData }) {
  const { t } = useTranslation();
  const deviceNow = useNow();
  const reasonId = useId();
  const { timer, next } = useLotActions(detail.session.id);
  const pause = useUpdateSession();
  const reopen = useAskReopen();
  const [typed, setTyped] = useState(() => defaultCustomSeconds(detail.session.biddingConfig));
  const [inputError, setInputError] = useState<string | null>(null);
  const [source, setSource] = useState<number | 'custom' | null>(null);
  const [toConfirm, setToConfirm] = useState<{ seconds: number; from: number | 'custom'; remainingMs: number } | null>(null);
  const badge = hubTimerBadge(detail, deviceNow);
  const lot = currentLot(detail);
  const now = serverClock(detail, deviceNow);
  const choices = new Map<number, TimerChoice>(TIMER_BUTTONS_SECONDS.map((s) => [s, timerChoice(s, lot, now)]));
  const blocked = [...choices.values()].find((c) => c.kind === 'blocked' && c.reason !== 'noLot');
  const shortening = [...choices.values()].some((c) => c.kind === 'shortens');

  const send = (seconds: number, from: number | 'custom') => {
    setSource(from);
    timer.reset();
    timer.mutate(seconds);
  };
  /** Checks what the seconds would do at the moment of the click. */
  const start = (seconds: number, from: number | 'custom') => {
    const choice = timerChoice(seconds, currentLot(detail), serverClock(detail, Date.now()));
    if (choice.kind === 'shortens') setToConfirm({ seconds, from, remainingMs: choice.remainingMs });
    else if (choice.kind === 'blocked' && choice.reason !== 'noLot') setInputError(t(`livehub.timer.blocked.${choice.reason}`));
    else send(seconds, from);
  };
  // 'Siguiente lote' opens an ended session again only once the seller agreed (as 'Establecer actual').
  const goNext = async (confirmed = false) => {
    if (next.isPending) return;
    let isReopen = confirmed;
    if (!isReopen && detail.session.status === 'ended') {
      if (!(await reopen.ask())) return;
      isReopen = true;
    }
    next.reset();
    next.mutate(
      { reopen: isReopen },
      {
        onError: async (error) => {
          if (!isReopen && isSessionEndedError(error)) {
            next.reset();
            if (await reopen.ask()) void goNext(true);
          }
        },
      },
    );
  };
  useHubShortcuts(detail.canEdit, (shortcut) => {
    if (shortcut.kind === 'next') void goNext();
    else {
      const seconds = TIMER_BUTTONS_SECONDS[shortcut.index];
      if (seconds !== undefined && choices.get(seconds)?.kind !== 'blocked' && !timer.isPending) start(seconds, seconds);
    }
  });
  const auto = detail.session.biddingConfig.autoAdvanceSeconds;
  const autoAt = detail.session.autoAdvanceAt;
  const autoLeft = autoAt === null ? null : Math.max(0, Math.ceil((autoAt - now) / 1000));
  const setPaused = (paused: boolean) => pause.mutate({ id: detail.session.id, input: { autoAdvancePaused: paused } });

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
            {next.isError && !isSessionEndedError(next.error) && (
              <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => next.reset()} closeButtonLabel={t('common.close')}>
                {apiErrorText(next.error, { networkMessage: t('common.networkError'), fallback: t('livehub.flow.nextFailed') })}
              </Alert>
            )}
            {auto !== null && (
              <Group justify="space-between" gap="xs" wrap="wrap" data-testid="auto-advance">
                <Text size="sm" fw={autoLeft !== null ? 700 : 400} c={autoLeft !== null ? 'martillo' : 'dimmed'} aria-live="polite">
                  {detail.session.autoAdvancePaused
                    ? t('livehub.flow.autoPaused')
                    : autoLeft !== null
                      ? t('livehub.flow.autoCountdown', { seconds: autoLeft })
                      : t('livehub.flow.autoOn', { seconds: auto })}
                </Text>
                <Button
                  size="compact-sm"
                  variant="light"
                  color={detail.session.autoAdvancePaused ? 'green' : 'orange'}
                  loading={pause.isPending}
                  onClick={() => setPaused(!detail.session.autoAdvancePaused)}
                >
                  {detail.session.autoAdvancePaused ? t('livehub.flow.resume') : t('livehub.flow.pause')}
                </Button>
              </Group>
            )}
            {pause.isError && (
              <Text size="xs" c="red" role="alert">
                {apiErrorText(pause.error, { networkMessage: t('common.networkError'), fallback: t('livehub.flow.pauseFailed') })}
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
      <ReopenPrompt stackId={NEXT_REOPEN_WINDOW} {...reopen.prompt} />
      <ConfirmWindow
        stackId={HUB_WINDOW.timerShorten}
        opened={toConfirm !== null}
        title={t('livehub.timer.shortenTitle')}
        cancelLabel={t('livehub.timer.shortenCancel')}
        confirmLabel={t('livehub.timer.shortenConfirm', { seconds: toConfirm?.seconds ?? 0 })}
        confirmColor="orange"
        onCancel={() => setToConfirm(null)}
        onConfirm={() => {
          const next = toConfirm;
          setToConfirm(null);
          if (next) send(next.seconds, next.from);
        }}
      >
        <Text size="sm">{t('livehub.timer.shortenText', { remaining: formatTimer(toConfirm?.remainingMs ?? 0), seconds: toConfirm?.seconds ?? 0 })}</Text>
      </ConfirmWindow>
    </Paper>
  );
}
