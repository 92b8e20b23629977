import { Button, Card, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../i18n';
import { countdownParts } from '../../lib/countdown';
import { formatDate } from '../../lib/dates';
import { useServerNow } from '../bidding/use-server-clock';
import { waitText } from '../bidding/wait-text';
import classes from './live-page.module.css';

/**
 * 'Comienza en 1 día 15 h' (or '2 h 05 min', '4 min 09 s'), on the server's clock, the start in
 * Mexico City time, and 'Agregar a mi calendario' (an .ics file the phone opens in its calendar).
 */
export function ScheduledCountdown({ sessionId, scheduledAt, offset, isDue }: { sessionId: string; scheduledAt: number; offset: number; isDue: boolean }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="scheduled">
      <Stack gap={4}>
        {isDue ? (
          <Text fw={700} role="status" data-testid="starting">
            {t('live.scheduled.starting')}
          </Text>
        ) : (
          <StartsIn scheduledAt={scheduledAt} offset={offset} />
        )}
        <Text size="sm" c="dimmed" component="time" dateTime={new Date(scheduledAt).toISOString()} data-testid="scheduled-at">
          {t('live.scheduled.startsAt', { date: formatDate(scheduledAt) })}
        </Text>
        {!isDue && (
          <Button
            component="a"
            href={`/api/live-sessions/${encodeURIComponent(sessionId)}/calendar.ics`}
            download
            variant="light"
            mt="xs"
            size="md"
            data-testid="add-to-calendar"
          >
            {t('live.scheduled.addToCalendar')}
          </Button>
        )}
      </Stack>
    </Card>
  );
}

/** Ticks every second: kept apart so only it re-renders. */
function StartsIn({ scheduledAt, offset }: { scheduledAt: number; offset: number }) {
  const { t } = useTranslation();
  const now = useServerNow(offset);
  const c = countdownParts(scheduledAt, now);
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed">
        {t('live.scheduled.startsIn')}
      </Text>
      <Text fz={28} fw={800} lh={1.2} role="timer" className={classes.countdown} data-testid="start-countdown">
        {waitText(t, c.remainingMs, 'words')}
      </Text>
    </Stack>
  );
}
