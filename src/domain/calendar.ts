/**
 * 'Agregar a mi calendario': a show as an iCalendar file (RFC 5545) that Google Calendar, Apple
 * Calendar and Outlook import. The time is written in Mexico City's zone with its VTIMEZONE
 * (Mexico has kept standard time all year since 2022: UTC−6), so the event shows at the hour the
 * seller announced wherever the buyer's phone is set. Pure, so it is tested line by line.
 */

import { MEXICO_CITY_TZ } from './time-zone.js';

/** A show lasts about this long; calendars need an end, and the seller sets none. */
export const SHOW_CALENDAR_MINUTES = 120;

export interface CalendarShow {
  id: string;
  title: string;
  sellerName: string;
  /** epoch ms */
  scheduledAt: number;
  /** The show's public page, absolute. */
  url: string;
  /** The site's host, for the event's UID. */
  host: string;
  /** epoch ms: when this file is made (DTSTAMP). */
  now: number;
}

/** TEXT values escape backslashes, semicolons, commas and line breaks (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Lines longer than 75 octets are folded: a CRLF and one space, never inside a UTF-8 character
 * (RFC 5545 §3.1).
 */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let currentBytes = 0;
  for (const char of line) {
    const bytes = encoder.encode(char).length;
    // Continuation lines start with a space, which counts towards their 75.
    const limit = parts.length === 0 ? 75 : 74;
    if (currentBytes + bytes > limit) {
      parts.push(current);
      current = '';
      currentBytes = 0;
    }
    current += char;
    currentBytes += bytes;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** 'YYYYMMDDTHHMMSS' of an instant in Mexico City. */
export function mexicoCityLocal(epochMs: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: MEXICO_CITY_TZ,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(epochMs));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}${part('month')}${part('day')}T${part('hour')}${part('minute')}${part('second')}`;
}

/** 'YYYYMMDDTHHMMSSZ' in UTC. */
function utcStamp(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The event's title: the show and who sells. */
function summaryOf(show: Pick<CalendarShow, 'title' | 'sellerName'>): string {
  return show.sellerName ? `${show.title} · ${show.sellerName}` : show.title;
}

function descriptionOf(url: string): string {
  return `Subasta en vivo en Martillo. Entra aquí para ver el show y pujar: ${url}`;
}

export function showCalendar(show: CalendarShow): string {
  const summary = summaryOf(show);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Martillo//Subastas en vivo//ES',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VTIMEZONE',
    `TZID:${MEXICO_CITY_TZ}`,
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    'TZOFFSETFROM:-0600',
    'TZOFFSETTO:-0600',
    'TZNAME:CST',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    `UID:live-session-${show.id}@${show.host}`,
    `DTSTAMP:${utcStamp(show.now)}`,
    `DTSTART;TZID=${MEXICO_CITY_TZ}:${mexicoCityLocal(show.scheduledAt)}`,
    `DTEND;TZID=${MEXICO_CITY_TZ}:${mexicoCityLocal(show.scheduledAt + SHOW_CALENDAR_MINUTES * 60_000)}`,
    `SUMMARY:${escapeText(summary)}`,
    `DESCRIPTION:${escapeText(descriptionOf(show.url))}`,
    `LOCATION:${escapeText(show.url)}`,
    `URL:${show.url}`,
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${escapeText(`Empieza el show: ${show.title}`)}`,
    'TRIGGER:-PT15M',
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/**
 * Google Calendar's "new event" page, filled in with the same event as the file (Google reads the
 * times in UTC and shows them in the buyer's zone).
 */
export function googleCalendarUrl(show: Pick<CalendarShow, 'title' | 'sellerName' | 'scheduledAt' | 'url'>): string {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: summaryOf(show),
    dates: `${utcStamp(show.scheduledAt)}/${utcStamp(show.scheduledAt + SHOW_CALENDAR_MINUTES * 60_000)}`,
    details: descriptionOf(show.url),
    location: show.url,
    ctz: MEXICO_CITY_TZ,
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}
