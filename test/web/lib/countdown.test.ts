import { describe, expect, it } from 'vitest';
import { clockOffset, countdownParts, relativeAge } from '../../../src/web/lib/countdown';

const END = Date.UTC(2026, 10, 22, 18, 0, 0);
const S = 1000;

describe('countdownParts', () => {
  it('splits days, hours, minutes and seconds, and picks the shortest pattern that fits', () => {
    expect(countdownParts(END, END - (2 * 86_400 + 3 * 3600 + 4 * 60 + 5) * S)).toMatchObject({
      days: 2,
      hours: 3,
      minutes: 4,
      seconds: 5,
      pattern: 'days',
      isOver: false,
      isFinalMinute: false,
    });
    expect(countdownParts(END, END - (3600 + 1) * S)).toMatchObject({ days: 0, hours: 1, minutes: 0, seconds: 1, pattern: 'hours' });
    expect(countdownParts(END, END - 61 * S)).toMatchObject({ minutes: 1, seconds: 1, pattern: 'minutes', isFinalMinute: false });
    expect(countdownParts(END, END - 45 * S)).toMatchObject({ minutes: 0, seconds: 45, pattern: 'seconds', isFinalMinute: true });
  });

  it('turns red for the whole last minute and never shows 0 s before the end', () => {
    expect(countdownParts(END, END - 60 * S).isFinalMinute).toBe(true);
    expect(countdownParts(END, END - 60 * S - 1).isFinalMinute).toBe(false);
    // 300 ms left still reads '1 s': seconds round up.
    expect(countdownParts(END, END - 300)).toMatchObject({ seconds: 1, isOver: false, isFinalMinute: true });
  });

  it('is over at and after the end time, with nothing negative', () => {
    expect(countdownParts(END, END)).toMatchObject({ remainingMs: 0, seconds: 0, isOver: true, isFinalMinute: false });
    expect(countdownParts(END, END + 5 * S)).toMatchObject({ remainingMs: 0, days: 0, isOver: true });
  });

  it('counts on the server clock: a device 30 s slow still ends with the server', () => {
    const receivedAt = END - 60 * S; // device time when the answer arrived
    const serverNow = END - 30 * S; // the server was 30 s ahead
    const offset = clockOffset(serverNow, receivedAt);
    expect(offset).toBe(30 * S);
    // Device time 29 s after receipt = server time 1 s before the end.
    expect(countdownParts(END, receivedAt + 29 * S + offset)).toMatchObject({ seconds: 1, isOver: false });
    expect(countdownParts(END, receivedAt + 30 * S + offset).isOver).toBe(true);
  });
});

describe('relativeAge', () => {
  const now = END;
  it('says "just now", then seconds, minutes and hours, then gives the date', () => {
    expect(relativeAge(now - 3 * S, now)).toEqual({ unit: 'justNow' });
    expect(relativeAge(now - 42 * S, now)).toEqual({ unit: 'seconds', count: 42 });
    expect(relativeAge(now - 5 * 60 * S, now)).toEqual({ unit: 'minutes', count: 5 });
    expect(relativeAge(now - 3 * 3600 * S, now)).toEqual({ unit: 'hours', count: 3 });
    expect(relativeAge(now - 2 * 86_400 * S, now)).toEqual({ unit: 'date' });
  });

  it('treats a line stamped slightly ahead of the clock as just placed', () => {
    expect(relativeAge(now + 800, now)).toEqual({ unit: 'justNow' });
  });
});
