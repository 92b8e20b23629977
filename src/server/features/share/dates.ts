import { MEXICO_CITY_TZ } from '../../../domain/live.js';

const parts = new Intl.DateTimeFormat('es-MX', {
  timeZone: MEXICO_CITY_TZ,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  hour: 'numeric',
  minute: '2-digit',
});

/** A show's time as a card says it, in Mexico City: 'sábado 5 de diciembre, 8:00 p.m.'. */
export function mexicoCityDate(date: Date): string {
  const p = Object.fromEntries(parts.formatToParts(date).map((part) => [part.type, part.value]));
  return `${p.weekday} ${p.day} de ${p.month}, ${p.hour}:${p.minute} ${p.dayPeriod ?? ''}`.trim();
}
