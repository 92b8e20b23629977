import { Badge, Group, Paper, Text } from '@mantine/core';
import type { LiveSessionData } from '../../api/live';
import { useTranslation } from '../../i18n';
import { clockOffset } from '../../lib/countdown';
import { CurrentLotLive } from '../current-lot-live';
import { type ClockPhase, clockPhase, currentLot, serverClock } from '../timer-view';
import { useNow } from '../use-now';
import classes from './phone-hub.module.css';

const PHASE_COLORS: Record<ClockPhase, string> = { running: 'red', ready: 'blue', closing: 'orange', sold: 'teal', unsold: 'gray' };

/**
 * The lot on the block, as the desktop Hub's current row reads it: its order and phase, its name,
 * and the live line (price, bids, who leads or won, the countdown) the buyers' phones see.
 */
export function PhoneLotCard({ detail, leaderName }: { detail: LiveSessionData; leaderName: string | null }) {
  const { t } = useTranslation();
  const deviceNow = useNow();
  const lot = currentLot(detail);
  if (!lot) {
    return (
      <Paper radius="lg" p="sm" className={classes.lotCard} data-testid="phone-lot-card" data-phase="none">
        <Text size="sm">{t('livehub.phone.noLot')}</Text>
      </Paper>
    );
  }
  const phase = clockPhase(lot.auction.state, serverClock(detail, deviceNow));
  return (
    <Paper
      radius="lg"
      p="sm"
      className={classes.lotCard}
      component="section"
      aria-label={t('livehub.phone.lotCard')}
      data-testid="phone-lot-card"
      data-phase={phase}
      data-lot-id={lot.id}
    >
      <Group gap={6} wrap="nowrap">
        <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
          {t('livehub.lots.order', { order: lot.order })}
        </Text>
        <Badge
          color={PHASE_COLORS[phase]}
          variant={phase === 'running' || phase === 'sold' ? 'filled' : 'light'}
          size="sm"
          tt="none"
          data-testid="phone-lot-phase"
        >
          {phase === 'running' ? t('livehub.lots.current') : t(`livehub.lots.phase.${phase}`)}
        </Badge>
      </Group>
      <Text fw={700} size="sm" lineClamp={2} data-testid="phone-lot-name">
        {lot.auction.name || t('livehub.picker.unnamed')}
      </Text>
      <CurrentLotLive state={lot.auction.state} phase={phase} leaderName={leaderName} offsetMs={clockOffset(detail.serverNow, detail.receivedAt)} />
    </Paper>
  );
}
