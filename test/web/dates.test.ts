import { describe, expect, it } from 'vitest';
import { formatDate, TIME_FORMAT } from '../../src/web/lib/dates';

describe('formatDate', () => {
  it('shows an instant in Mexico City time, in Spanish', () => {
    // 18:05 UTC is 12:05 in Mexico City (UTC-6, no daylight saving time since 2022).
    expect(formatDate(Date.UTC(2026, 10, 22, 18, 5))).toBe('22 de noviembre de 2026, 12:05');
    expect(formatDate('2026-01-01T05:30:00Z', TIME_FORMAT)).toBe('23:30');
  });

  it('shows a dash for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
  });
});
