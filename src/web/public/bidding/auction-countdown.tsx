import { Group, Stack, Text } from '@mantine/core';
import { ClockIcon } from '../../components/icons';
import { useTranslation } from '../../i18n';
import { countdownParts, pad2 } from '../../lib/countdown';
import { DATE_TIME_FORMAT, formatDate } from '../../lib/dates';
import classes from './bidding.module.css';
import { useServerNow } from './use-server-clock';

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
  const values = {
    days: String(c.days),
    hours: c.pattern === 'hours' ? String(c.hours) : pad2(c.hours),
    minutes: c.pattern === 'minutes' ? String(c.minutes) : pad2(c.minutes),
    seconds: c.pattern === 'seconds' ? String(c.seconds) : pad2(c.seconds),
  };
  const dateFormat = isOver || c.remainingMs > SECONDS_SHOWN_WITHIN_MS ? DATE_TIME_FORMAT : END_TIME_WITH_SECONDS;

  return (
    <Stack gap={2}>
      {/* The label sits above, so the time itself keeps to one line on a 390 px phone. */}
      {!isOver && (
        <Text size="sm" c="dimmed">
          {t('bidding.countdown.label')}
        </Text>
      )}
      <Group gap={6} wrap="nowrap" c={isOver ? 'dimmed' : c.isFinalMinute ? 'red.7' : undefined}>
        <ClockIcon size={18} />
        <Text
          span
          role="timer"
          fz="lg"
          fw={700}
          className={classes.countdown}
          c={isOver ? 'dimmed' : c.isFinalMinute ? 'red.7' : undefined}
          data-testid="countdown"
          data-final-minute={c.isFinalMinute || undefined}
          data-over={isOver || undefined}
        >
          {isOver ? t('bidding.countdown.over') : t(`bidding.countdown.${c.pattern}`, values)}
        </Text>
      </Group>
      <Text size="sm" c="dimmed" component="time" dateTime={new Date(endTime).toISOString()} data-testid="end-time">
        {t(isOver ? 'bidding.countdown.endedAt' : 'publicAuction.endsAt', { date: formatDate(endTime, dateFormat) })}
      </Text>
    </Stack>
  );
}
