import { nextMinimumBid } from '../../domain/bid-rules.js';
import type { BidView } from '../../domain/bidding.js';
import { AUCTION_STATE_EVENT, type AuctionStateEvent, BID_EVENT_MAX, OUTBID_EVENT, type OutbidEvent } from '../../domain/realtime.js';
import type { EngineLine, EngineState } from '../db/engine-rows.js';
import type { BidPresenter } from './bid-presenter.js';
import type { Realtime } from './index.js';
import { rooms } from './rooms.js';

/**
 * The most of the event loop one room's `auctionState` sends may take; the rest is the bids'. Half:
 * with one shared frame per send (room-frames.ts) a room of ten thousand costs about 100 ms a send,
 * and a window as long as the send keeps delivery under 500 ms with the bids still at 0.45 of the
 * database's write limit; a third gave 0.56 and about 500 ms (bench/README.md).
 */
export const FANOUT_SHARE = 1 / 2;
/**
 * The longest a room waits after a send, however long that send took: a send slowed by a busy
 * machine (the process waiting for a CPU) must not make viewers wait seconds for the next state.
 */
export const FANOUT_WINDOW_MAX_MS = 400;
/** With several instances, how often at most one auction's changes go to the others (half a room's shortest window). */
export const RELAY_WINDOW_MS = 20;

/**
 * Sends bid activity after commit, for the publisher (realtime/publisher.ts). A hot auction can
 * take hundreds of bids a second, so each auction's public room gets at most one `auctionState`
 * per window (the first at once, the rest merged into the next, the newest state winning), and the
 * company's panels one `auctionUpdate` per `panelMs`. A room's window is `publicMs`, or longer when
 * its last send took long: sending to ten thousand sockets costs the event loop a write per socket
 * (about 100 ms on a small machine, bench/README.md), so after a send that took d ms the room waits
 * d·(1 − share)/share (at most `maxWindowMs`), and its fan-out takes at most `fanoutShare` of the
 * event loop, leaving the rest to the bids. A small room's sends take about nothing, so it keeps `publicMs`. Every event
 * carries the whole state and its version, plus the lines added since the last event, so a viewer
 * that missed one applies the newest and refetches the history when a line is missing. Closes and
 * timer changes go out at once, after whatever state was waiting (it is merged into them), and
 * outbid notices go out at once (to the other instances within a window of their own,
 * realtime/user-notices.ts); a state already sent (a buy-now's close) is not sent twice.
 *
 * With several instances each auction's changes go (at most once per `relayMs`, merged: below)
 * through the room relay (realtime/room-relay.ts) to every instance that holds viewers of the
 * auction, and each one coalesces for its own sockets in its own windows, which follow the cost of
 * its own sends: a viewer hears no more states than with one instance, whichever instances
 * committed the bids. Changes may arrive out of order across
 * instances: the newest version wins and the lines are sent in `seq` order. The panels' updates
 * are few and go from the committing instance through the adapter.
 */
