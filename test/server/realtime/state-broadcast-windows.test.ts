import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUCTION_STATE_EVENT, type AuctionStateEvent, OUTBID_EVENT } from '../../../src/domain/realtime.js';
import type { EngineState } from '../../../src/server/db/engine-rows.js';
import { createBidBroadcaster } from '../../../src/server/realtime/bid-broadcaster.js';
import { createBidPresenter } from '../../../src/server/realtime/bid-presenter.js';
import type { Realtime } from '../../../src/server/realtime/index.js';
import { createLocalRelay } from '../../../src/server/realtime/room-relay.js';
import { engineLine, engineState } from '../../support/engine-states.js';

/**
 * A hot auction's `auctionState` windows: a room whose send is cheap hears the newest state every
 * short window; a room whose send takes long (ten thousand sockets) waits after it in proportion,
 * so its fan-out never takes the whole event loop from the bids. Closes and outbid notices never
 * wait. The sends' cost is simulated by moving the clock inside the send.
 */

const AUCTION = '7d0c7f3e-4c1a-4f0e-9a57-3f1f6c1b2a10';
const state = (version: number, over: Partial<EngineState> = {}) => engineState(AUCTION, version, { leaderId: `u${version}`, ...over });

describe("a hot auction's state on its way to the room", () => {
  let sent: { event: string; version: number; seqs: number[] }[];
  /** How long the next sends to the room take (the clock moves by it inside the send). */
  let sendCostMs: number;

  function build(opts: { publicMs?: number; fanoutShare?: number; maxWindowMs?: number } = {}) {
    const realtime = {
      relay: createLocalRelay(),
      toAuctionHere: (_id: string, event: string, payload: AuctionStateEvent) => {
        sent.push({ event, version: payload.state.version, seqs: payload.bids.map((b) => b.seq) });
        vi.setSystemTime(Date.now() + sendCostMs);
      },
      toCompany: () => {},
      toUserOften: (_userId: string, event: string, payload: { version: number }) => sent.push({ event, version: payload.version, seqs: [] }),
    } as unknown as Realtime;
    const broadcaster = createBidBroadcaster(realtime, createBidPresenter('x'.repeat(40)), { publicMs: 40, ...opts });
    stops.push(() => broadcaster.stop());
    return broadcaster;
  }
  const stops: (() => void)[] = [];
  const bid = (version: number, outbidUserId: string | null = null) => ({ state: state(version), lines: [engineLine(version - 1)], outbidUserId });
  const versions = () => sent.filter((s) => s.event === AUCTION_STATE_EVENT).map((s) => s.version);

  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    sendCostMs = 0;
  });
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
    vi.useRealTimers();
  });

  it('a cheap room hears the first state at once and the newest of each short window after it', () => {
    const broadcaster = build();
    broadcaster.bid(bid(2));
    expect(versions()).toEqual([2]);
    vi.advanceTimersByTime(10);
    broadcaster.bid(bid(3));
    broadcaster.bid(bid(4));
    expect(versions()).toEqual([2]);
    vi.advanceTimersByTime(30);
    expect(sent.at(-1)).toEqual({ event: AUCTION_STATE_EVENT, version: 4, seqs: [2, 3] });
    expect(versions()).toEqual([2, 4]);
  });

  it('a room whose send took long waits as long again, then hears only the newest state with every line since', () => {
    const broadcaster = build({ fanoutShare: 0.5 });
    sendCostMs = 300;
    broadcaster.bid(bid(2));
    // Bids answered while that send ran (or just after it) do not each start another.
    broadcaster.bid(bid(3));
    vi.advanceTimersByTime(100);
    broadcaster.bid(bid(4));
    broadcaster.bid(bid(5));
    vi.advanceTimersByTime(199);
    expect(versions()).toEqual([2]);
    vi.advanceTimersByTime(1);
    expect(versions()).toEqual([2, 5]);
    expect(sent.at(-1)?.seqs).toEqual([2, 3, 4]);
  });

  it('a room keeps the short window again once its sends are cheap', () => {
    const broadcaster = build({ fanoutShare: 0.5 });
    sendCostMs = 300;
    broadcaster.bid(bid(2));
    sendCostMs = 0;
    broadcaster.bid(bid(3));
    vi.advanceTimersByTime(300);
    expect(versions()).toEqual([2, 3]);
    broadcaster.bid(bid(4));
    vi.advanceTimersByTime(40);
    expect(versions()).toEqual([2, 3, 4]);
  });

  it('a room waits at most its longest window, however long a send took on a busy machine', () => {
    const broadcaster = build({ fanoutShare: 0.5, maxWindowMs: 400 });
    sendCostMs = 5000;
    broadcaster.bid(bid(2));
    broadcaster.bid(bid(3));
    vi.advanceTimersByTime(399);
    expect(versions()).toEqual([2]);
    vi.advanceTimersByTime(1);
    expect(versions()).toEqual([2, 3]);
  });

  it('a close goes out at once, carrying the lines that waited, and the state that waited is not sent after it', () => {
    const broadcaster = build();
    sendCostMs = 300;
    broadcaster.bid(bid(2));
    broadcaster.bid(bid(3));
    broadcaster.closed(state(4, { status: 'ended', winnerId: 'u3', winnerName: 'Beto Pujador' }));
    expect(versions()).toEqual([2, 4]);
    expect(sent.at(-1)?.seqs).toEqual([2]);
    vi.advanceTimersByTime(10_000);
    expect(versions()).toEqual([2, 4]);
  });

  it('a timer set by the Live Hub goes out at once while the room waits', () => {
    const broadcaster = build();
    sendCostMs = 300;
    broadcaster.bid(bid(2));
    broadcaster.changed(state(3));
    expect(versions()).toEqual([2, 3]);
  });

  it('the outbid bidder hears it at once while the room waits', () => {
    const broadcaster = build();
    sendCostMs = 300;
    broadcaster.bid(bid(2));
    broadcaster.bid(bid(3, 'u2'));
    expect(sent).toEqual([
      { event: AUCTION_STATE_EVENT, version: 2, seqs: [1] },
      { event: OUTBID_EVENT, version: 3, seqs: [] },
    ]);
  });

  it('a change older than the state already sent (another instance’s, published late) brings its line under the newest state, in seq order', () => {
    const broadcaster = build();
    sendCostMs = 300;
    broadcaster.bid(bid(4));
    broadcaster.bid(bid(3));
    broadcaster.bid(bid(2));
    expect(versions()).toEqual([4]);
    vi.advanceTimersByTime(400);
    expect(sent.filter((s) => s.event === AUCTION_STATE_EVENT)).toEqual([
      { event: AUCTION_STATE_EVENT, version: 4, seqs: [3] },
      { event: AUCTION_STATE_EVENT, version: 4, seqs: [1, 2] },
    ]);
    vi.advanceTimersByTime(10_000);
    expect(versions()).toEqual([4, 4]);
  });

  it('a repeated or older state without lines is not sent again', () => {
    const broadcaster = build();
    broadcaster.bid(bid(3));
    broadcaster.changed(state(3));
    broadcaster.changed(state(2));
    vi.advanceTimersByTime(10_000);
    expect(versions()).toEqual([3]);
  });
});
