import { Box, Group, Progress, Stack, Text } from '@mantine/core';
import { type LinkStats, micTone, qualityTone } from '../../../domain/video.js';
import { useTranslation } from '../../i18n';
import { useMicLevel } from './use-mic-level';

const TONE_COLORS = { poor: 'red', fair: 'yellow', good: 'green' } as const;
const MIC_COLORS = { low: 'gray', mid: 'green', high: 'red' } as const;

/** 0–5 bars, coloured at SPEC §9's thresholds (under 2 red, under 4 yellow, else green). */
function Bars({ bars, label, testId }: { bars: number; label: string; testId: string }) {
  const color = `var(--mantine-color-${TONE_COLORS[qualityTone(bars)]}-6)`;
  return (
    <Group gap={6} wrap="nowrap" title={`${label}: ${bars}/5`} data-testid={testId} data-bars={bars}>
      <Text size="xs" c="dimmed" span>
        {label}
      </Text>
      <Group gap={2} align="flex-end" wrap="nowrap" aria-label={`${label}: ${bars} de 5`} role="img">
        {[1, 2, 3, 4, 5].map((n) => (
          <Box key={n} w={4} h={4 + n * 3} style={{ borderRadius: 1, background: n <= bars ? color : 'var(--mantine-color-gray-3)' }} />
        ))}
      </Group>
    </Group>
  );
}

/** Uplink and downlink quality, send bitrate and RTT (SPEC §2), refreshed every 2 s while publishing. */
export function LinkReadouts({ stats }: { stats: LinkStats }) {
  const { t } = useTranslation();
  return (
    <Group gap="md" wrap="wrap" data-testid="link-readouts">
      <Bars bars={stats.uplinkBars} label={t('livehub.broadcast.uplink')} testId="uplink-quality" />
      <Bars bars={stats.downlinkBars} label={t('livehub.broadcast.downlink')} testId="downlink-quality" />
      <Text size="xs" c="dimmed" data-testid="send-bitrate">
        {t('livehub.broadcast.bitrate', { value: stats.sendKbps ?? '—' })}
      </Text>
      <Text size="xs" c="dimmed" data-testid="rtt">
        {t('livehub.broadcast.rtt', { value: stats.rttMs ?? '—' })}
      </Text>
    </Group>
  );
}

/** The microphone level meter, 0–100, coloured at 30 and 70 (SPEC §9). It alone re-renders at the meter's pace. */
export function MicMeter({ track, muted }: { track: MediaStreamTrack | null; muted: boolean }) {
  const { t } = useTranslation();
  const level = useMicLevel(track, muted);
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {t('livehub.broadcast.micLevel')}
        </Text>
        {muted && (
          <Text size="xs" c="red" fw={600}>
            {t('livehub.broadcast.mutedShort')}
          </Text>
        )}
      </Group>
      <Progress
        value={level}
        color={MIC_COLORS[micTone(level)]}
        size="sm"
        aria-label={t('livehub.broadcast.micLevel')}
        data-testid="mic-meter"
        data-level={level}
        transitionDuration={80}
      />
    </Stack>
  );
}
