import { Group, Text } from '@mantine/core';
import type { AuctionLiveState } from '../../domain/bidding.js';
import { formatTimer } from '../../domain/live-public.js';
import { formatMoney } from '../../domain/money.js';
import { useTranslation } from '../i18n';
import type { ClockPhase } from './timer-view';
import { useNow } from './use-now';

interface CurrentLotLiveProps {
  state: AuctionLiveState;
  phase: ClockPhase;
  /** The leader, masked ('Ju***'), from the bid history; null until it arrives. */
  leaderName: string | null;
  offsetMs: number;
}

const Sep = () => (
  <Text span size="sm" c="dimmed" aria-hidden="true">
    ·
  </Text>
);

/**
 * The current lot as buyers see it, live (the auction room's state, the same events their phones
 * get): the price, the bid count, who leads (or won) and the time left, ticking every second.
 */
export function CurrentLotLive({ state, phase, leaderName, offsetMs }: CurrentLotLiveProps) {
  const { t } = useTranslation();
  const now = useNow() + offsetMs;
  const hasBids = state.bidCount > 0 && state.currentPrice !== null;
  const price = hasBids ? (state.currentPrice ?? state.startingPrice) : state.startingPrice;
  const priceLabel = phase === 'sold' ? t('livehub.lots.live.soldFor') : hasBids ? t('livehub.lots.currentPrice') : t('livehub.lots.startingPrice');
  const isRunning = phase === 'running' && state.endTime !== null && state.endTime > now;
  const winner = state.winnerName ?? leaderName;
  const who =
    phase === 'sold'
      ? winner
        ? t('livehub.lots.live.winner', { name: winner })
        : null
      : hasBids && leaderName
        ? t('livehub.lots.live.leader', { name: leaderName })
        : null;

  return (
    <Group gap={6} wrap="wrap" data-testid="current-lot-live">
      {/* Bids are announced to a screen reader; the ticking countdown is not. */}
      <Group component="span" gap={6} wrap="wrap" aria-live="polite">
        <Text span size="sm">
          {phase === 'sold' ? priceLabel : `${priceLabel}:`}{' '}
          <Text span fw={700} data-testid="current-lot-price">
            {formatMoney(price)}
          </Text>
        </Text>
        <Sep />
        <Text span size="sm" c="dimmed" data-testid="current-lot-bids">
          {t('livehub.lots.bids', { count: state.bidCount })}
        </Text>
        {who && (
          <>
            <Sep />
            <Text span size="sm" data-testid="current-lot-leader">
              {who}
            </Text>
          </>
        )}
      </Group>
      {isRunning && state.endTime !== null && (
        <>
          <Sep />
          <Text span size="sm" fw={700} c="red" data-testid="current-lot-countdown">
            {t('livehub.lots.live.left', { time: formatTimer(state.endTime - now) })}
          </Text>
        </>
      )}
    </Group>
  );
}
