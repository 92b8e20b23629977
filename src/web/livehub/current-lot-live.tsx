import { Group, Text } from '@mantine/core';
import type { AuctionLiveState } from '../../domain/bidding.js';
import { formatTimer } from '../../domain/live.js';
import { formatMoney } from '../../domain/money.js';
import { useTranslation } from '../i18n';
import type { LotPhase } from './timer-view';
import { useNow } from './use-now';

interface CurrentLotLiveProps {
  state: AuctionLiveState;
  phase: LotPhase;
  /** The leader, masked ('Ju***'), from the bid history; null until it arrives. */
  leaderName: string | null;
  offsetMs: number;
}

/**
 * The current lot as buyers see it, live (the auction room's state, the same events their phones
 * get): who leads, the price, the bid count and the time left, ticking every second.
 */
export function CurrentLotLive({ state, phase, leaderName, offsetMs }: CurrentLotLiveProps) {
  const { t } = useTranslation();
  const now = useNow() + offsetMs;
  const hasBids = state.bidCount > 0 && state.currentPrice !== null;
  const price = hasBids ? (state.currentPrice ?? state.startingPrice) : state.startingPrice;
  const isRunning = phase === 'running' && state.endTime !== null && state.endTime > now;
  const winner = state.winnerName ?? leaderName;

  return (
    <Group gap="xs" wrap="wrap" data-testid="current-lot-live">
      <Group component="span" gap="xs" wrap="wrap" aria-live="polite">
        <Text size="sm" fw={700} data-testid="current-lot-price">
          {phase === 'sold' ? t('livehub.lots.live.soldFor', { price: formatMoney(price) }) : formatMoney(price)}
        </Text>
        <Text size="sm" c="dimmed" data-testid="current-lot-bids">
          {t('livehub.lots.bids', { count: state.bidCount })}
        </Text>
        {phase === 'sold' && winner && (
          <Text size="sm" data-testid="current-lot-leader">
            {t('livehub.lots.live.winner', { name: winner })}
          </Text>
        )}
        {phase !== 'sold' && hasBids && leaderName && (
          <Text size="sm" data-testid="current-lot-leader">
            {t('livehub.lots.live.leader', { name: leaderName })}
          </Text>
        )}
      </Group>
      {isRunning && state.endTime !== null && (
        <Text size="sm" fw={700} c="red.8" data-testid="current-lot-countdown">
          {t('livehub.lots.live.left', { time: formatTimer(state.endTime - now) })}
        </Text>
      )}
    </Group>
  );
}
