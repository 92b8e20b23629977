import { formatTimer, type LiveSessionDetail, type LotView, type TimerState, timerState } from '../../domain/live.js';
import { clockOffset } from '../lib/countdown';

/** The current lot of a loaded session, or null. */
export function currentLot(detail: Pick<LiveSessionDetail, 'session' | 'lots'>): LotView | null {
  const id = detail.session.currentLotId;
  return id ? (detail.lots.find((lot) => lot.id === id) ?? null) : null;
}

/**
 * SPEC §4 "Timer state" on the server's clock: `deviceNow` corrected by how far the server's clock
 * was ahead when the detail arrived (serverNow against receivedAt).
 */
export function hubTimerState(detail: Pick<LiveSessionDetail, 'session' | 'lots' | 'serverNow'> & { receivedAt: number }, deviceNow: number): TimerState {
  const lot = currentLot(detail);
  const now = deviceNow + clockOffset(detail.serverNow, detail.receivedAt);
  const state = lot?.auction.state;
  return timerState({ hasCurrentLot: lot !== null, auction: state ? { endTime: state.endTime, status: state.status } : null, now });
}

/** The badge's catalogue key and values: 'Inactivo', 'En curso: mm:ss', 'Finalizado'. */
export function timerBadge(state: TimerState): { key: 'running'; time: string } | { key: 'idle' | 'finished' } {
  if (state.kind === 'running') return { key: 'running', time: formatTimer(state.remainingMs) };
  return { key: state.kind };
}
