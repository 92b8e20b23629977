import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuctionLiveState } from '../../../src/domain/bidding';
import type { LotView } from '../../../src/domain/live';
import type { SessionStatus } from '../../../src/domain/live-public';
import { lotSections } from '../../../src/web/livehub/lot-rows';
import { buyerLots, isSold, sessionTotals } from '../../../src/web/public/live/live-view';
import { lot } from '../../support/live-hub-fixtures';

/**
 * The Live Hub's 'Próximos' / 'Pasados / Finalizados' and the buyer's lot on the block, 'Próximos
 * lotes', results and 'No salieron a subasta' say the same of every lot, for generated sessions:
 * any lot facts (sold, unsold, skipped, re-run, running, never run), any current lot, any status.
 */

const arbState = fc.record({
  status: fc.constantFrom<AuctionLiveState['status']>('pending', 'active', 'live', 'ended'),
  bidCount: fc.nat({ max: 3 }),
  withWinner: fc.boolean(),
  endTime: fc.option(fc.integer({ min: 1, max: 2_000_000 }), { nil: null }),
});
const arbLot = fc.record({ status: fc.constantFrom<LotView['status']>('queued', 'finished', 'passed'), state: arbState });

const arbShow = fc
  .array(arbLot, { maxLength: 9 })
  .chain((facts) =>
    fc.tuple(
      fc.constant(facts),
      fc.shuffledSubarray(
        facts.map((_, i) => i + 1),
        { minLength: facts.length, maxLength: facts.length },
      ),
      fc.option(fc.nat({ max: Math.max(0, facts.length - 1) }), { nil: null }),
      fc.constantFrom<SessionStatus>('scheduled', 'live', 'paused', 'ended'),
    ),
  )
  .map(([facts, orders, currentIndex, status]) => {
    const lots = facts.map((f, i) => {
      const ended = f.state.status === 'ended';
      const built = lot(i + 1, {
        status: f.status,
        state: {
          status: f.state.status,
          bidCount: f.state.bidCount,
          currentPrice: f.state.bidCount > 0 ? 500 + 20 * f.state.bidCount : null,
          endTime: f.state.endTime,
          winnerName: ended && f.state.withWinner && f.state.bidCount > 0 ? 'Ju***' : null,
          winnerTag: ended && f.state.withWinner && f.state.bidCount > 0 ? 'tag-1' : null,
        },
      });
      return { ...built, order: orders[i] as number };
    });
    const currentLotId = currentIndex === null || lots.length === 0 ? null : (lots[currentIndex % lots.length] as LotView).id;
    return { lots, session: { currentLotId, status } };
  });

const ids = (lots: readonly { id: string }[]) => lots.map((l) => l.id);
const byOrder = (lots: readonly LotView[]) => [...lots].sort((a, b) => a.order - b.order);

describe('the Live Hub and the public live page agree on every lot', () => {
  it('upcoming and past are the same lots, in the same order, on both screens (property)', () => {
    fc.assert(
      fc.property(arbShow, ({ lots, session }) => {
        const hub = lotSections(lots, session);
        const buyer = buyerLots(lots, session);
        const buyerUpcoming = byOrder(buyer.current ? [buyer.current, ...buyer.upcoming] : buyer.upcoming);
        expect(ids(hub.upcoming.map((r) => r.lot))).toEqual(ids(buyerUpcoming));
        expect(ids(hub.past.map((r) => r.lot))).toEqual(ids(byOrder([...buyer.results, ...buyer.notOffered])));
        // 'En subasta ahora' marks the same lot on both, or none.
        expect(hub.upcoming.filter((r) => r.isCurrent).map((r) => r.lot.id)).toEqual(buyer.current ? [buyer.current.id] : []);
        expect(hub.past.some((r) => r.isCurrent)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("a past lot reads 'Vendido' on one screen exactly when it does on the other, and only results are counted (property)", () => {
    fc.assert(
      fc.property(arbShow, ({ lots, session }) => {
        const hub = lotSections(lots, session);
        const buyer = buyerLots(lots, session);
        const results = new Set(ids(buyer.results));
        for (const row of hub.past) {
          if (row.status === 'sold') expect(results.has(row.lot.id) && isSold(row.lot.auction.state)).toBe(true);
          if (results.has(row.lot.id)) expect(row.status === 'sold').toBe(isSold(row.lot.auction.state));
        }
        // The counts are of the lots that ran (their auction closed): among the results, or the lot on the block.
        const ran = (l: LotView) => l.auction.state.status === 'ended' || l.status === 'finished';
        const decided = lots.filter((l) => results.has(l.id) || (buyer.current?.id === l.id && ran(l)));
        expect(decided).toEqual(lots.filter(ran));
        const totals = sessionTotals(lots);
        expect(totals.soldCount + totals.unsoldCount).toBe(decided.length);
        expect(totals.unsoldCount).toBe(decided.filter((l) => !isSold(l.auction.state)).length);
        for (const l of buyer.notOffered) expect(ran(l)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('the cases the walkthrough met: a skipped lot, a re-run, a sold lot, an unsold one, the current one, a session ended', () => {
    const sold = lot(1, { status: 'finished', state: { status: 'ended', bidCount: 2, currentPrice: 540, winnerName: 'Ju***', winnerTag: 't' } });
    const unsold = lot(2, { status: 'finished', state: { status: 'ended' } });
    const skipped = lot(3);
    const current = lot(4, { state: { status: 'live', endTime: 2_000_000 } });
    const next = lot(5);
    const lots = [sold, unsold, skipped, current, next];
    const both = (session: { currentLotId: string | null; status: SessionStatus }) => {
      const hub = lotSections(lots, session);
      const buyer = buyerLots(lots, session);
      return {
        hub: { upcoming: hub.upcoming.map((r) => r.lot.auction.name), past: hub.past.map((r) => r.lot.auction.name) },
        buyer: {
          current: buyer.current?.auction.name ?? null,
          upcoming: buyer.upcoming.map((l) => l.auction.name),
          results: buyer.results.map((l) => l.auction.name),
          notOffered: buyer.notOffered.map((l) => l.auction.name),
        },
      };
    };
    expect(both({ currentLotId: current.id, status: 'live' })).toEqual({
      hub: { upcoming: ['Lote 4', 'Lote 5'], past: ['Lote 1', 'Lote 2', 'Lote 3'] },
      buyer: { current: 'Lote 4', upcoming: ['Lote 5'], results: ['Lote 1', 'Lote 2'], notOffered: ['Lote 3'] },
    });
    // The seller goes back to the unsold lot to run it again: the skipped one is to come again.
    expect(both({ currentLotId: unsold.id, status: 'live' })).toEqual({
      hub: { upcoming: ['Lote 2', 'Lote 3', 'Lote 4', 'Lote 5'], past: ['Lote 1'] },
      buyer: { current: 'Lote 2', upcoming: ['Lote 3', 'Lote 4', 'Lote 5'], results: ['Lote 1'], notOffered: [] },
    });
    // Ended with the last lot never reached: not offered, and not counted as unsold.
    expect(both({ currentLotId: unsold.id, status: 'ended' })).toEqual({
      hub: { upcoming: [], past: ['Lote 1', 'Lote 2', 'Lote 3', 'Lote 4', 'Lote 5'] },
      buyer: { current: null, upcoming: [], results: ['Lote 1', 'Lote 2'], notOffered: ['Lote 3', 'Lote 4', 'Lote 5'] },
    });
    expect(sessionTotals(lots)).toEqual({ soldCount: 1, unsoldCount: 1, soldTotal: 540 });
  });
});
