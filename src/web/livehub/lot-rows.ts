import type { BidView } from '../../domain/bidding.js';
import type { LotView } from '../../domain/live.js';
import { closedOutsideShow, lotFacts, lotPhases, type ShowFacts } from '../../domain/live-public.js';

/** The domain's facts of a lot (its auction has bids, has ended, runs on a clock), as the Hub reads them. */
export { lotFacts };

/**
 * What each lot row shows and how the lists move, pure so it is tested without a browser.
 * SPEC §4 "Lot status": the lists come from the domain's one lot rule (`lotPhases`), the one the
 * public live page shows buyers, so a lot is upcoming or past alike on both screens.
 */

/** The row's status text: the lot's own outcome once its auction ended, else the auction's status. */
export type LotRowStatus = 'live' | 'active' | 'pending' | 'sold' | 'unsold' | 'soldOutside' | 'endedOutside' | 'passed' | 'finished';

export interface LotRow {
  lot: LotView;
  isCurrent: boolean;
  /** The price to show: the current bid when there is one, else the starting price. */
  price: number;
  hasBid: boolean;
  status: LotRowStatus;
}

export function lotRowStatus(lot: LotView): LotRowStatus {
  const state = lot.auction.state;
  const sold = state.bidCount > 0 || Boolean(state.winnerName);
  // Closed while it waited in the queue (its own end, a buy-now on its page): no result of the show.
  if (state.status === 'ended' && closedOutsideShow(lotFacts(lot))) return sold ? 'soldOutside' : 'endedOutside';
  if (state.status === 'ended') return sold ? 'sold' : 'unsold';
  if (lot.status === 'passed') return 'passed';
  if (lot.status === 'finished') return 'finished';
  return state.status;
}

export function lotRow(lot: LotView, currentLotId: string | null): LotRow {
  const state = lot.auction.state;
  const hasBid = state.currentPrice !== null && state.bidCount > 0;
  return {
    lot,
    isCurrent: lot.id === currentLotId,
    price: hasBid && state.currentPrice !== null ? state.currentPrice : state.startingPrice,
    hasBid,
    status: lotRowStatus(lot),
  };
}

/**
 * 'Próximos' and 'Pasados / Finalizados' (SPEC §4), each in lot order. `show` is the session (its
 * current lot and status): once it ended nothing is upcoming, and no row is 'En subasta ahora' unless
 * its auction still runs.
 */
export function lotSections(lots: readonly LotView[], show: ShowFacts): { upcoming: LotRow[]; past: LotRow[] } {
  const upcoming: LotRow[] = [];
  const past: LotRow[] = [];
  const withFacts = lots.map((lot) => ({ ...lotFacts(lot), lot }));
  for (const { lot: facts, phase } of lotPhases(withFacts, show)) {
    const row = lotRow(facts.lot, phase === 'current' ? facts.id : null);
    (phase === 'current' || phase === 'upcoming' ? upcoming : past).push(row);
  }
  return { upcoming, past };
}

/** Every lot id in lot order: the body of PUT .../lots/order. */
export function orderedLotIds(lots: readonly Pick<LotView, 'id' | 'order'>[]): string[] {
  return [...lots].sort((a, b) => a.order - b.order).map((l) => l.id);
}

/**
 * The whole order after one section was rearranged: the section's lots take the places its lots
 * held, in their new order, and every other lot keeps its place. Null when nothing changes or the
 * section does not match the list.
 */
export function reorderSection(allIds: readonly string[], sectionIds: readonly string[], nextSectionIds: readonly string[]): string[] | null {
  const members = new Set(sectionIds);
  if (members.size !== nextSectionIds.length || !nextSectionIds.every((id) => members.has(id))) return null;
  if (!sectionIds.every((id) => allIds.includes(id))) return null;
  const queue = [...nextSectionIds];
  const next = allIds.map((id) => (members.has(id) ? (queue.shift() as string) : id));
  return next.every((id, i) => id === allIds[i]) ? null : next;
}

/** Moves `id` one place up (-1) or down (+1) inside its section; null at either end. */
export function moveInSection(sectionIds: readonly string[], id: string, delta: -1 | 1): string[] | null {
  const from = sectionIds.indexOf(id);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= sectionIds.length) return null;
  const next = [...sectionIds];
  [next[from], next[to]] = [next[to] as string, next[from] as string];
  return next;
}

/** A drag that dropped `activeId` where `overId` was (dnd-kit's sortable semantics). */
export function dragInSection(sectionIds: readonly string[], activeId: string, overId: string | null): string[] | null {
  if (!overId || activeId === overId) return null;
  const from = sectionIds.indexOf(activeId);
  const to = sectionIds.indexOf(overId);
  if (from < 0 || to < 0) return null;
  const next = [...sectionIds];
  next.splice(from, 1);
  next.splice(to, 0, activeId);
  return next;
}

/** The order the list shows while a reorder is on its way (the answer replaces it). */
export function applyOrder<T extends { id: string; order: number }>(lots: readonly T[], ids: readonly string[]): T[] {
  const position = new Map(ids.map((id, i) => [id, i + 1]));
  return lots.map((lot) => ({ ...lot, order: position.get(lot.id) ?? lot.order }));
}

/**
 * The current lot's leader, masked as buyers see them ('Ju***'): the newest line of the bidder the
 * state names as leading (a maximum's automatic answer is a line too). Null before the first bid,
 * or while that line has not arrived.
 */
export function leaderName(lines: readonly Pick<BidView, 'seq' | 'bidderTag' | 'bidderName'>[], leaderTag: string | null): string | null {
  if (!leaderTag) return null;
  let best: Pick<BidView, 'seq' | 'bidderTag' | 'bidderName'> | null = null;
  for (const line of lines) if (line.bidderTag === leaderTag && (!best || line.seq > best.seq)) best = line;
  return best?.bidderName ?? null;
}
