import dayjs from 'dayjs';
import 'dayjs/locale/es';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

/** Every date in the product is shown in Mexico City time, in Spanish (MARKET.md). */
export const APP_TIME_ZONE = 'America/Mexico_City';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(localizedFormat);
dayjs.locale('es');
dayjs.tz.setDefault(APP_TIME_ZONE);

export type DateInput = number | string | Date;

/** Default look: '22 de noviembre de 2026, 18:05'. */
export const DATE_TIME_FORMAT = 'D [de] MMMM [de] YYYY, HH:mm';
export const DATE_FORMAT = 'D [de] MMMM [de] YYYY';
export const TIME_FORMAT = 'HH:mm';

/** Formats an instant (epoch ms, ISO string or Date) in Mexico City time; '—' when it is not a date. */
export function formatDate(value: DateInput | null | undefined, format: string = DATE_TIME_FORMAT): string {
  if (value === null || value === undefined || value === '') return '—';
  const instant = dayjs(value);
  if (!instant.isValid()) return '—';
  return instant.tz(APP_TIME_ZONE).locale('es').format(format);
}

export { dayjs };