export function createBidBroadcaster(
  realtime: Realtime,
  present: BidPresenter,
  opts: { publicMs?: number; panelMs?: number; relayMs?: number; fanoutShare?: number; maxWindowMs?: number } = {},
) {
  const publicMs = opts.publicMs ?? 40;
  const relayMs = opts.relayMs ?? RELAY_WINDOW_MS;
  const panelMs = opts.panelMs ?? 1000;
  const fanoutShare = opts.fanoutShare ?? FANOUT_SHARE;
  const maxWindowMs = opts.maxWindowMs ?? FANOUT_WINDOW_MAX_MS;

  interface Channel {
    /** When the last send ended. */
    lastSent: number;
    /** How long the channel waits after a send: its minimum, or longer when that send took long. */
    windowMs: number;
    /** The newest version sent, so the close that follows a closing bid is not repeated. */
    sentVersion: number;
    timer: NodeJS.Timeout | null;
    /** The newest state heard, sent or not. */
    latest: EngineState | null;
    /** Something waits to be sent: a newer state or lines. */
    pending: boolean;
    lines: BidView[];
  }
  const publicChannels = new Map<string, Channel>();
  const panelChannels = new Map<string, Channel>();

  function sendPublic(channel: Channel) {
    const state = channel.latest;
    if (!state) return;
    // serverNow is the moment of sending, so viewers correct their countdowns by it.
    const bids = channel.lines.length > 1 ? channel.lines.sort((x, y) => x.seq - y.seq) : channel.lines;
    const event: AuctionStateEvent = { state: present.state({ ...state, serverNow: Date.now() }), bids };
    realtime.toAuctionHere(state.id, AUCTION_STATE_EVENT, event);
    channel.sentVersion = state.version;
    channel.lines = [];
  }

  function sendPanel(channel: Channel) {
    const state = channel.latest;
    if (!state) return;
    // The public room hears of it through `auctionState`.
    const { id, companyId, version } = state;
    realtime.toCompany(companyId, 'auctionUpdate', { id, companyId, version });
    channel.sentVersion = version;
  }

  function push(channels: Map<string, Channel>, every: number, send: (c: Channel) => void, state: EngineState, lines: BidView[], immediate: boolean) {
    let channel = channels.get(state.id);
    if (!channel) {
      channel = { lastSent: 0, windowMs: every, sentVersion: 0, timer: null, latest: null, pending: false, lines: [] };
      channels.set(state.id, channel);
    }
    const newer = !channel.latest || state.version > channel.latest.version;
    if (newer) channel.latest = state;
    if (lines.length === 0 && !channel.pending && state.version <= channel.sentVersion) return;
    if (lines.length === 0 && !newer && !immediate) return;
    channel.pending = true;
    channel.lines.push(...lines);
    // Only the newest lines travel; a viewer missing older ones refetches the history.
    if (channel.lines.length > BID_EVENT_MAX) {
      channel.lines.sort((x, y) => x.seq - y.seq);
      channel.lines.splice(0, channel.lines.length - BID_EVENT_MAX);
    }
    const now = Date.now();
    const flush = (c: Channel) => {
      if (c.timer) clearTimeout(c.timer);
      c.timer = null;
      const began = Date.now();
      send(c);
      c.pending = false;
      // Counted from the end of the send: bids answered while it ran must not each start another.
      c.lastSent = Date.now();
      c.windowMs = Math.max(every, Math.min(maxWindowMs, ((c.lastSent - began) * (1 - fanoutShare)) / fanoutShare));
    };
    if (immediate || now - channel.lastSent >= channel.windowMs) return flush(channel);
    if (channel.timer) return;
    const c = channel;
    c.timer = setTimeout(() => flush(c), channel.windowMs - (now - channel.lastSent));
  }

  // Quiet auctions are forgotten after a minute.
  const sweep = setInterval(() => {
    const before = Date.now() - 60_000;
    for (const channels of [publicChannels, panelChannels]) {
      for (const [id, c] of channels) if (!c.timer && c.lastSent < before) channels.delete(id);
    }
    for (const [id, out] of outgoing) if (!out.timer && out.lastSent < before) outgoing.delete(id);
  }, 60_000);
  sweep.unref();

  const unsubscribe = realtime.relay.subscribe(rooms.auction(''), (_room, message) => {
    const change = message as AuctionChange | null;
    if (typeof change?.state?.id !== 'string' || typeof change.state.version !== 'number' || !Array.isArray(change.lines)) return;
    push(publicChannels, publicMs, sendPublic, change.state, change.lines, change.immediate === true);
  });

  /**
   * With several instances, each auction's changes leave for the others at most once per
   * `relayMs`: the first at once, the ones after it merged (the newest state, all their lines)
   * into one message at the end of the window, as a room's own windows do. A hot auction then
   * costs every instance in its room tens of Redis messages a second instead of one per bid. A
   * change that goes at once (a close, a timer) takes what waits with it at once, so nothing sent
   * after it (a lot's `lotFinished`) can overtake it. One instance has nothing to carry: each
   * change goes straight to its windows.
   */
  interface Outgoing {
    lastSent: number;
    waiting: AuctionChange | null;
    timer: NodeJS.Timeout | null;
  }
  const outgoing = new Map<string, Outgoing>();
  function sendOut(id: string, out: Outgoing, change: AuctionChange) {
    if (out.timer) clearTimeout(out.timer);
    out.timer = null;
    out.waiting = null;
    out.lastSent = Date.now();
    realtime.relay.publish(rooms.auction(id), change);
  }
  function relay(change: AuctionChange) {
    const id = change.state.id;
    if (!realtime.relay.crossesInstances) return realtime.relay.publish(rooms.auction(id), change);
    let out = outgoing.get(id);
    if (!out) {
      out = { lastSent: 0, waiting: null, timer: null };
      outgoing.set(id, out);
    }
    const merged = out.waiting ? mergeChanges(out.waiting, change) : change;
    if (merged.immediate || (!out.waiting && Date.now() - out.lastSent >= relayMs)) return sendOut(id, out, merged);
    out.waiting = merged;
    if (out.timer) return;
    const o = out;
    out.timer = setTimeout(() => o.waiting && sendOut(id, o, o.waiting), relayMs - (Date.now() - out.lastSent));
  }

  function publish(change: { state: EngineState; lines: EngineLine[] }, immediate: boolean) {
    const lines = change.lines.map((l) => present.line(change.state.id, l));
    relay({ state: change.state, lines, immediate });
    push(panelChannels, panelMs, sendPanel, change.state, [], immediate);
  }

  return {
    /** After a bid or a buy-now committed. */
    bid(change: { state: EngineState; lines: EngineLine[]; outbidUserId: string | null }) {
      const closed = change.state.status === 'ended';
      publish(change, closed);
      if (change.outbidUserId && change.state.currentPrice !== null) {
        const notice: OutbidEvent = {
          auctionId: change.state.id,
          auctionName: change.state.name,
          currentPrice: change.state.currentPrice,
          nextMinimum: nextMinimumBid(change.state),
          version: change.state.version,
        };
        realtime.toUserOften(change.outbidUserId, OUTBID_EVENT, notice);
      }
    },
    /** After the scheduler closed an auction. */
    closed(state: EngineState) {
      publish({ state, lines: [] }, true);
    },
    /** After anything else changed the auction's state (a Live Hub timer): sent at once. */
    changed(state: EngineState) {
      publish({ state, lines: [] }, true);
    },
    stop() {
      unsubscribe();
      clearInterval(sweep);
      for (const out of outgoing.values()) if (out.timer) clearTimeout(out.timer);
      outgoing.clear();
      for (const channels of [publicChannels, panelChannels]) {
        for (const c of channels.values()) if (c.timer) clearTimeout(c.timer);
        channels.clear();
      }
    },
  };
}
export type BidBroadcaster = ReturnType<typeof createBidBroadcaster>;

/** What travels between instances: the engine's state (presented when sent) and the presented lines. */
interface AuctionChange {
  state: EngineState;
  lines: BidView[];
  immediate: boolean;
}

/** Two changes of one auction as one: the newer state, the lines of both (the newest BID_EVENT_MAX, in seq order). */
export function mergeChanges(older: AuctionChange, newer: AuctionChange): AuctionChange {
  const lines = [...older.lines, ...newer.lines].sort((x, y) => x.seq - y.seq);
  return {
    state: newer.state.version >= older.state.version ? newer.state : older.state,
    lines: lines.length > BID_EVENT_MAX ? lines.slice(-BID_EVENT_MAX) : lines,
    immediate: older.immediate || newer.immediate,
  };
}
