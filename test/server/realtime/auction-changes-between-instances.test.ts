import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BID_EVENT_MAX } from '../../../src/domain/realtime.js';
import type { EngineState } from '../../../src/server/db/engine-rows.js';
import { createBidBroadcaster, mergeChanges, RELAY_WINDOW_MS } from '../../../src/server/realtime/bid-broadcaster.js';
import { createBidPresenter } from '../../../src/server/realtime/bid-presenter.js';
import type { Realtime } from '../../../src/server/realtime/index.js';
import type { RoomRelay } from '../../../src/server/realtime/room-relay.js';
import { rooms } from '../../../src/server/realtime/rooms.js';
import { engineLine, engineState } from '../../support/engine-states.js';

/**
 * With several instances, what the committing instance hands the others about a hot auction: the
 * first change at once, then at most one message per window carrying the newest state and every
 * line since, and a close at once with what waited, never behind it.
 */

const AUCTION = '0b9a3c1e-5d2f-4a8b-9c7e-6f1d2e3a4b5c';
const OTHER = '1c8b4d2f-6e3a-4b9c-8d7f-7a2e3f4b5c6d';
const state = (version: number, over: Partial<EngineState> = {}, id = AUCTION) => engineState(id, version, { leaderId: `u${version}`, ...over });
const bid = (version: number, id = AUCTION) => ({ state: state(version, {}, id), lines: [engineLine(version - 1)], outbidUserId: null });

interface Published {
  room: string;
  version: number;
  seqs: number[];
  immediate: boolean;
}

function build(crossesInstances: boolean) {
  const published: Published[] = [];
  const relay: RoomRelay = {
    crossesInstances,
    publish(room, message) {
      const change = message as { state: EngineState; lines: { seq: number }[]; immediate: boolean };
      published.push({ room, version: change.state.version, seqs: change.lines.map((l) => l.seq), immediate: change.immediate });
    },
    subscribe: () => () => {},
    async close() {},
  };
  const realtime = { relay, toAuctionHere: () => {}, toCompany: () => {}, toUserOften: () => {} } as unknown as Realtime;
  const broadcaster = createBidBroadcaster(realtime, createBidPresenter('x'.repeat(40)));
  return { broadcaster, published };
}

describe("a hot auction's changes on their way to the other instances", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the first change at once and the ones of its window as one message: the newest state and every line', () => {
    const { broadcaster, published } = build(true);
    try {
      broadcaster.bid(bid(2));
      broadcaster.bid(bid(7, OTHER));
      expect(published).toEqual([
        { room: rooms.auction(AUCTION), version: 2, seqs: [1], immediate: false },
        { room: rooms.auction(OTHER), version: 7, seqs: [6], immediate: false },
      ]);
      for (const v of [3, 4, 5]) broadcaster.bid(bid(v));
      vi.advanceTimersByTime(RELAY_WINDOW_MS - 1);
      expect(published).toHaveLength(2);
      vi.advanceTimersByTime(1);
      expect(published.at(-1)).toEqual({ room: rooms.auction(AUCTION), version: 5, seqs: [2, 3, 4], immediate: false });
      // Once a window has passed with nothing waiting, the next change goes at once again.
      vi.advanceTimersByTime(RELAY_WINDOW_MS);
      broadcaster.bid(bid(6));
      expect(published.at(-1)).toEqual({ room: rooms.auction(AUCTION), version: 6, seqs: [5], immediate: false });
      expect(published).toHaveLength(4);
    } finally {
      broadcaster.stop();
    }
  });

  it('sends a close at once, carrying the bids that waited, and nothing of them after it', () => {
    const { broadcaster, published } = build(true);
    try {
      broadcaster.bid(bid(2));
      broadcaster.bid(bid(3));
      broadcaster.bid(bid(4));
      broadcaster.closed(state(5, { status: 'ended', winnerId: 'u4', winnerName: 'Beto Pujador' }));
      expect(published).toEqual([
        { room: rooms.auction(AUCTION), version: 2, seqs: [1], immediate: false },
        { room: rooms.auction(AUCTION), version: 5, seqs: [2, 3], immediate: true },
      ]);
      vi.advanceTimersByTime(10 * RELAY_WINDOW_MS);
      expect(published).toHaveLength(2);
    } finally {
      broadcaster.stop();
    }
  });

  it('hands each change on at once when there is one instance', () => {
    const { broadcaster, published } = build(false);
    try {
      broadcaster.bid(bid(2));
      broadcaster.bid(bid(3));
      expect(published.map((p) => p.version)).toEqual([2, 3]);
    } finally {
      broadcaster.stop();
    }
  });

  it('keeps the newest state and the newest lines in order when two changes become one', () => {
    const line = (seq: number) => ({ seq, bidderName: 'B***', bidderTag: 't', amount: seq, isAutomatic: false, createdAt: 0 });
    const older = { state: state(9), lines: Array.from({ length: BID_EVENT_MAX }, (_, i) => line(i + 1)), immediate: false };
    const newer = { state: state(8), lines: [line(BID_EVENT_MAX + 2), line(BID_EVENT_MAX + 1)], immediate: false };
    const merged = mergeChanges(older, newer);
    expect(merged.state.version).toBe(9);
    expect(merged.lines.map((l) => l.seq)).toEqual(Array.from({ length: BID_EVENT_MAX }, (_, i) => i + 3));
    expect(merged.immediate).toBe(false);
  });
});
