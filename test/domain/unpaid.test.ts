import { describe, expect, it } from 'vitest';
import { mayDecide, reachesStrikeLimit, runnerUpOf } from '../../src/domain/unpaid.js';

describe('the runner-up of an expired lot', () => {
  const lines = [
    { bidderId: 'b', bidderName: 'Beto', amount: 700 },
    { bidderId: 'w', bidderName: 'Gana', amount: 900 },
    { bidderId: 'c', bidderName: 'Carla', amount: 700 },
    { bidderId: 'd', bidderName: 'Dora', amount: 300 },
  ];

  it('is the highest bidder other than the winner, at their own highest bid; the earlier line wins a tie', () => {
    expect(runnerUpOf(lines, 'w')).toEqual({ userId: 'b', name: 'Beto', amount: 700 });
  });

  it('passes over whoever let an offer go', () => {
    expect(runnerUpOf(lines, 'w', ['b'])).toEqual({ userId: 'c', name: 'Carla', amount: 700 });
    expect(runnerUpOf(lines, 'w', ['b', 'c', 'd'])).toBeNull();
  });

  it('is nobody when only the winner bid', () => {
    expect(runnerUpOf([{ bidderId: 'w', bidderName: 'Gana', amount: 900 }], 'w')).toBeNull();
    expect(runnerUpOf([], 'w')).toBeNull();
  });
});

describe('strikes and choices', () => {
  it('blocks at the limit, not before', () => {
    expect(reachesStrikeLimit(1, 2)).toBe(false);
    expect(reachesStrikeLimit(2, 2)).toBe(true);
    expect(reachesStrikeLimit(3, 2)).toBe(true);
  });

  it('lets the seller choose once, again only after a Segunda oportunidad ended unsold', () => {
    expect(mayDecide(null, null)).toBe(true);
    expect(mayDecide('released', null)).toBe(false);
    expect(mayDecide('futureShow', null)).toBe(false);
    expect(mayDecide('secondChance', 'offered')).toBe(false);
    expect(mayDecide('secondChance', 'paid')).toBe(false);
    expect(mayDecide('secondChance', 'declined')).toBe(true);
    expect(mayDecide('secondChance', 'expired')).toBe(true);
    expect(mayDecide('secondChance', 'canceled')).toBe(true);
  });
});
