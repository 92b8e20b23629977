import type { AuctionLiveState } from '../../../domain/bidding.js';
import type { LiveSessionCard, LiveSessionPublic, LotView } from '../../../domain/live.js';
import { type LotPhase, lotFacts, lotPhases, lotRan, type SessionStatus, type ShowFacts } from '../../../domain/live-public.js';

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

/** Whether the lot has a bid to show: its price is then the current bid, not the starting price. */
export function hasBidPrice(state: AuctionLiveState): boolean {
  return state.bidCount > 0 && state.currentPrice !== null;
}

/** The price the lot on the block shows: its current bid once it has one, else its starting price. */
export function shownPrice(state: AuctionLiveState): number {
  return hasBidPrice(state) ? (state.currentPrice ?? 0) : state.startingPrice;
}

/** The last seconds of a lot's clock, which both layouts draw in red. */
export const FINAL_SECONDS_MS = 10_000;

/** The price a lot sold for, null when it did not sell. */
export function soldPrice(state: AuctionLiveState): number | null {
  return isSold(state) ? (state.currentPrice ?? state.startingPrice) : null;
}

/**
 * Where each lot stands for buyers, in lot order: the domain's one lot rule (`lotPhase`, the Live
 * Hub's too), so a lot is upcoming or past alike on both screens. 'notOffered' is a lot that never
 * ran (skipped, or left when the show ended): no result, counted nowhere.
 */
export function lotOutcomes(lots: readonly LotView[], session: ShowFacts): { lot: LotView; phase: LotPhase }[] {
  return lotPhases(
    lots.map((lot) => ({ ...lotFacts(lot), lot })),
    session,
  ).map(({ lot, phase }) => ({ lot: lot.lot, phase }));
}

export interface BuyerLots {
  current: LotView | null;
  /** In lot order. */
  upcoming: LotView[];
  /** Sold and unsold, in lot order. */
  results: LotView[];
  /** Lots that never went on the block, in lot order: shown apart from the results. */
  notOffered: LotView[];
}

export function buyerLots(lots: readonly LotView[], session: ShowFacts): BuyerLots {
  const out: BuyerLots = { current: null, upcoming: [], results: [], notOffered: [] };
  for (const { lot, phase } of lotOutcomes(lots, session)) {
    if (phase === 'current') out.current = lot;
    else if (phase === 'upcoming') out.upcoming.push(lot);
    else if (phase === 'notOffered') out.notOffered.push(lot);
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

/**
 * The results' totals: the lots that ran (their auction closed), the current one included once it
 * closed; what sold, for how much, and what did not. A lot that never ran is no 'Sin venta'.
 */
export function sessionTotals(lots: readonly LotView[]): SessionTotals {
  const totals: SessionTotals = { soldCount: 0, unsoldCount: 0, soldTotal: 0 };
  for (const lot of lots) {
    // A lot whose auction closed outside the show (while it waited in the queue) is no result of it.
    if (!lotRan(lotFacts(lot))) continue;
    const price = soldPrice(lot.auction.state);
    if (price !== null) {
      totals.soldCount += 1;
      totals.soldTotal += price;
    } else {
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

/**
 * A scheduled session that has already begun: 'Detener' sets a live show back to scheduled (SPEC §4),
 * but once a lot went on the block or ran, or the start time passed after a broadcast, the show is
 * not waiting to start. Its page says the video stopped, never a start countdown, and a running lot
 * stays biddable. (A seller's rehearsal broadcast before the start time still leaves the countdown.)
 */
export function isShowStopped(
  session: Pick<LiveSessionPublic, 'status' | 'currentLotId' | 'streamType'>,
  lots: readonly LotView[],
  isStartDue: boolean,
): boolean {
  if (session.status !== 'scheduled') return false;
  if (session.currentLotId !== null || lots.some((lot) => lotRan(lotFacts(lot)))) return true;
  return isStartDue && session.streamType !== 'none';
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
