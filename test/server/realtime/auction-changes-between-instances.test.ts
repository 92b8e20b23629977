import { describe, expect, it } from 'vitest';
import { BID_EVENT_MAX } from '../../../src/domain/realtime.js';
import type { EngineState } from '../../../src/server/db/engine-rows.js';
import { createBidBroadcaster, mergeChanges } from '../../../src/server/realtime/bid-broadcaster.js';
import { createBidPresenter } from '../../../src/server/realtime/bid-presenter.js';
import type { Realtime } from '../../../src/server/realtime/index.js';
import type { RoomRelay } from '../../../src/server/realtime/room-relay.js';
import { rooms } from '../../../src/server/realtime/rooms.js';
import { engineLine, engineState } from '../../support/engine-states.js';

/**
 * With several instances, what the committing instance hands the others about a hot auction: the
 * bids answered in one turn of the event loop (one group commit's) as one message carrying the
 * newest state and all their lines, and a close at once with what waited, never behind it.
 */

const AUCTION = '0b9a3c1e-5d2f-4a8b-9c7e-6f1d2e3a4b5c';
const OTHER = '1c8b4d2f-6e3a-4b9c-8d7f-7a2e3f4b5c6d';
const state = (version: number, over: Partial<EngineState> = {}, id = AUCTION) => engineState(id, version, { leaderId: `u${version}`, ...over });
const bid = (version: number, id = AUCTION) => ({ state: state(version, {}, id), lines: [engineLine(version - 1)], outbidUserId: null });
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

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
  const realtime = { relay, toAuctionHere: () => {}, toCompany: () => {}, toUser: () => {} } as unknown as Realtime;
  const broadcaster = createBidBroadcaster(realtime, createBidPresenter('x'.repeat(40)));
  return { broadcaster, published };
}

describe("a hot auction's changes on their way to the other instances", () => {
  it("sends the bids answered in one turn as one message: the newest state and every bid's line", async () => {
    const { broadcaster, published } = build(true);
    try {
      for (const v of [2, 3, 4]) broadcaster.bid(bid(v));
      broadcaster.bid(bid(7, OTHER));
      expect(published).toEqual([]);
      await nextTurn();
      expect(published).toEqual([
        { room: rooms.auction(AUCTION), version: 4, seqs: [1, 2, 3], immediate: false },
        { room: rooms.auction(OTHER), version: 7, seqs: [6], immediate: false },
      ]);
      // The next turn's bids are a message of their own.
      broadcaster.bid(bid(5));
      await nextTurn();
      expect(published.at(-1)).toEqual({ room: rooms.auction(AUCTION), version: 5, seqs: [4], immediate: false });
      expect(published).toHaveLength(3);
    } finally {
      broadcaster.stop();
    }
  });

  it('sends a close at once, carrying the bids that waited, and nothing of them after it', async () => {
    const { broadcaster, published } = build(true);
    try {
      broadcaster.bid(bid(2));
      broadcaster.bid(bid(3));
      broadcaster.closed(state(4, { status: 'ended', winnerId: 'u3', winnerName: 'Beto Pujador' }));
      expect(published).toEqual([{ room: rooms.auction(AUCTION), version: 4, seqs: [1, 2], immediate: true }]);
      await nextTurn();
      expect(published).toHaveLength(1);
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
