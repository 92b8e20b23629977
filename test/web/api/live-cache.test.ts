import { describe, expect, it } from 'vitest';
import { type LiveSessionData, liveCache } from '../../../src/web/api/live';
import { detail, lot, SESSION_ID, state } from '../../support/live-hub-fixtures';

/** The session room's events applied to the cached detail (src/web/api/live.ts), as both screens use it. */
const data = (lots: ReturnType<typeof lot>[], version = 5): LiveSessionData => ({ ...detail({ lots, session: { version } }), receivedAt: 0 });

describe('liveCache', () => {
  it('a timer replaces the lot’s auction state and queues it again (a re-run clears the last close)', () => {
    const unsold = lot(1, { status: 'finished', state: { status: 'ended', version: 4, endTime: 900_000 } });
    const reopened = state({ id: unsold.auctionId, status: 'live', version: 5, endTime: 1_015_000, serverNow: 1_000_000 });
    const next = liveCache.timer(data([unsold, lot(2)]), {
      sessionId: SESSION_ID,
      lotId: unsold.id,
      auctionId: unsold.auctionId,
      endTime: 1_015_000,
      serverNow: 1_000_000,
      version: 6,
      state: reopened,
    });
    expect(next?.lots[0]).toMatchObject({ status: 'queued', auction: { state: reopened } });
    expect(next?.lots[1]).toEqual(lot(2));
    expect(next?.serverNow).toBe(1_000_000);
  });

  it('a timer event older than the lot’s state changes nothing', () => {
    const running = lot(1, { state: { status: 'live', version: 9, endTime: 2_000_000 } });
    const next = liveCache.timer(data([running]), {
      sessionId: SESSION_ID,
      lotId: running.id,
      auctionId: running.auctionId,
      endTime: 1_015_000,
      serverNow: 1_000_000,
      version: 6,
      state: state({ id: running.auctionId, status: 'live', version: 7, endTime: 1_015_000 }),
    });
    expect(next?.lots[0]).toEqual(running);
  });

  it('a finished lot takes the closed state; a stale sessionState is ignored, a newer one replaces the lots', () => {
    const running = lot(1, { state: { status: 'live', version: 3 } });
    const sold = state({ id: running.auctionId, status: 'ended', version: 4, currentPrice: 700, bidCount: 2, winnerName: 'Ju***' });
    const finished = liveCache.finished(data([running]), { sessionId: SESSION_ID, lotId: running.id, state: sold, version: 6, offered: true });
    expect(finished?.lots[0]).toMatchObject({ status: 'finished', offered: true, auction: { state: sold } });
    // Closed while it waited in the queue: passed, outside the show.
    const waiting = lot(1, { offered: false, state: { status: 'active', version: 3 } });
    const outside = liveCache.finished(data([waiting]), { sessionId: SESSION_ID, lotId: waiting.id, state: sold, version: 6, offered: false });
    expect(outside?.lots[0]).toMatchObject({ status: 'passed', offered: false, auction: { state: sold } });

    const base = data([running], 5);
    const stale = liveCache.state(base, { session: { ...base.session, version: 4, title: 'Viejo' }, lots: [], serverNow: 1 });
    expect(stale).toBe(base);
    const fresh = liveCache.state(base, { session: { ...base.session, version: 6, title: 'Nuevo' }, lots: [lot(2)], serverNow: 2 });
    expect(fresh?.session.title).toBe('Nuevo');
    expect(fresh?.lots.map((l) => l.id)).toEqual([lot(2).id]);
  });
});
