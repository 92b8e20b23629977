/** Every date in the product is shown in Mexico City time, in Spanish (MARKET.md). */
export const APP_TIME_ZONE = 'America/Mexico_City';

export type DateInput = number | string | Date;

/**
 * Formats are written with dayjs's tokens, the ones the product uses: D, DD, M, MM, MMM, MMMM, YY,
 * YYYY, H, HH, m, mm, s, ss, ddd, dddd, and [literal text].
 */
/** Default look: '22 de noviembre de 2026, 18:05'. */
export const DATE_TIME_FORMAT = 'D [de] MMMM [de] YYYY, HH:mm';
export const DATE_FORMAT = 'D [de] MMMM [de] YYYY';
export const TIME_FORMAT = 'HH:mm';

const MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
const MONTHS_SHORT = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];
const WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];
const WEEKDAYS_SHORT = ['dom.', 'lun.', 'mar.', 'mié.', 'jue.', 'vie.', 'sáb.'];

/** Mexico City's calendar fields of an instant (Intl does the time zone, daylight saving history included). */
const fieldsFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: APP_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  weekday: 'short',
  hourCycle: 'h23',
});
const WEEKDAY_INDEX: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

function fieldsOf(instant: Date): Fields {
  const parts: Record<string, string> = {};
  for (const part of fieldsFormat.formatToParts(instant)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAY_INDEX[parts.weekday ?? ''] ?? 0,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

function token(f: Fields, name: string): string {
  switch (name) {
    case 'YYYY':
      return String(f.year);
    case 'YY':
      return pad(f.year % 100);
    case 'MMMM':
      return MONTHS[f.month - 1] ?? '';
    case 'MMM':
      return MONTHS_SHORT[f.month - 1] ?? '';
    case 'MM':
      return pad(f.month);
    case 'M':
      return String(f.month);
    case 'DD':
      return pad(f.day);
    case 'D':
      return String(f.day);
    case 'dddd':
      return WEEKDAYS[f.weekday] ?? '';
    case 'ddd':
      return WEEKDAYS_SHORT[f.weekday] ?? '';
    case 'HH':
      return pad(f.hour);
    case 'H':
      return String(f.hour);
    case 'mm':
      return pad(f.minute);
    case 'm':
      return String(f.minute);
    case 'ss':
      return pad(f.second);
    case 's':
      return String(f.second);
    default:
      return name;
  }
}

const TOKENS = /\[([^\]]*)]|YYYY|YY|MMMM|MMM|MM|M|DD|D|dddd|ddd|HH|H|mm|m|ss|s/g;

/** Formats an instant (epoch ms, ISO string or Date) in Mexico City time; '—' when it is not a date. */
export function formatDate(value: DateInput | null | undefined, format: string = DATE_TIME_FORMAT): string {
  if (value === null || value === undefined || value === '') return '—';
  const instant = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(instant.getTime())) return '—';
  const fields = fieldsOf(instant);
  return format.replace(TOKENS, (match, literal: string | undefined) => (literal !== undefined ? literal : token(fields, match)));
}
