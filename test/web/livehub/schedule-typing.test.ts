import { describe, expect, it } from 'vitest';
import { composeSchedule, firstOfferedDate, mexicoDateOf, mexicoTimeOf, parseTimeText } from '../../../src/web/livehub/schedule';

describe('the scheduled time, typed', () => {
  it('reads exactly what was typed', () => {
    for (const text of ['21:30', '21.30', '21,30', '21 30', '2130', ' 21:30 ', '9:30 p.m.', '9:30pm', '9:30 PM']) {
      expect(parseTimeText(text), text).toEqual({ ok: true, value: { hour: 21, minute: 30 } });
    }
    expect(parseTimeText('2:05')).toEqual({ ok: true, value: { hour: 2, minute: 5 } });
    expect(parseTimeText('930')).toEqual({ ok: true, value: { hour: 9, minute: 30 } });
    expect(parseTimeText('00:00')).toEqual({ ok: true, value: { hour: 0, minute: 0 } });
    expect(parseTimeText('12:05 a.m.')).toEqual({ ok: true, value: { hour: 0, minute: 5 } });
    expect(parseTimeText('12:05 p.m.')).toEqual({ ok: true, value: { hour: 12, minute: 5 } });
  });

  it('refuses what is not a time instead of guessing one', () => {
    expect(parseTimeText('')).toEqual({ ok: false, error: 'scheduleTimeRequired' });
    for (const text of ['2', '21', '24:00', '21:60', '21:3', '13:00 pm', 'nueve', '21:30:00', '-1:30']) {
      expect(parseTimeText(text), text).toEqual({ ok: false, error: 'scheduleTimeInvalid' });
    }
  });
});

describe('the scheduled instant', () => {
  const today = '2026-11-21';

  it('is the typed day and time in Mexico City, whatever the device zone', () => {
    const result = composeSchedule({ date: '2026-11-22', time: '21:30', minDate: today });
    // Mexico City is UTC-6 (no daylight saving since 2022).
    expect(result).toEqual({ ok: true, value: Date.UTC(2026, 10, 23, 3, 30) });
    if (result.ok) {
      expect(mexicoDateOf(result.value)).toBe('2026-11-22');
      expect(mexicoTimeOf(result.value)).toBe('21:30');
    }
  });

  it('does not take a past day, except the session’s own day when editing it', () => {
    expect(composeSchedule({ date: '2026-11-20', time: '21:30', minDate: today })).toEqual({ ok: false, error: 'scheduleDatePast' });
    expect(composeSchedule({ date: today, time: '08:00', minDate: today }).ok).toBe(true);
    expect(composeSchedule({ date: '2026-11-20', time: '21:30', minDate: today, keepDate: '2026-11-20' }).ok).toBe(true);
    expect(firstOfferedDate(today, null)).toBe(today);
    expect(firstOfferedDate(today, '2026-11-20')).toBe('2026-11-20');
    expect(firstOfferedDate(today, '2026-12-01')).toBe(today);
  });

  it('waits for a whole day and a valid time', () => {
    expect(composeSchedule({ date: '', time: '21:30', minDate: today })).toEqual({ ok: false, error: 'scheduleDateRequired' });
    expect(composeSchedule({ date: '2026-02-30', time: '21:30', minDate: today })).toEqual({ ok: false, error: 'scheduleDateRequired' });
    expect(composeSchedule({ date: '2026-11-22', time: '', minDate: today })).toEqual({ ok: false, error: 'scheduleTimeRequired' });
    expect(composeSchedule({ date: '2026-11-22', time: '25:00', minDate: today })).toEqual({ ok: false, error: 'scheduleTimeInvalid' });
  });
});
