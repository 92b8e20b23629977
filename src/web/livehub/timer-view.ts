import type { AuctionLiveState } from '../../domain/bidding.js';
import type { LiveSessionDetail, LotView } from '../../domain/live.js';
import { formatTimer } from '../../domain/live-public.js';
import { clockOffset } from '../lib/countdown';

/** The current lot of a loaded session, or null. */
export function currentLot(detail: Pick<LiveSessionDetail, 'session' | 'lots'>): LotView | null {
  const id = detail.session.currentLotId;
  return id ? (detail.lots.find((lot) => lot.id === id) ?? null) : null;
}

/** The server's clock now: `deviceNow` corrected by how far it was ahead when the detail arrived. */
export function serverClock(detail: Pick<LiveSessionDetail, 'serverNow'> & { receivedAt: number }, deviceNow: number): number {
  return deviceNow + clockOffset(detail.serverNow, detail.receivedAt);
}

/**
 * Where the current lot's clock stands (the domain's LotPhase is its place in the lists): 'ready'
 * (its timer was never started, or it is not open for bids), 'running' (taking bids until its end
 * time), 'closing' (the end time passed, the server's close is on its way), 'sold' or 'unsold'
 * (its auction ended, with or without a buyer).
 */
export type ClockPhase = 'ready' | 'running' | 'closing' | 'sold' | 'unsold';

type PhaseFacts = Pick<AuctionLiveState, 'status' | 'endTime' | 'bidCount' | 'winnerName' | 'winnerTag'>;

export function clockPhase(state: PhaseFacts, now: number): ClockPhase {
  if (state.status === 'ended') return state.bidCount > 0 || state.winnerName !== null || state.winnerTag !== null ? 'sold' : 'unsold';
  const isOpen = state.status === 'live' || state.status === 'active';
  if (!isOpen || state.endTime === null) return 'ready';
  return state.endTime > now ? 'running' : 'closing';
}

export type HubTimerBadge = { key: 'idle' } | { key: 'ready' } | { key: 'running'; time: string; remainingMs: number } | { key: 'finished' };

/**
 * SPEC §4 "Timer state" as the Hub shows it: 'Inactivo' without a current lot, 'En curso: mm:ss'
 * ('5 h 04 min', '4 d 20 h' from an hour: formatTimer) while it runs, 'Finalizado' once its end passed or it closed. A current lot
 * whose timer was never started is not finished: it reads 'Listo para iniciar'.
 */
export function hubTimerBadge(detail: Pick<LiveSessionDetail, 'session' | 'lots' | 'serverNow'> & { receivedAt: number }, deviceNow: number): HubTimerBadge {
  const lot = currentLot(detail);
  if (!lot) return { key: 'idle' };
  const now = serverClock(detail, deviceNow);
  const phase = clockPhase(lot.auction.state, now);
  if (phase === 'ready') return { key: 'ready' };
  if (phase === 'running') {
    const remainingMs = (lot.auction.state.endTime ?? now) - now;
    return { key: 'running', time: formatTimer(remainingMs), remainingMs };
  }
  return { key: 'finished' };
}

/**
 * What a timer button ('Quedan 15 s') would do to the current lot: the buttons set the time left
 * (SPEC: endTime = now + N). On a running lot that means it may cut time: allowed after a question
 * while nobody has bid, refused by the server once bids stand (so the button says why instead).
 */
export type TimerChoice = { kind: 'set' } | { kind: 'shortens'; remainingMs: number } | { kind: 'blocked'; reason: 'noLot' | 'sold' | 'bidsStand' };

/** A cut under a second is the click's own delay, not a shorter lot. */
const SHORTEN_TOLERANCE_MS = 1000;

export function timerChoice(seconds: number, lot: Pick<LotView, 'auction'> | null, now: number): TimerChoice {
  if (!lot) return { kind: 'blocked', reason: 'noLot' };
  const state = lot.auction.state;
  const phase = clockPhase(state, now);
  if (phase === 'sold') return { kind: 'blocked', reason: 'sold' };
  if (phase !== 'running' || state.endTime === null) return { kind: 'set' };
  const remainingMs = state.endTime - now;
  const wanted = seconds * 1000;
  const hasBids = state.bidCount > 0 || state.leaderTag !== null;
  if (hasBids) return wanted < remainingMs ? { kind: 'blocked', reason: 'bidsStand' } : { kind: 'set' };
  return wanted + SHORTEN_TOLERANCE_MS < remainingMs ? { kind: 'shortens', remainingMs } : { kind: 'set' };
}
