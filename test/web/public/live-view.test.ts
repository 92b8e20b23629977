import { describe, expect, it } from 'vitest';
import type { AuctionLiveState } from '../../../src/domain/bidding';
import type { LiveSessionCard, LiveSessionPublic, LotView } from '../../../src/domain/live';
import { pickState } from '../../../src/web/public/bidding/live-state';
import {
  buyerLots,
  directoryCards,
  hasBidPrice,
  isShowStopped,
  isSold,
  livePageState,
  sessionTotals,
  shownPrice,
  soldPrice,
} from '../../../src/web/public/live/live-view';

function state(over: Partial<AuctionLiveState> = {}): AuctionLiveState {
  return {
    id: 'a1',
    version: 1,
    status: 'live',
    currentPrice: null,
    bidCount: 0,
    startingPrice: 100,
    buyNowPrice: null,
    nextMinimum: 100,
    minIncrement: 20,
    incrementBands: null,
    timerMode: 'extend',
    antiSnipeSeconds: 10,
    counterBidResetSeconds: 10,
    endTime: 5000,
    leaderTag: null,
    winnerName: null,
    winnerTag: null,
    serverNow: 1000,
    ...over,
  };
}

function lot(id: string, order: number, over: Partial<AuctionLiveState> = {}, status: LotView['status'] = 'queued'): LotView {
  const s = state({ id: `auction-${id}`, ...over });
  return {
    id,
    sessionId: 's1',
    auctionId: s.id,
    order,
    status,
    createdAt: 0,
    timerOverride: { timerMode: null, counterBidWindowSeconds: null, counterBidResetSeconds: null },
    prebidCount: 0,
    offered: true,
    auction: { id: s.id, name: `Lote ${id}`, images: [], thumbnailUrl: null, state: s },
  };
}

const sold = { status: 'ended', currentPrice: 450, bidCount: 3, winnerName: 'Ju***', winnerTag: 't1' } as const;
const closedEmpty = { status: 'ended', currentPrice: null, bidCount: 0 } as const;

describe('sold or not', () => {
  it("a closed auction with a winner is 'Vendido' at its final price", () => {
    expect(isSold(state(sold))).toBe(true);
    expect(soldPrice(state(sold))).toBe(450);
  });

  it("a closed auction without bids is 'Sin venta'; an open one is neither", () => {
    expect(isSold(state(closedEmpty))).toBe(false);
    expect(soldPrice(state(closedEmpty))).toBeNull();
    expect(isSold(state({ currentPrice: 300, bidCount: 2, leaderTag: 't1' }))).toBe(false);
  });
});

describe('the price of the lot on the block', () => {
  it('is the starting price until a bid comes, then the current bid', () => {
    expect(hasBidPrice(state())).toBe(false);
    expect(shownPrice(state())).toBe(100);
    expect(hasBidPrice(state({ currentPrice: 300, bidCount: 2 }))).toBe(true);
    expect(shownPrice(state({ currentPrice: 300, bidCount: 2 }))).toBe(300);
  });
});

describe('the lots as buyers see them', () => {
  const lots = [lot('c', 3), lot('a', 1, sold, 'finished'), lot('e', 5), lot('b', 2, closedEmpty, 'finished'), lot('d', 4, {}, 'passed')];
  const show = (currentLotId: string | null, status: LiveSessionPublic['status'] = 'live') => ({ currentLotId, status });

  it('the current lot, the lots to come in order, the decided ones in order, and the ones never offered apart', () => {
    const view = buyerLots(lots, show('c'));
    expect(view.current?.id).toBe('c');
    expect(view.upcoming.map((l) => l.id)).toEqual(['e']);
    expect(view.results.map((l) => l.id)).toEqual(['a', 'b']);
    // 'passed' without a close never ran: not a 'Sin venta'.
    expect(view.notOffered.map((l) => l.id)).toEqual(['d']);
  });

  it('keeps the current lot on the block after it sells, until the seller moves on', () => {
    const withSoldCurrent = [lot('a', 1, sold, 'finished'), lot('b', 2)];
    expect(buyerLots(withSoldCurrent, show('a')).current?.id).toBe('a');
    expect(buyerLots(withSoldCurrent, show('a')).results).toEqual([]);
  });

  it('with no current lot everything open is still to come', () => {
    const view = buyerLots([lot('b', 2), lot('a', 1)], show(null, 'scheduled'));
    expect(view.current).toBeNull();
    expect(view.upcoming.map((l) => l.id)).toEqual(['a', 'b']);
  });

  it('an ended session has nothing to come: what ran is sold or unsold, what never ran was not offered', () => {
    const closed = [
      lot('c', 3, { endTime: null }),
      lot('a', 1, sold, 'finished'),
      lot('e', 5),
      lot('b', 2, closedEmpty, 'finished'),
      lot('d', 4, {}, 'passed'),
    ];
    const view = buyerLots(closed, show('c', 'ended'));
    expect(view.current).toBeNull();
    expect(view.upcoming).toEqual([]);
    expect(view.results.map((l) => l.id)).toEqual(['a', 'b']);
    expect(view.notOffered.map((l) => l.id)).toEqual(['c', 'd', 'e']);
  });

  it('a show ended mid-lot keeps that lot on the block while its auction runs', () => {
    expect(buyerLots(lots, show('c', 'ended')).current?.id).toBe('c');
  });

  it('a lot whose auction closed is decided even if its lot row still says queued (the close event came first)', () => {
    expect(buyerLots([lot('x', 1, sold)], show(null)).results.map((l) => l.id)).toEqual(['x']);
    expect(buyerLots([lot('x', 1, closedEmpty)], show(null)).results.map((l) => l.id)).toEqual(['x']);
  });

  it('totals count the lots that ran, sum the sold ones in whole pesos, and never count a lot that never ran', () => {
    const all = [
      lot('a', 1, sold, 'finished'),
      lot('b', 2, { ...sold, id: 'auction-b', currentPrice: 1200 }, 'finished'),
      lot('c', 3, closedEmpty, 'finished'),
      lot('d', 4),
      lot('e', 5, {}, 'passed'),
    ];
    expect(sessionTotals(all)).toEqual({ soldCount: 2, unsoldCount: 1, soldTotal: 1650 });
  });

  it('an auction that closed at its own end while its lot waited closed outside the show: not a result, not counted', () => {
    const outside = { ...lot('o', 2, { ...sold, id: 'auction-o', currentPrice: 900 }, 'passed'), offered: false };
    const outsideUnsold = { ...lot('p', 3, { ...closedEmpty, id: 'auction-p' }, 'passed'), offered: false };
    const all = [lot('a', 1, sold, 'finished'), outside, outsideUnsold, lot('d', 4)];
    const view = buyerLots(all, show('d'));
    expect(view.results.map((l) => l.id)).toEqual(['a']);
    expect(view.notOffered.map((l) => l.id)).toEqual(['o', 'p']);
    expect(sessionTotals(all)).toEqual({ soldCount: 1, unsoldCount: 0, soldTotal: sessionTotals([lot('a', 1, sold, 'finished')]).soldTotal });
  });
});

