// placeholder: the store helper's version replaces this
import { Button } from '@mantine/core';
import { useTranslation } from '../../i18n';

/** *Agregar al calendario*: the show's .ics file (GET /api/live-sessions/{id}/calendar.ics), which the phone opens in its calendar. */
export function CalendarButton({ show }: { show: { id: string; title: string; url: string; scheduledAt: number; sellerName: string } }) {
  const { t } = useTranslation();
  return (
    <Button
      component="a"
      href={`/api/live-sessions/${encodeURIComponent(show.id)}/calendar.ics`}
      download
      size="compact-md"
      variant="default"
      aria-label={`${t('home.addToCalendar')}: ${show.title}`}
      data-testid="calendar-button"
    >
      {t('home.addToCalendar')}
    </Button>
  );
}
