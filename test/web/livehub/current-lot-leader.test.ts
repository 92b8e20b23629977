import { describe, expect, it } from 'vitest';
import { leaderName } from '../../../src/web/livehub/lot-rows';

describe("the current lot's leader in the Hub", () => {
  const lines = [
    { seq: 3, bidderTag: 'b', bidderName: 'Br***' },
    { seq: 2, bidderTag: 'a', bidderName: 'Ju***' },
    { seq: 4, bidderTag: 'a', bidderName: 'Ju***' },
    { seq: 1, bidderTag: 'b', bidderName: 'Br***' },
  ];

  it('is the masked name of the bidder the state says leads', () => {
    expect(leaderName(lines, 'a')).toBe('Ju***');
    expect(leaderName(lines, 'b')).toBe('Br***');
  });

  it('is unknown before the first bid or while its line has not arrived', () => {
    expect(leaderName(lines, null)).toBeNull();
    expect(leaderName(lines, 'c')).toBeNull();
    expect(leaderName([], 'a')).toBeNull();
  });
});
