import { describe, expect, it } from 'vitest';
import {
  applyOrder,
  dragInSection,
  lotFacts,
  lotRow,
  lotRowStatus,
  lotSections,
  moveInSection,
  orderedLotIds,
  reorderSection,
} from '../../../src/web/livehub/lot-rows';
import { lot } from '../../support/live-hub-fixtures';

const names = (rows: { lot: { auction: { name: string } } }[]) => rows.map((r) => r.lot.auction.name);

describe('lot facts and rows', () => {
  it('reads hasBids from the bid count and auctionEnded from the status', () => {
    expect(lotFacts(lot(1, { state: { bidCount: 2 } }))).toMatchObject({ hasBids: true, auctionEnded: false });
    expect(lotFacts(lot(1, { state: { status: 'ended' } }))).toMatchObject({ hasBids: false, auctionEnded: true });
  });

  it('shows the current bid when there is one, else the starting price', () => {
    expect(lotRow(lot(1), null)).toMatchObject({ price: 500, hasBid: false, isCurrent: false });
    expect(lotRow(lot(1, { state: { currentPrice: 740, bidCount: 3 } }), lot(1).id)).toMatchObject({ price: 740, hasBid: true, isCurrent: true });
  });

  it("names the outcome once the auction ended: 'sold' with bids, 'unsold' without", () => {
    expect(lotRowStatus(lot(1, { status: 'finished', state: { status: 'ended', bidCount: 1, currentPrice: 520 } }))).toBe('sold');
    expect(lotRowStatus(lot(1, { status: 'finished', state: { status: 'ended' } }))).toBe('unsold');
    expect(lotRowStatus(lot(1, { status: 'passed' }))).toBe('passed');
    expect(lotRowStatus(lot(1, { state: { status: 'live' } }))).toBe('live');
  });

  it('says an auction that closed while its lot waited in the queue closed outside the show, sold or not', () => {
    const ended = { status: 'ended', bidCount: 2, currentPrice: 640 } as const;
    expect(lotRowStatus(lot(1, { status: 'passed', offered: false, state: ended }))).toBe('soldOutside');
    expect(lotRowStatus(lot(1, { status: 'passed', offered: false, state: { status: 'ended' } }))).toBe('endedOutside');
    const rows = lotSections([lot(1, { status: 'passed', offered: false, state: ended }), lot(2)], { currentLotId: lot(2).id, status: 'live' });
    expect(rows.past.map((r) => r.status)).toEqual(['soldOutside']);
  });
});

describe("'Próximos' and 'Pasados / Finalizados'", () => {
  it('keeps the current lot upcoming and moves lots before it to the past', () => {
    const lots = [lot(1), lot(2), lot(3), lot(4)];
    const { upcoming, past } = lotSections(lots, { currentLotId: lots[2]?.id ?? null, status: 'live' });
    expect(names(upcoming)).toEqual(['Lote 3', 'Lote 4']);
    expect(names(past)).toEqual(['Lote 1', 'Lote 2']);
    expect(upcoming[0]?.isCurrent).toBe(true);
  });

  it('keeps an earlier lot still taking bids upcoming, and moves it once its auction ended', () => {
    const bidding = lot(1, { state: { bidCount: 1, currentPrice: 520, status: 'live' } });
    const sold = lot(1, { status: 'finished', state: { bidCount: 1, currentPrice: 520, status: 'ended' } });
    const current = lot(2);
    expect(names(lotSections([bidding, current], { currentLotId: current.id, status: 'live' }).upcoming)).toEqual(['Lote 1', 'Lote 2']);
    expect(names(lotSections([sold, current], { currentLotId: current.id, status: 'live' }).past)).toEqual(['Lote 1']);
  });

  it('lists finished lots as past even without a current lot, in lot order', () => {
    const { upcoming, past } = lotSections([lot(3), lot(2, { status: 'finished' }), lot(1)], { currentLotId: null, status: 'live' });
    expect(names(upcoming)).toEqual(['Lote 1', 'Lote 3']);
    expect(names(past)).toEqual(['Lote 2']);
  });
});

describe('reordering', () => {
  const all = ['a', 'b', 'c', 'd', 'e'];

  it('moves up and down inside a section, and not past its ends', () => {
    expect(moveInSection(['c', 'd', 'e'], 'd', -1)).toEqual(['d', 'c', 'e']);
    expect(moveInSection(['c', 'd', 'e'], 'd', 1)).toEqual(['c', 'e', 'd']);
    expect(moveInSection(['c', 'd', 'e'], 'c', -1)).toBeNull();
    expect(moveInSection(['c', 'd', 'e'], 'e', 1)).toBeNull();
    expect(moveInSection(['c', 'd', 'e'], 'x', 1)).toBeNull();
  });

  it('drops a dragged lot where the target was', () => {
    expect(dragInSection(['c', 'd', 'e'], 'e', 'c')).toEqual(['e', 'c', 'd']);
    expect(dragInSection(['c', 'd', 'e'], 'c', 'e')).toEqual(['d', 'e', 'c']);
    expect(dragInSection(['c', 'd', 'e'], 'c', 'c')).toBeNull();
    expect(dragInSection(['c', 'd', 'e'], 'c', null)).toBeNull();
  });

  it("refills only the section's own places in the whole order", () => {
    // Past lots a and b keep their places; the upcoming c, d, e are rearranged in theirs.
    expect(reorderSection(all, ['c', 'd', 'e'], ['e', 'c', 'd'])).toEqual(['a', 'b', 'e', 'c', 'd']);
    // A section that is not contiguous (a bidding lot kept upcoming) keeps the others fixed too.
    expect(reorderSection(all, ['a', 'c', 'd'], ['d', 'a', 'c'])).toEqual(['d', 'b', 'a', 'c', 'e']);
  });

  it('refuses a rearrangement that changes nothing or does not match the section', () => {
    expect(reorderSection(all, ['c', 'd'], ['c', 'd'])).toBeNull();
    expect(reorderSection(all, ['c', 'd'], ['c', 'x'])).toBeNull();
    expect(reorderSection(all, ['c', 'd'], ['c'])).toBeNull();
  });

  it('lists ids by order and shows a pending order at once', () => {
    const lots = [lot(2), lot(1), lot(3)];
    expect(orderedLotIds(lots)).toEqual([lot(1).id, lot(2).id, lot(3).id]);
    const shown = applyOrder(lots, [lot(3).id, lot(1).id, lot(2).id]);
    expect(orderedLotIds(shown)).toEqual([lot(3).id, lot(1).id, lot(2).id]);
  });
});
