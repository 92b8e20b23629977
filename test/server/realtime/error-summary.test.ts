import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { summarizeErrors } from '../../../src/server/realtime/error-summary.js';

describe('summarizeErrors', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tells the first failure at once', () => {
    const told: [unknown, number][] = [];
    const { error } = summarizeErrors((err, count) => told.push([err, count]), 1000);
    error(new Error('ECONNREFUSED'));
    expect(told).toEqual([[new Error('ECONNREFUSED'), 1]]);
  });

  it('tells the failures within a period as one line with their count and the newest', () => {
    const told: [unknown, number][] = [];
    const { error } = summarizeErrors((err, count) => told.push([err, count]), 1000);
    error('first');
    for (let i = 0; i < 500; i++) error(`again ${i}`);
    expect(told).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(told).toEqual([
      ['first', 1],
      ['again 499', 500],
    ]);
  });

  it('keeps one line per period while failures go on, and tells the next one at once after a quiet period', () => {
    const told: [unknown, number][] = [];
    const { error } = summarizeErrors((err, count) => told.push([err, count]), 1000);
    error('a');
    error('b');
    vi.advanceTimersByTime(1000); // tells b, opens a period
    error('c');
    expect(told).toHaveLength(2);
    vi.advanceTimersByTime(1000); // tells c, opens a period
    vi.advanceTimersByTime(1000); // nothing failed: the period closes
    error('d');
    expect(told).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 1],
      ['d', 1],
    ]);
  });

  it('tells what waits when flushed, and nothing twice', () => {
    const told: [unknown, number][] = [];
    const { error, flush } = summarizeErrors((err, count) => told.push([err, count]), 1000);
    error('a');
    error('b');
    error('c');
    flush();
    expect(told).toEqual([
      ['a', 1],
      ['c', 2],
    ]);
    vi.advanceTimersByTime(5000);
    flush();
    expect(told).toHaveLength(2);
  });
});
