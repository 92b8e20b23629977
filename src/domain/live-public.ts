import type { AuctionLiveState } from './bidding.js';

/**
 * What the public live page needs of live sessions (its link, the lot rule, the timer), without Zod:
 * live.ts has the schemas. Import these from here, so a buyer's phone does not download Zod.
 */

/** SPEC §3's session and lot statuses. */
export const SESSION_STATUSES = ['scheduled', 'live', 'paused', 'ended'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export const LOT_STATUSES = ['queued', 'finished', 'passed'] as const;
export type LotStatus = (typeof LOT_STATUSES)[number];

/**
 * SPEC §5's slug: lower-cased, normalised (accents dropped), everything but word characters,
 * spaces and hyphens removed, spaces turned to hyphens, repeated hyphens collapsed, leading and
 * trailing hyphens trimmed.
 */
export function slugify(value: string): string {
  return value
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\w\s-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The public link of a session (SPEC §2): /live/{slug}/{sessionId}, or /live/{sessionId} without a slug. */
export function livePath(session: { id: string; sellerSlug: string | null | undefined }): string {
  const slug = session.sellerSlug ? slugify(session.sellerSlug) : '';
  return slug ? `/live/${encodeURIComponent(slug)}/${session.id}` : `/live/${session.id}`;
}

// ── Timer (SPEC §4 "Timer state") ────────────────────────────────────────────

export type TimerState = { kind: 'idle' } | { kind: 'running'; remainingMs: number } | { kind: 'finished' };

/**
 * idle: no current lot or no auction; running: the end time is in the future; finished: the end
 * time is missing or passed. `now` is the server's clock as the client corrects it.
 */
export function timerState(input: { hasCurrentLot: boolean; auction: { endTime: number | null; status: string } | null; now: number }): TimerState {
  if (!input.hasCurrentLot || !input.auction) return { kind: 'idle' };
  const { endTime, status } = input.auction;
  if (endTime === null || status === 'ended' || endTime <= input.now) return { kind: 'finished' };
  return { kind: 'running', remainingMs: endTime - input.now };
}

/**
 * Time left as every countdown reads it (the lot's timer in the Hub and over the video, an
 * auction's end, a show's start): 'mm:ss' under an hour, '5 h 04 min' from an hour, '4 d 20 h'
 * from a day, never a clock of hours ('116:22:25'). Seconds round up, so a running timer never
 * reads 00:00. Unit symbols (d, h, min) read the same in Spanish and English.
 */
export function formatTimer(remainingMs: number): string {
  const wait = waitParts(remainingMs);
  if (wait.unit === 'days') return `${wait.days} d ${wait.hours} h`;
  if (wait.unit === 'hours') return `${wait.hours} h ${String(wait.minutes).padStart(2, '0')} min`;
  return wait.clock;
}

/** Whole seconds as 'mm:ss', or 'h:mm:ss' from an hour (the broadcast's elapsed clock, which counts up). */
export function formatClock(totalSeconds: number): string {
  const total = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/**
 * A wait in parts: days and hours from a day on, hours and minutes from an hour, minutes and
 * seconds under an hour (`clock` is 'mm:ss'). Seconds round up, so the last second reads 00:01,
 * never 00:00 while time is left. `formatTimer` writes it.
 */
export type WaitParts =
  | { unit: 'days'; days: number; hours: number }
  | { unit: 'hours'; hours: number; minutes: number }
  | { unit: 'minutes'; minutes: number; seconds: number; clock: string };

export function waitParts(remainingMs: number): WaitParts {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  if (total >= 86_400) return { unit: 'days', days: Math.floor(total / 86_400), hours: Math.floor((total % 86_400) / 3600) };
  if (total >= 3600) return { unit: 'hours', hours: Math.floor(total / 3600), minutes: Math.floor((total % 3600) / 60) };
  return { unit: 'minutes', minutes: Math.floor(total / 60), seconds: total % 60, clock: formatClock(total) };
}

// ── Lots (SPEC §4 "Lot status"): one rule for the Live Hub and the public page ──

/** What the lot rule reads of a lot and its auction. */
export interface LotFacts {
  id: string;
  order: number;
  status: LotStatus;
  /** The lot's auction has a buyer: bids, or a winner. */
  hasBids: boolean;
  /** The lot's auction has ended (closed by its timer, bought now, or ended by other means). */
  auctionEnded: boolean;
  /** The lot's auction is open and has an end time: it runs on a clock (the seller's timer, or its own end). */
  auctionTimed: boolean;
  /**
   * The lot was on the block in this show (LotView.offered). Only such a lot's close is a result of
   * the show: an auction that closed at its own end (or was bought on its own page) while its lot
   * waited in the queue closed outside the show.
   */
  offered: boolean;
}

/** The facts of a lot as the server sends it (LotView's auction state). */
export function lotFacts(lot: { id: string; order: number; status: LotStatus; offered: boolean; auction: { state: AuctionLiveState } }): LotFacts {
  const state = lot.auction.state;
  const auctionEnded = state.status === 'ended';
  return {
    id: lot.id,
    order: lot.order,
    status: lot.status,
    hasBids: state.bidCount > 0 || state.winnerName !== null || state.winnerTag !== null,
    auctionEnded,
    auctionTimed: !auctionEnded && (state.status === 'live' || state.status === 'active') && state.endTime !== null,
    offered: lot.offered,
  };
}

/**
 * The lot ran: it was on the block in this show and its auction closed (timer, buy-now, or its own
 * end). Only a lot that ran is sold or unsold; a re-run (the timer reopens an unsold auction) makes
 * it open again. An auction that closed while its lot waited in the queue did not run in the show.
 */
export function lotRan(lot: Pick<LotFacts, 'status' | 'auctionEnded' | 'offered'>): boolean {
  return lot.offered && (lot.auctionEnded || lot.status === 'finished');
}

/** The lot's auction closed outside the show: at its own end, or bought on its own page, while the lot waited in the queue. */
export function closedOutsideShow(lot: Pick<LotFacts, 'status' | 'auctionEnded' | 'offered'>): boolean {
  return !lot.offered && (lot.auctionEnded || lot.status === 'passed');
}

/** SPEC §4, literally: past when finished or passed, or when its order is lower than the current lot's. */
export function isPastLot(lot: Pick<LotFacts, 'order' | 'status'>, currentOrder: number | null): boolean {
  if (lot.status === 'finished' || lot.status === 'passed') return true;
  return currentOrder !== null && lot.order < currentOrder;
}

/**
 * Where a lot stands in the show. 'current' and 'upcoming' are the Hub's 'Próximos' and the buyer's
 * lot on the block and 'Próximos lotes'; the rest are 'Pasados / Finalizados' and the buyer's results:
 * 'sold' and 'unsold' for a lot that ran, 'notOffered' for one that never did (skipped, left when
 * the show ended, or closed outside the show while it waited), which is no result and is counted nowhere.
 */
export type LotPhase = 'current' | 'upcoming' | 'sold' | 'unsold' | 'notOffered';

/** The session facts the lot rule reads. */
export interface ShowFacts {
  currentLotId: string | null;
  status: SessionStatus;
}

function outcomeOf(lot: LotFacts): 'sold' | 'unsold' | 'notOffered' {
  if (!lotRan(lot)) return 'notOffered';
  return lot.auctionEnded && lot.hasBids ? 'sold' : 'unsold';
}

/**
 * The one lot rule both screens show (SPEC §4 "Lot status", read so that both can say it truthfully):
 * - A lot whose auction closed is decided (sold or unsold) wherever it sits in the order, if it was on
 *   the block; one whose auction closed while it waited (its own end, a buy-now on its page) closed
 *   outside the show: 'notOffered', until the seller runs it again.
 * - The current lot is on the block (SPEC: always upcoming), also once it closed: its panel says how.
 * - A lot passed, or before the current one (the seller skipped it), is past, except while its
 *   auction still takes bids (SPEC keeps "a lot with bids" upcoming; once it closed it is decided).
 * - Once the session ended nothing is still to come: an open lot is 'notOffered', not 'unsold'.
 *   Only the current lot's auction still running on its clock stays on the block (bids go on until
 *   it closes), where SPEC read literally would hide a lot buyers can still win.
 * The order comes from the server, where a quick auction goes on the block next (ARCHITECTURE), so
 * adding one never pushes the queue behind it into the past.
 */
export function lotPhase(lot: LotFacts, currentOrder: number | null, show: ShowFacts): LotPhase {
  const isCurrent = lot.id === show.currentLotId;
  if (show.status === 'ended') return isCurrent && lot.auctionTimed && !lotRan(lot) ? 'current' : outcomeOf(lot);
  if (isCurrent) return 'current';
  if (lotRan(lot)) return outcomeOf(lot);
  if (lot.auctionEnded) return 'notOffered';
  if (isPastLot(lot, currentOrder) && !lot.hasBids) return 'notOffered';
  return 'upcoming';
}

/** Every lot with its phase, in lot order. */
export function lotPhases<T extends LotFacts>(lots: readonly T[], show: ShowFacts): { lot: T; phase: LotPhase }[] {
  const sorted = [...lots].sort((a, b) => a.order - b.order);
  const current = sorted.find((l) => l.id === show.currentLotId);
  const currentOrder = current ? current.order : null;
  return sorted.map((lot) => ({ lot, phase: lotPhase(lot, currentOrder, show) }));
}

/** SPEC §4's two lists, in lot order: 'Próximos' (the current lot and those to come) and 'Pasados / Finalizados'. */
export function splitLots<T extends LotFacts>(lots: readonly T[], show: ShowFacts): { upcoming: T[]; past: T[] } {
  const upcoming: T[] = [];
  const past: T[] = [];
  for (const { lot, phase } of lotPhases(lots, show)) (phase === 'current' || phase === 'upcoming' ? upcoming : past).push(lot);
  return { upcoming, past };
}
