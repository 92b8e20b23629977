import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { googleCalendarUrl } from '../../../domain/calendar';
import { useTranslation } from '../../i18n';
import { NativeDialog } from '../native-dialog';
import { CalendarIcon } from './follow-icons';
import './strings';

export interface CalendarShow {
  id: string;
  title: string;
  /** The show's page: a path ('/live/…') or an absolute URL. */
  url: string;
  /** epoch ms */
  scheduledAt: number;
  sellerName: string;
}

/**
 * *Agregar al calendario*: a small sheet with Google Calendar (a link that opens its new-event page)
 * and Apple / Outlook (the show's .ics from the server, the same file the live page offers: an
 * iPhone opens a text/calendar answer straight in its calendar).
 */
export function CalendarButton({ show, size = 'sm' }: { show: CalendarShow; size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button
        size={size}
        variant="subtle"
        leftSection={<CalendarIcon size={16} />}
        aria-haspopup="dialog"
        aria-label={t('follow.calendarLabel', { title: show.title })}
        onClick={() => setOpen(true)}
        data-testid="calendar-button"
      >
        {t('follow.calendar')}
      </Button>
      {isOpen && <CalendarSheet show={show} onClose={() => setOpen(false)} />}
    </>
  );
}

function CalendarSheet({ show, onClose }: { show: CalendarShow; onClose: () => void }) {
  const { t } = useTranslation();
  // The show does not change while the sheet is open: the link is made once.
  const [google] = useState(() => googleCalendarUrl({ ...show, url: new URL(show.url, window.location.origin).href }));
  return (
    <NativeDialog title={t('follow.calendar')} onClose={onClose} closable size="sheet">
      <Stack gap="sm" data-testid="calendar-menu">
        <Button component="a" href={google} target="_blank" rel="noopener noreferrer" variant="default" size="md" fullWidth onClick={onClose}>
          {t('follow.calendarGoogle')}
        </Button>
        <Button
          component="a"
          href={`/api/live-sessions/${encodeURIComponent(show.id)}/calendar.ics`}
          download
          variant="default"
          size="md"
          fullWidth
          data-testid="calendar-ics"
          // Closed a moment later: the download must start from a link still in the page.
          onClick={() => window.setTimeout(onClose, 0)}
        >
          {t('follow.calendarIcs')}
        </Button>
      </Stack>
    </NativeDialog>
  );
}
