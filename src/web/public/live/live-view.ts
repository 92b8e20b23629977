import type { AuctionLiveState } from '../../../domain/bidding.js';
import type { LiveSessionCard, LotView, SessionStatus } from '../../../domain/live.js';

/**
 * What a buyer sees of a live session, as pure functions of the session's detail: which lot is on
 * now, which come next, which were sold (and for how much), the totals, and the state of the page.
 * The Live Hub's own lists (SPEC §4 'Próximos' / 'Pasados') answer the seller's question; these
 * answer the buyer's: can I still bid on it, and what did it go for.
 */

/** An auction closed with a winner: 'Vendido'. A close without bids is 'Sin venta'. */
export function isSold(state: AuctionLiveState): boolean {
  return state.status === 'ended' && (state.winnerTag !== null || state.winnerName !== null || state.bidCount > 0);
}

/** The price a lot sold for, null when it did not sell. */
export function soldPrice(state: AuctionLiveState): number | null {
  return isSold(state) ? (state.currentPrice ?? state.startingPrice) : null;
}

export type LotOutcome = 'current' | 'upcoming' | 'sold' | 'unsold';

/**
 * One lot for buyers. The current lot stays current until the seller moves on (its panel then
 * says who won). A closed auction is sold or unsold; a lot the seller marked finished or passed
 * without a sale is unsold; once the session has ended, nothing is still to come.
 */
export function lotOutcome(lot: LotView, currentLotId: string | null, sessionStatus: SessionStatus): LotOutcome {
  const state = lot.auction.state;
  if (sessionStatus !== 'ended' && lot.id === currentLotId) return 'current';
  if (isSold(state)) return 'sold';
  if (state.status === 'ended' || lot.status !== 'queued' || sessionStatus === 'ended') return 'unsold';
  return 'upcoming';
}

export interface BuyerLots {
  current: LotView | null;
  /** In lot order. */
  upcoming: LotView[];
  /** Sold and unsold, in lot order. */
  results: LotView[];
}

export function buyerLots(lots: readonly LotView[], currentLotId: string | null, sessionStatus: SessionStatus): BuyerLots {
  const out: BuyerLots = { current: null, upcoming: [], results: [] };
  for (const lot of [...lots].sort((a, b) => a.order - b.order)) {
    const outcome = lotOutcome(lot, currentLotId, sessionStatus);
    if (outcome === 'current') out.current = lot;
    else if (outcome === 'upcoming') out.upcoming.push(lot);
    else out.results.push(lot);
  }
  return out;
}

export interface SessionTotals {
  soldCount: number;
  unsoldCount: number;
  /** Integer pesos: the sum of the sold lots' final prices. */
  soldTotal: number;
}

/** The results' totals: what sold, for how much, and what did not (counting only lots already decided). */
export function sessionTotals(lots: readonly LotView[], currentLotId: string | null, sessionStatus: SessionStatus): SessionTotals {
  const totals: SessionTotals = { soldCount: 0, unsoldCount: 0, soldTotal: 0 };
  for (const lot of lots) {
    const price = soldPrice(lot.auction.state);
    if (price !== null) {
      totals.soldCount += 1;
      totals.soldTotal += price;
    } else if (lotOutcome(lot, currentLotId, sessionStatus) === 'unsold') {
      totals.unsoldCount += 1;
    }
  }
  return totals;
}

/**
 * The page's state: the session's status, except that a scheduled session whose time has come
 * reads 'starting' (the seller has not gone live yet, or stopped the broadcast: SPEC §4 sets a
 * stopped session back to scheduled), so the countdown does not sit at zero.
 */
export type LivePageState = 'scheduled' | 'starting' | 'live' | 'paused' | 'ended';

export function livePageState(status: SessionStatus, isStartDue: boolean): LivePageState {
  if (status === 'scheduled') return isStartDue ? 'starting' : 'scheduled';
  return status;
}

/** /live alone: the sessions on now first, then the next ones by start time. */
export function directoryCards(directory: { live: LiveSessionCard[]; upcoming: LiveSessionCard[] }): { live: LiveSessionCard[]; upcoming: LiveSessionCard[] } {
  const byStart = (a: LiveSessionCard, b: LiveSessionCard) => a.scheduledAt - b.scheduledAt;
  const liveIds = new Set(directory.live.map((c) => c.id));
  return {
    live: [...directory.live].sort(byStart),
    upcoming: directory.upcoming.filter((c) => !liveIds.has(c.id)).sort(byStart),
  };
}
