/**
 * 'Agregar al calendario' built in the browser: an iCalendar file (RFC 5545) for Apple Calendar and
 * Outlook, and the Google Calendar link. Times are written in UTC ('Z'), which every calendar shows
 * in the phone's own zone. Pure, so it is tested line by line.
 */

/** A show lasts about an hour for a calendar's purposes; the seller sets no end. */
export const SHOW_EVENT_MINUTES = 60;

export interface CalendarEvent {
  id: string;
  title: string;
  sellerName: string;
  /** epoch ms */
  scheduledAt: number;
  /** The show's page, absolute. */
  url: string;
  /** The site's host, for the event's UID. */
  host: string;
  /** epoch ms: when the file is made (DTSTAMP). */
  now: number;
}

/** TEXT values: backslash, semicolon, comma and line breaks escaped (RFC 5545 §3.3.11). */
export function escapeIcsText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** Lines over 75 octets folded with CRLF and a space, never inside a UTF-8 character (RFC 5545 §3.1). */
export function foldIcsLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // A continuation line's leading space counts towards its 75.
    const limit = parts.length === 0 ? 75 : 74;
    if (bytes + size > limit) {
      parts.push(current);
      current = '';
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** 'YYYYMMDDTHHMMSSZ' */
export function utcStamp(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function summaryOf(event: Pick<CalendarEvent, 'title' | 'sellerName'>): string {
  return event.sellerName ? `${event.title} · ${event.sellerName}` : event.title;
}

function descriptionOf(url: string): string {
  return `Subasta en vivo en Martillo. Entra aquí para ver el show y pujar: ${url}`;
}

/** The .ics file's text: one VEVENT, an hour long, with a reminder 15 minutes before. */
export function buildIcs(event: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Martillo//Subastas en vivo//ES',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:live-session-${event.id}@${event.host}`,
    `DTSTAMP:${utcStamp(event.now)}`,
    `DTSTART:${utcStamp(event.scheduledAt)}`,
    `DTEND:${utcStamp(event.scheduledAt + SHOW_EVENT_MINUTES * 60_000)}`,
    `SUMMARY:${escapeIcsText(summaryOf(event))}`,
    `DESCRIPTION:${escapeIcsText(descriptionOf(event.url))}`,
    `LOCATION:${escapeIcsText(event.url)}`,
    `URL:${event.url}`,
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${escapeIcsText(`Empieza el show: ${event.title}`)}`,
    'TRIGGER:-PT15M',
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldIcsLine).join('\r\n')}\r\n`;
}

/** Google Calendar's "new event" page, filled in. */
export function googleCalendarUrl(event: Pick<CalendarEvent, 'title' | 'sellerName' | 'scheduledAt' | 'url'>): string {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: summaryOf(event),
    dates: `${utcStamp(event.scheduledAt)}/${utcStamp(event.scheduledAt + SHOW_EVENT_MINUTES * 60_000)}`,
    details: descriptionOf(event.url),
    location: event.url,
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/** A file name a phone keeps: the title's letters and digits, hyphenated. */
export function icsFileName(title: string): string {
  const base = title
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'show'}.ics`;
}
