import { describe, expect, it } from 'vitest';
import { buildIcs, escapeIcsText, foldIcsLine, googleCalendarUrl, icsFileName } from '../../../src/web/lib/ics';

const EVENT = {
  id: '7f1c2b9e-0000-4000-8000-000000000001',
  title: 'Relojes de colección',
  sellerName: 'Vera Peso',
  // 20:00 in Mexico City is 02:00 UTC the next day.
  scheduledAt: Date.UTC(2026, 11, 6, 2, 0),
  url: 'https://martillo.mx/live/vera/7f1c2b9e-0000-4000-8000-000000000001',
  host: 'martillo.mx',
  now: Date.UTC(2026, 10, 29, 10, 30, 15),
};

/** The file's logical lines, unfolded (RFC 5545 §3.1). */
function unfolded(ics: string): string[] {
  return ics.replace(/\r\n /g, '').split('\r\n');
}

describe('buildIcs', () => {
  it('writes one event with a UID, the start in UTC, an hour long, and the show link', () => {
    const lines = unfolded(buildIcs(EVENT));
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('VERSION:2.0');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines).toContain(`UID:live-session-${EVENT.id}@martillo.mx`);
    expect(lines).toContain('DTSTAMP:20261129T103015Z');
    expect(lines).toContain('DTSTART:20261206T020000Z');
    expect(lines).toContain('DTEND:20261206T030000Z');
    expect(lines).toContain(`URL:${EVENT.url}`);
    expect(lines).toContain('SUMMARY:Relojes de colección · Vera Peso');
    expect(lines).toContain('TRIGGER:-PT15M');
    expect(lines.at(-2)).toBe('END:VCALENDAR');
    expect(lines.at(-1)).toBe('');
  });

  it('ends every line with CRLF and keeps every line within 75 octets', () => {
    const ics = buildIcs({ ...EVENT, title: `Subasta ${'ñandú '.repeat(40)}` });
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of ics.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  });

  it('escapes commas, semicolons, backslashes and line breaks in the title', () => {
    const lines = unfolded(buildIcs({ ...EVENT, title: 'Monedas, billetes; y\\más\nnuevo', sellerName: '' }));
    expect(lines).toContain('SUMMARY:Monedas\\, billetes\\; y\\\\más\\nnuevo');
  });
});

describe('escapeIcsText and foldIcsLine', () => {
  it('escapes RFC 5545 TEXT', () => {
    expect(escapeIcsText('a,b;c\\d\r\ne')).toBe('a\\,b\\;c\\\\d\\ne');
  });

  it('never splits a multi-byte character', () => {
    const folded = foldIcsLine(`SUMMARY:${'é'.repeat(80)}`);
    const parts = folded.split('\r\n ');
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toBe(`SUMMARY:${'é'.repeat(80)}`);
    for (const part of parts) expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
  });

  it('leaves a short line alone', () => {
    expect(foldIcsLine('VERSION:2.0')).toBe('VERSION:2.0');
  });
});

describe('googleCalendarUrl', () => {
  it("fills Google Calendar's new-event page with the title, the hour in UTC and the link", () => {
    const url = new URL(googleCalendarUrl(EVENT));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe('Relojes de colección · Vera Peso');
    expect(url.searchParams.get('dates')).toBe('20261206T020000Z/20261206T030000Z');
    expect(url.searchParams.get('details')).toContain(EVENT.url);
  });
});

describe('icsFileName', () => {
  it('makes a plain file name of the title', () => {
    expect(icsFileName('Relojes de colección: ¡hoy!')).toBe('relojes-de-coleccion-hoy.ics');
    expect(icsFileName('¡¡!!')).toBe('show.ics');
  });
});
