import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, googleCalendarUrl, mexicoCityLocal, SHOW_CALENDAR_MINUTES, showCalendar } from '../../src/domain/calendar';

const show = {
  id: '4f1d2c3b-5a6e-4f70-8a91-b2c3d4e5f607',
  title: 'Relojes, plumas; y más',
  sellerName: 'Antigüedades Sofía',
  // 19:00 in Mexico City (UTC−6) on 27 Nov 2026.
  scheduledAt: Date.UTC(2026, 10, 28, 1, 0),
  url: 'https://martillo.mx/live/sofia/4f1d2c3b-5a6e-4f70-8a91-b2c3d4e5f607',
  host: 'martillo.mx',
  now: Date.UTC(2026, 10, 26, 12, 30, 5),
};

/** The file's logical lines, unfolded (RFC 5545 §3.1). */
const unfolded = (ics: string) => ics.replace(/\r\n /g, '').split('\r\n');

describe('the show as a calendar file', () => {
  it('writes the start and end at Mexico City hours, with its time zone and a 15-minute reminder', () => {
    const lines = unfolded(showCalendar(show));
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('TZID:America/Mexico_City');
    expect(lines).toContain('DTSTART;TZID=America/Mexico_City:20261127T190000');
    expect(lines).toContain(`DTEND;TZID=America/Mexico_City:20261127T${String(19 + SHOW_CALENDAR_MINUTES / 60).padStart(2, '0')}0000`);
    expect(lines).toContain('DTSTAMP:20261126T123005Z');
    expect(lines).toContain(`UID:live-session-${show.id}@martillo.mx`);
    expect(lines).toContain('TRIGGER:-PT15M');
    expect(lines.at(-2)).toBe('END:VCALENDAR');
  });

  it('names the show and its seller and links its page, escaped as iCalendar text', () => {
    const lines = unfolded(showCalendar(show));
    expect(lines).toContain('SUMMARY:Relojes\\, plumas\\; y más · Antigüedades Sofía');
    expect(lines).toContain(`URL:${show.url}`);
    expect(lines.find((l) => l.startsWith('DESCRIPTION:Subasta'))).toContain(show.url);
  });

  it('ends every line with CRLF and folds none past 75 octets', () => {
    const ics = showCalendar({ ...show, title: 'Ñ'.repeat(120) });
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toContain('\n');
    for (const line of ics.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(unfolded(ics).find((l) => l.startsWith('SUMMARY:'))).toBe(`SUMMARY:${'Ñ'.repeat(120)} · Antigüedades Sofía`);
  });

  it('escapes backslashes, semicolons, commas and line breaks, and folds without splitting a character', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
    const folded = foldLine(`SUMMARY:${'é'.repeat(60)}`);
    for (const part of folded.split('\r\n ')) expect(() => new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(part))).not.toThrow();
    expect(folded.replace(/\r\n /g, '')).toBe(`SUMMARY:${'é'.repeat(60)}`);
  });

  it('reads an instant as Mexico City wall time, the same all year', () => {
    expect(mexicoCityLocal(Date.UTC(2026, 0, 15, 0, 30))).toBe('20260114T183000');
    expect(mexicoCityLocal(Date.UTC(2026, 6, 15, 0, 30))).toBe('20260714T183000');
  });
});

describe("the show as Google Calendar's new-event page", () => {
  it('fills the same title, the same two hours (in UTC) and the link as the file', () => {
    const url = new URL(googleCalendarUrl(show));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe('Relojes, plumas; y más · Antigüedades Sofía');
    // 19:00 to 21:00 in Mexico City.
    expect(url.searchParams.get('dates')).toBe('20261128T010000Z/20261128T030000Z');
    expect(url.searchParams.get('details')).toContain(show.url);
    expect(url.searchParams.get('location')).toBe(show.url);
    expect(SHOW_CALENDAR_MINUTES).toBe(120);
  });
});
