import { Button, type ButtonProps, Group, Text, TextInput } from '@mantine/core';
import { type CSSProperties, useEffect, useState } from 'react';
import { TIMER_MIN_SECONDS, TIMER_STEP_SECONDS } from '../../domain/live.js';
import { formatTimer } from '../../domain/live-public.js';
import type { LiveSessionData } from '../api/live';
import { isSessionEndedError, useLotActions, useUpdateSession } from '../api/live-hub';
import { useTranslation } from '../i18n';
import { apiErrorText } from '../lib/api-errors';
import { ConfirmWindow, useAskReopen } from './hub-prompts';
import { HUB_WINDOW } from './hub-windows';
import { defaultCustomSeconds, parseCustomSeconds } from './session-form';
import { currentLot, serverClock, type TimerChoice, timerChoice } from './timer-view';

/**
 * The lot's clock as both Hubs drive it (the desktop's timer panel and the phone's controls):
 * 'Siguiente lote', the timer buttons and the custom seconds with the question before cutting a
 * running lot's time, and 'Avance automático' with its countdown, 'Pausar' and 'Reanudar'.
 */

/** Where a timer request came from: a button's seconds, or the custom field. */
export type TimerSource = number | 'custom';

/**
 * The timer buttons and the custom seconds: what the seconds would do at the moment of the tap
 * decides (set, ask first, or refuse with the reason). The question closes by itself once it no
 * longer applies: a bid arrived (the server refuses to cut a lot with bids), the lot closed or
 * another lot went on the block.
 */
export function useTimerActions(detail: LiveSessionData) {
  const { timer } = useLotActions(detail.session.id);
  const [source, setSource] = useState<TimerSource | null>(null);
  const [toConfirm, setToConfirm] = useState<{ seconds: number; from: TimerSource; remainingMs: number; lotId: string } | null>(null);
  const [closedByBid, setClosedByBid] = useState(false);
  const lot = currentLot(detail);

  const send = (seconds: number, from: TimerSource) => {
    setSource(from);
    setClosedByBid(false);
    timer.reset();
    timer.mutate(seconds);
  };

  /** Sets, asks first (answers 'asked') or refuses (answers the choice, which says why). */
  const start = (seconds: number, from: TimerSource): TimerChoice | { kind: 'asked' } => {
    const now = currentLot(detail);
    const choice = timerChoice(seconds, now, serverClock(detail, Date.now()));
    setClosedByBid(false);
    if (choice.kind === 'shortens' && now) {
      setToConfirm({ seconds, from, remainingMs: choice.remainingMs, lotId: now.id });
      return { kind: 'asked' };
    }
    if (choice.kind === 'blocked' && choice.reason !== 'noLot') return choice;
    send(seconds, from);
    return choice;
  };

  // A bid (or the close, or another lot) makes the question moot: it goes, and says why when a bid did it.
  const state = lot?.auction.state;
  const hasBids = Boolean(state && (state.bidCount > 0 || state.leaderTag !== null));
  const isOpen = state?.status === 'live' || state?.status === 'active';
  useEffect(() => {
    if (!toConfirm) return;
    if (lot?.id !== toConfirm.lotId || !isOpen) setToConfirm(null);
    else if (hasBids) {
      setToConfirm(null);
      setClosedByBid(true);
    }
  }, [toConfirm, lot?.id, isOpen, hasBids]);

  const shortenPrompt = {
    opened: toConfirm !== null,
    seconds: toConfirm?.seconds ?? 0,
    remainingMs: toConfirm?.remainingMs ?? 0,
    onCancel: () => setToConfirm(null),
    onConfirm: () => {
      const chosen = toConfirm;
      setToConfirm(null);
      if (chosen) send(chosen.seconds, chosen.from);
    },
  };
  return { timer, source, start, shortenPrompt, closedByBid, dismissClosedByBid: () => setClosedByBid(false) };
}

/** 'Siguiente lote': the next queued lot on the block with its timer; on an ended session, ask to reopen it first. */
export function useNextLot(detail: LiveSessionData) {
  const { next } = useLotActions(detail.session.id);
  const reopen = useAskReopen();
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
          // Someone ended it meanwhile: ask, then send again with `reopen`.
          if (!isReopen && isSessionEndedError(error)) {
            next.reset();
            if (await reopen.ask()) void goNext(true);
          }
        },
      },
    );
  };
  /** The error to show (a session ended meanwhile is a question instead). */
  const error = next.isError && !isSessionEndedError(next.error) ? next.error : null;
  return { next, goNext, error, reopenPrompt: reopen.prompt };
}

/** 'Quedan N s' would cut a running lot's time: asked first, in the Hub's window stack. */
export function ShortenPrompt({ prompt }: { prompt: ReturnType<typeof useTimerActions>['shortenPrompt'] }) {
  const { t } = useTranslation();
  return (
    <ConfirmWindow
      stackId={HUB_WINDOW.timerShorten}
      opened={prompt.opened}
      title={t('livehub.timer.shortenTitle')}
      cancelLabel={t('livehub.timer.shortenCancel')}
      confirmLabel={t('livehub.timer.shortenConfirm', { seconds: prompt.seconds })}
      confirmColor="orange"
      onCancel={prompt.onCancel}
      onConfirm={prompt.onConfirm}
    >
      <Text size="sm">{t('livehub.timer.shortenText', { remaining: formatTimer(prompt.remainingMs), seconds: prompt.seconds })}</Text>
    </ConfirmWindow>
  );
}

