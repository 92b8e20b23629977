import { Group, Stack, Text } from '@mantine/core';
import type { LotView } from '../../../domain/live.js';
import { timerState } from '../../../domain/live-public.js';
import { formatMoney } from '../../../domain/money.js';
import { useTranslation } from '../../i18n';
import { useServerNow } from '../bidding/use-server-clock';
import { waitText } from '../bidding/wait-text';
import classes from './live-page.module.css';
import { FINAL_SECONDS_MS, isSold, shownPrice } from './live-view';

/**
 * The lot on the block over the video: name, price and time left, so a phone watching the show
 * sees them without scrolling. Visual only (aria-hidden): the bid panel below says the same to
 * screen readers, and its clock is the one with role="timer".
 */
export function LotOverlay({ lot, offset }: { lot: LotView; offset: number }) {
  const { t } = useTranslation();
  const now = useServerNow(offset);
  const state = lot.auction.state;
  const timer = timerState({ hasCurrentLot: true, auction: { endTime: state.endTime, status: state.status }, now });
  const isEnded = state.status === 'ended';
  return (
    <Stack gap={2} className={classes.overlayBottom} aria-hidden="true" data-testid="lot-overlay">
      <Text size="sm" fw={600} lineClamp={1}>
        {lot.auction.name}
      </Text>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fz="xl" fw={800} lh={1.1} data-testid="overlay-price">
          {formatMoney(shownPrice(state))}
        </Text>
        <Text
          fz="lg"
          fw={800}
          className={classes.countdown}
          data-testid="overlay-timer"
          data-final={timer.kind === 'running' && timer.remainingMs <= FINAL_SECONDS_MS ? true : undefined}
        >
          {isEnded
            ? isSold(state)
              ? t('live.results.sold')
              : t('live.results.unsold')
            : timer.kind === 'running'
              ? waitText(t, timer.remainingMs, 'clock')
              : timer.kind === 'finished' && state.endTime !== null
                ? t('bidding.countdown.closing')
                : null}
        </Text>
      </Group>
    </Stack>
  );
}
