import type { AuctionLiveState, BidView } from '../../../../domain/bidding.js';
import { nextMinimumOf } from '../../bidding/bid-steps';

/**
 * The pure rules of the phone's one-tap bidding: what the primary control offers, who leads (masked),
 * and the buyer's one acknowledgement per show that bids are binding.
 */

/** What the primary control is, from the server's state alone. */
export type PrimaryAction =
  /** 'Pujar $920': exactly the next minimum, by the band of the current price; a signed-out tap goes to sign-in. */
  | { kind: 'bid'; amount: number }
  /** The viewer leads: another tap would only raise their own maximum (the sheet does that). */
  | { kind: 'leading' }
  /** The end passed on the server's clock; the close is on its way. */
  | { kind: 'closing' }
  | { kind: 'ended'; isWinner: boolean }
  | { kind: 'pending' }
  /** The auction is the viewer's own company's. */
  | { kind: 'own' }
  /** The seller's company blocked the viewer: nothing to tap, whoever leads. */
  | { kind: 'blocked' };

export function primaryAction(a: {
  state: AuctionLiveState;
  isOver: boolean;
  isOwnAuction: boolean;
  myTag: string | null;
  isBlocked?: boolean;
}): PrimaryAction {
  const { state } = a;
  if (state.status === 'ended') return { kind: 'ended', isWinner: a.myTag !== null && state.winnerTag === a.myTag };
  if (state.status === 'pending') return { kind: 'pending' };
  if (a.isOver) return { kind: 'closing' };
  if (a.isOwnAuction) return { kind: 'own' };
  if (a.isBlocked) return { kind: 'blocked' };
  if (a.myTag !== null && state.leaderTag === a.myTag) return { kind: 'leading' };
  return { kind: 'bid', amount: nextMinimumOf(state) };
}

/** Who leads, as the lot card says it: the viewer, or the leader's masked name from the history; null before a first bid. */
export type Leader = { kind: 'me' } | { kind: 'other'; name: string } | null;

export function leaderOf(
  state: Pick<AuctionLiveState, 'leaderTag' | 'bidCount'>,
  items: readonly Pick<BidView, 'bidderTag' | 'bidderName'>[],
  myTag: string | null,
): Leader {
  if (state.leaderTag === null || state.bidCount === 0) return null;
  if (myTag !== null && state.leaderTag === myTag) return { kind: 'me' };
  const line = items.find((item) => item.bidderTag === state.leaderTag);
  return line ? { kind: 'other', name: line.bidderName } : null;
}

/**
 * What the lot card says of who leads, as a catalogue key: nobody yet, the viewer, someone else
 * (masked); once the lot closed, the viewer who led won it ('¡Ganaste!', never 'Vas ganando'), and
 * someone else's win is the outcome's to say.
 */
export type LeaderWording = 'noBids' | 'noBidsEnded' | 'you' | 'youWon' | 'other' | null;

export function leaderWording(leader: Leader, state: Pick<AuctionLiveState, 'status' | 'bidCount'>): LeaderWording {
  const isEnded = state.status === 'ended';
  if (leader === null) return state.bidCount === 0 ? (isEnded ? 'noBidsEnded' : 'noBids') : null;
  if (leader.kind === 'me') return isEnded ? 'youWon' : 'you';
  return isEnded ? null : 'other';
}

/** The storage key of one buyer's acknowledgement in one show. */
export function bindingKey(sessionId: string, userId: string): string {
  return `martillo.live.binding.${sessionId}.${userId}`;
}

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

/** Whether this buyer already accepted, in this show, that each bid is binding. A storage that cannot be read asks again. */
export function hasAcceptedBinding(storage: KeyValueStore | null, sessionId: string, userId: string): boolean {
  try {
    return storage?.getItem(bindingKey(sessionId, userId)) === '1';
  } catch {
    return false;
  }
}

/** Remembers the acknowledgement; a storage that refuses it (private mode, full) only means asking again next time. */
export function acceptBinding(storage: KeyValueStore | null, sessionId: string, userId: string): void {
  try {
    storage?.setItem(bindingKey(sessionId, userId), '1');
  } catch {
    // Asked again on the next visit: no harm.
  }
}

/** The browser's localStorage, or null where reading it throws (blocked storage). */
export function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** How long a notice over the video stays, by kind: the close a little longer. */
export function noticeDuration(kind: string): number {
  return kind === 'won' || kind === 'lost' || kind === 'closed' ? 6000 : 4000;
}
