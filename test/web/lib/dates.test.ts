import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APP_TIME_ZONE, DATE_FORMAT, DATE_TIME_FORMAT, formatDate, TIME_FORMAT } from '../../../src/web/lib/dates';
import { dayjs } from '../../../src/web/lib/dayjs';
import { CHOSEN_FORMAT } from '../../../src/web/lib/end-time';

describe('formatDate', () => {
  it('shows an instant in Mexico City time, in Spanish', () => {
    // 18:05 UTC is 12:05 in Mexico City (UTC-6, no daylight saving time since 2022).
    expect(formatDate(Date.UTC(2026, 10, 22, 18, 5))).toBe('22 de noviembre de 2026, 12:05');
    expect(formatDate('2026-01-01T05:30:00Z', TIME_FORMAT)).toBe('23:30');
    expect(formatDate(new Date(Date.UTC(2026, 8, 6, 17, 4, 9)), CHOSEN_FORMAT)).toBe('domingo 6 de septiembre de 2026, 11:04:09');
    expect(formatDate(Date.UTC(2026, 8, 6, 17, 4), 'D MMM YYYY, HH:mm')).toBe('6 sep 2026, 11:04');
    // Daylight saving time still applied in 2021: 17:00 UTC was 12:00 in Mexico City in July.
    expect(formatDate(Date.UTC(2021, 6, 1, 17, 0), TIME_FORMAT)).toBe('12:00');
  });

  it('shows a dash for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
    expect(formatDate('')).toBe('—');
  });

  it('writes every format the product uses as dayjs did (Spanish, Mexico City), at any instant', () => {
    const formats = [
      DATE_TIME_FORMAT,
      DATE_FORMAT,
      TIME_FORMAT,
      CHOSEN_FORMAT,
      'D MMM YYYY',
      'D MMM YYYY, HH:mm',
      'HH:mm:ss',
      'D [de] MMMM [de] YYYY, HH:mm:ss',
      'YYYY-MM-DD HH:mm:ss',
      'ddd DD/MM/YY H:m:s',
    ];
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), fc.constantFrom(...formats), (ms, format) => {
        expect(formatDate(ms, format)).toBe(dayjs(ms).tz(APP_TIME_ZONE).locale('es').format(format));
      }),
      { numRuns: 2000 },
    );
  });
});