describe('the page state', () => {
  it('follows the session status', () => {
    expect(livePageState('live', true)).toBe('live');
    expect(livePageState('paused', false)).toBe('paused');
    expect(livePageState('ended', true)).toBe('ended');
  });

  it("reads a scheduled session whose time has come as 'starting'", () => {
    expect(livePageState('scheduled', false)).toBe('scheduled');
    expect(livePageState('scheduled', true)).toBe('starting');
  });

  it("tells a show stopped with 'Detener' (back to scheduled) from one not begun", () => {
    const waiting = { status: 'scheduled', currentLotId: null, streamType: 'none' } as const;
    expect(isShowStopped(waiting, [lot('a', 1)], false)).toBe(false);
    // Late, never on air: still about to start.
    expect(isShowStopped(waiting, [lot('a', 1)], true)).toBe(false);
    // A rehearsal broadcast before the start time leaves the countdown; after it, the show has begun.
    expect(isShowStopped({ ...waiting, streamType: 'embedded' }, [lot('a', 1)], false)).toBe(false);
    expect(isShowStopped({ ...waiting, streamType: 'embedded' }, [lot('a', 1)], true)).toBe(true);
    // A lot on the block, or one that ran, at any time.
    expect(isShowStopped({ ...waiting, currentLotId: 'a' }, [lot('a', 1)], false)).toBe(true);
    expect(isShowStopped(waiting, [lot('a', 1, closedEmpty, 'finished')], false)).toBe(true);
    expect(isShowStopped({ ...waiting, status: 'live', currentLotId: 'a' }, [lot('a', 1)], false)).toBe(false);
  });
});

describe('the /live directory', () => {
  const card = (id: string, scheduledAt: number, status: LiveSessionCard['status']): LiveSessionCard => ({
    id,
    title: id,
    sellerSlug: 'tienda',
    sellerName: 'Tienda',
    status,
    scheduledAt,
    coverImageUrl: null,
    lotCount: 0,
  });

  it('orders each list by start time and never lists a live session twice', () => {
    const out = directoryCards({
      live: [card('l2', 20, 'live'), card('l1', 10, 'paused')],
      upcoming: [card('u2', 40, 'scheduled'), card('l1', 10, 'scheduled'), card('u1', 30, 'scheduled')],
    });
    expect(out.live.map((c) => c.id)).toEqual(['l1', 'l2']);
    expect(out.upcoming.map((c) => c.id)).toEqual(['u1', 'u2']);
  });
});

describe('which state the bid panel shows (pickState)', () => {
  const page = { state: state({ version: 5, currentPrice: 300, bidCount: 1 }), offset: 10 };

  it('on the auction page the record stands in only until the history arrives', () => {
    const record = { state: state({ version: 9 }), offset: 0, isAuthoritative: false };
    expect(pickState(null, record).state.version).toBe(9);
    expect(pickState(page, record)).toBe(page);
  });

  it('on the live page the newer of the history and the session lot wins, the lot on a tie (a timer the seller set)', () => {
    const timerSet = { state: state({ version: 5, endTime: 99_000 }), offset: 20, isAuthoritative: true };
    expect(pickState(page, timerSet).state.endTime).toBe(99_000);
    expect(pickState(page, timerSet).offset).toBe(20);
    const older = { state: state({ version: 4 }), offset: 20, isAuthoritative: true };
    expect(pickState(page, older)).toBe(page);
  });

  it('ignores a history of another auction (the lot changed before it refetched)', () => {
    const other = { state: state({ id: 'a2', version: 1 }), offset: 0, isAuthoritative: true };
    expect(pickState(page, other).state.id).toBe('a2');
  });
});
