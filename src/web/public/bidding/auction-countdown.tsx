import { Group, Stack, Text } from '@mantine/core';
import { ClockIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { countdownParts } from '../../lib/countdown';
import { DATE_TIME_FORMAT, formatDate } from '../../lib/dates';
import classes from './bidding.module.css';
import { useServerNow } from './use-server-clock';
import { waitText } from './wait-text';

/** Within the last hour the end time shows its seconds: an anti-snipe extension moves it by seconds. */
const SECONDS_SHOWN_WITHIN_MS = 3_600_000;
const END_TIME_WITH_SECONDS = 'D [de] MMMM [de] YYYY, HH:mm:ss';

/**
 * Time left on the server's clock (device time + offset), turning every second, red in the last
 * minute and 'Finalizada' at zero; under it, the end date in Mexico City time.
 */
export function AuctionCountdown({ endTime, offset, isEnded }: { endTime: number | null; offset: number; isEnded: boolean }) {
  const { t } = useTranslation();
  const now = useServerNow(offset);

  if (endTime === null) {
    return (
      <Text size="sm" c="dimmed">
        {t('bidding.countdown.noEnd')}
      </Text>
    );
  }
  const c = countdownParts(endTime, now);
  const isOver = isEnded || c.isOver;
  const dateFormat = isOver || c.remainingMs > SECONDS_SHOWN_WITHIN_MS ? DATE_TIME_FORMAT : END_TIME_WITH_SECONDS;

  return (
    <Stack gap={2}>
      {/* The label sits above, so the time itself keeps to one line on a 390 px phone. */}
      {!isOver && (
        <Text size="sm" c="dimmed">
          {t('bidding.countdown.label')}
        </Text>
      )}
      {/* 'red' is the theme's text red, darkened to 4.5:1 on white (red.7 itself is 3.8:1). */}
      <Group gap={6} wrap="nowrap" c={isOver ? 'dimmed' : c.isFinalMinute ? 'red' : undefined}>
        <ClockIcon size={18} />
        <Text
          span
          role="timer"
          fz="lg"
          fw={700}
          className={classes.countdown}
          c={isOver ? 'dimmed' : c.isFinalMinute ? 'red' : undefined}
          data-testid="countdown"
          data-final-minute={c.isFinalMinute || undefined}
          data-over={isOver || undefined}
        >
          {isOver ? t('bidding.countdown.over') : waitText(t, c.remainingMs, 'words')}
        </Text>
      </Group>
      <Text size="sm" c="dimmed" component="time" dateTime={new Date(endTime).toISOString()} data-testid="end-time">
        {t(isOver ? 'bidding.countdown.endedAt' : 'publicAuction.endsAt', { date: formatDate(endTime, dateFormat) })}
      </Text>
    </Stack>
  );
}