/**
 * The custom seconds (SPEC "Custom timer": integer, min 5, step 5, default 60, 'Aplicar'). What the
 * seller typed stays as typed; a bad value says why. `onApply` gets the seconds once they are valid.
 */
export function CustomSecondsField({
  detail,
  onApply,
  isPending,
  error,
  onTyped,
  touch = false,
}: {
  detail: LiveSessionData;
  onApply: (seconds: number) => void;
  isPending: boolean;
  /** A refusal of the seconds from outside the field (the lot's bids stand, say). */
  error?: string | null;
  onTyped?: () => void;
  /** Thumb-sized (the phone): a taller field and button. */
  touch?: boolean;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState(() => defaultCustomSeconds(detail.session.biddingConfig));
  const [inputError, setInputError] = useState<string | null>(null);
  const apply = () => {
    const parsed = parseCustomSeconds(typed);
    if (!parsed.ok) {
      setInputError(t(`livehub.errors.${parsed.errors.seconds ?? 'timerInvalid'}` as 'livehub.errors.invalid'));
      return;
    }
    setInputError(null);
    onApply(parsed.value);
  };
  return (
    <TextInput
      label={t('livehub.timer.custom')}
      description={t('livehub.timer.customHint')}
      type="number"
      inputMode="numeric"
      min={TIMER_MIN_SECONDS}
      step={TIMER_STEP_SECONDS}
      value={typed}
      size={touch ? 'lg' : 'sm'}
      onChange={(e) => {
        setTyped(e.currentTarget.value);
        setInputError(null);
        onTyped?.();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') apply();
      }}
      error={inputError ?? error}
      maw={touch ? undefined : 320}
      // A thumb-sized field keeps the label at the size of its neighbours' headings.
      labelProps={touch ? { size: 'sm', fw: 600 } : undefined}
      data-testid="custom-seconds"
      inputContainer={(input) => (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <div style={{ flex: 1 }}>{input}</div>
          <Button onClick={apply} loading={isPending} size={touch ? 'lg' : 'sm'}>
            {t('livehub.timer.apply')}
          </Button>
        </Group>
      )}
    />
  );
}

/**
 * 'Avance automático' (biddingConfig.autoAdvanceSeconds): whether it is on, the seconds until the
 * next lot opens (session.autoAdvanceAt, on the server's clock), paused, and 'Pausar' / 'Reanudar'.
 */
export function useAutoAdvance(detail: LiveSessionData, deviceNow: number) {
  const pause = useUpdateSession();
  const seconds = detail.session.biddingConfig.autoAdvanceSeconds;
  const at = detail.session.autoAdvanceAt;
  const now = serverClock(detail, deviceNow);
  const left = at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
  const isPaused = detail.session.autoAdvancePaused;
  const setPaused = (paused: boolean) => pause.mutate({ id: detail.session.id, input: { autoAdvancePaused: paused } });
  return { isOn: seconds !== null, seconds: seconds ?? 0, left, isPaused, setPaused, pause };
}

/** The line the seller reads: paused, the countdown to the next lot, or that it is on. */
export function autoAdvanceText(t: ReturnType<typeof useTranslation>['t'], auto: ReturnType<typeof useAutoAdvance>, opts: { short?: boolean } = {}): string {
  if (auto.isPaused) return t('livehub.flow.autoPaused');
  if (auto.left !== null) return t('livehub.flow.autoCountdown', { seconds: auto.left });
  return opts.short ? t('livehub.phone.autoOn', { seconds: auto.seconds }) : t('livehub.flow.autoOn', { seconds: auto.seconds });
}

/** 'Pausar' / 'Reanudar' the auto-advance; its size and look are the caller's. */
export function AutoAdvancePauseButton({
  auto,
  ...look
}: { auto: ReturnType<typeof useAutoAdvance> } & Omit<ButtonProps, 'color' | 'loading'> & { className?: string; style?: CSSProperties }) {
  const { t } = useTranslation();
  return (
    <Button {...look} color={auto.isPaused ? 'green' : 'orange'} loading={auto.pause.isPending} onClick={() => auto.setPaused(!auto.isPaused)}>
      {auto.isPaused ? t('livehub.flow.resume') : t('livehub.flow.pause')}
    </Button>
  );
}

/** Why 'Pausar' / 'Reanudar' failed; null while it has not. */
export function autoAdvancePauseError(t: ReturnType<typeof useTranslation>['t'], auto: ReturnType<typeof useAutoAdvance>): string | null {
  if (!auto.pause.isError) return null;
  return apiErrorText(auto.pause.error, { networkMessage: t('common.networkError'), fallback: t('livehub.flow.pauseFailed') });
}
