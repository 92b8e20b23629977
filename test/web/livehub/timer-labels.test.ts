import { describe, expect, it } from 'vitest';
import type { AuctionLiveState } from '../../../src/domain/bidding';
import { clockPhase, hubTimerBadge, timerChoice } from '../../../src/web/livehub/timer-view';
import { detail, lot } from '../../support/live-hub-fixtures';

const NOW = 1_000_000;

/** A session whose current lot has the given auction state, as the Hub holds it. */
function withCurrent(state: Partial<AuctionLiveState>) {
  const lots = [lot(1, { state })];
  return { ...detail({ lots, session: { currentLotId: lots[0]?.id ?? null }, serverNow: NOW }), receivedAt: NOW };
}

describe("the Hub's timer badge", () => {
  it("reads 'Listo para iniciar', not 'Finalizado', on a current lot whose timer never started", () => {
    expect(hubTimerBadge(withCurrent({ status: 'live', endTime: null }), NOW)).toEqual({ key: 'ready' });
    expect(hubTimerBadge(withCurrent({ status: 'pending', endTime: null }), NOW)).toEqual({ key: 'ready' });
  });

  it("reads a long countdown in days and hours, or hours and minutes (39 hours is '1 d 15 h', not '39:44:10')", () => {
    const endTime = NOW + (39 * 3600 + 44 * 60 + 10) * 1000;
    expect(hubTimerBadge(withCurrent({ status: 'active', endTime }), NOW)).toMatchObject({ key: 'running', time: '1 d 15 h' });
    expect(hubTimerBadge(withCurrent({ status: 'active', endTime: NOW + (5 * 3600 + 4 * 60 + 10) * 1000 }), NOW)).toMatchObject({ time: '5 h 04 min' });
  });

  it("reads 'Finalizado' once the lot closed or its end passed", () => {
    expect(hubTimerBadge(withCurrent({ status: 'ended', endTime: NOW - 1, bidCount: 2 }), NOW)).toEqual({ key: 'finished' });
    expect(hubTimerBadge(withCurrent({ status: 'live', endTime: NOW }), NOW)).toEqual({ key: 'finished' });
  });
});

describe("the current lot's highlight", () => {
  it('says what is true: waiting for its timer, running, closing, sold or unsold', () => {
    const base = { bidCount: 0, winnerName: null, winnerTag: null };
    expect(clockPhase({ ...base, status: 'live', endTime: null }, NOW)).toBe('ready');
    expect(clockPhase({ ...base, status: 'pending', endTime: NOW + 60_000 }, NOW)).toBe('ready');
    expect(clockPhase({ ...base, status: 'live', endTime: NOW + 1 }, NOW)).toBe('running');
    expect(clockPhase({ ...base, status: 'live', endTime: NOW }, NOW)).toBe('closing');
    expect(clockPhase({ ...base, status: 'ended', endTime: NOW - 5, bidCount: 1 }, NOW)).toBe('sold');
    expect(clockPhase({ ...base, status: 'ended', endTime: NOW - 5, winnerName: 'Ju***' }, NOW)).toBe('sold');
    expect(clockPhase({ ...base, status: 'ended', endTime: NOW - 5 }, NOW)).toBe('unsold');
  });
});

describe("the timer buttons ('Quedan N s': the time left becomes N)", () => {
  const running = (remainingMs: number, over: Partial<AuctionLiveState> = {}) => lot(1, { state: { status: 'live', endTime: NOW + remainingMs, ...over } });

  it('set the time on a lot that has less left, or none', () => {
    expect(timerChoice(15, lot(1, { state: { status: 'live', endTime: null } }), NOW)).toEqual({ kind: 'set' });
    expect(timerChoice(30, running(10_000), NOW)).toEqual({ kind: 'set' });
    expect(timerChoice(60, running(10_000, { bidCount: 3, leaderTag: 't1' }), NOW)).toEqual({ kind: 'set' });
    // An unsold lot runs again.
    expect(timerChoice(15, lot(1, { state: { status: 'ended', endTime: NOW - 1 } }), NOW)).toEqual({ kind: 'set' });
  });

  it('ask first when they would cut a running lot without bids', () => {
    expect(timerChoice(15, running(60_000), NOW)).toEqual({ kind: 'shortens', remainingMs: 60_000 });
    // Within a second is the click's own delay.
    expect(timerChoice(15, running(15_500), NOW)).toEqual({ kind: 'set' });
  });

  it('say why they cannot cut a lot with bids, or restart a sold one (the server refuses both)', () => {
    expect(timerChoice(15, running(60_000, { bidCount: 2, leaderTag: 't1', currentPrice: 600 }), NOW)).toEqual({ kind: 'blocked', reason: 'bidsStand' });
    expect(timerChoice(60, lot(1, { state: { status: 'ended', endTime: NOW - 1, bidCount: 1 } }), NOW)).toEqual({ kind: 'blocked', reason: 'sold' });
    expect(timerChoice(60, null, NOW)).toEqual({ kind: 'blocked', reason: 'noLot' });
  });
});
