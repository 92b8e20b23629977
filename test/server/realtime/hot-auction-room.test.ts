import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AUCTION_STATE_EVENT,
  type AuctionStateEvent,
  LOT_FINISHED_EVENT,
  type LotFinishedEvent,
  OUTBID_EVENT,
  type OutbidEvent,
  type SessionStatusEvent,
} from '../../../src/domain/realtime.js';
import { createBidBroadcaster } from '../../../src/server/realtime/bid-broadcaster.js';
import { createPublisher, type DomainEvent } from '../../../src/server/realtime/publisher.js';
import { type Actor, buildActor } from '../../support/actors.js';
import { engineLine, engineState } from '../../support/engine-states.js';
import { buildAuction, buildLot, buildSession } from '../../support/factories.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../support/sockets.js';

/**
 * A hot auction's room over real Socket.IO clients, with the room waiting out a long window (as a
 * room of ten thousand sockets does after each send): the first state goes at once, the ones
 * after it wait and only the newest goes, with every line since; the outbid bidder hears it at
 * once meanwhile; a close goes at once, after nothing older, and the lot's `lotFinished` after it.
 */

const COMPANY = 'remates-sala-llena';
/** What the room's order is about (the viewer count and the markers come and go on their own). */
const WATCHED = [AUCTION_STATE_EVENT, OUTBID_EVENT, LOT_FINISHED_EVENT];

describe("a hot auction's room while it waits out its window", () => {
  let server: TestServer;
  let seller: Actor;
  let viewer: Actor;
  const open: Socket[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    seller = await buildActor(server, { email: 'vende@llena.mx', name: 'Sara Vendedora', roles: ['seller'], companyId: COMPANY });
    viewer = await buildActor(server, { email: 'mira@llena.mx', name: 'Beto Pujador', roles: ['buyer'], completeProfile: true });
  }, 60_000);
  afterEach(() => {
    for (const s of open.splice(0)) s.disconnect();
  });
  afterAll(async () => server?.close());

  /** The app's realtime with a publisher whose broadcaster's window is a minute: nothing in it ends by itself. */
  function longWindow() {
    const broadcaster = createBidBroadcaster(server.ctx.realtime, server.ctx.bidding.present, { publicMs: 60_000 });
    const publisher = createPublisher({ realtime: server.ctx.realtime, sessions: server.ctx.sessions, broadcaster, log: server.app.log });
    return { publish: (...events: DomainEvent[]) => publisher.publish(events), stop: () => broadcaster.stop() };
  }

  /** What `socket` heard of WATCHED until a marker sent to `userId`'s own room arrives (one instance keeps the order). */
  async function heardUntilMarker(socket: Socket, userId: string, heard: [string, unknown][]): Promise<[string, unknown][]> {
    const marker: SessionStatusEvent = { sessionId: `marker-${userId}`, status: 'scheduled', version: 0 };
    const arrived = eventMatching<SessionStatusEvent>(socket, 'sessionStatusUpdate', (e) => e.sessionId === marker.sessionId);
    server.ctx.realtime.toUser(userId, 'sessionStatusUpdate', marker);
    await arrived;
    return heard.filter(([event]) => WATCHED.includes(event));
  }

  async function following(auctionId: string, sessionId: string) {
    const socket = connectSocket(server.url, { cookie: viewer.cookie });
    open.push(socket);
    const heard: [string, unknown][] = [];
    socket.onAny((event: string, payload: unknown) => heard.push([event, payload]));
    await connected(socket);
    await new Promise((resolve) => socket.emit('joinAuction', { auctionId }, resolve));
    await new Promise((resolve) => socket.emit('joinSession', { sessionId }, resolve));
    return { socket, heard };
  }

  it('hears the newest state of the window once, the outbid notice at once, then the close and the sold lot in that order', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const auction = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, startingPrice: 1000 });
    const lot = await buildLot(server.ctx.db, { sessionId: session.id, auctionId: auction.id });
    const { socket, heard } = await following(auction.id, session.id);
    const room = longWindow();
    try {
      const bid = (version: number, outbidUserId: string | null = null): DomainEvent => ({
        type: 'bidPlaced',
        state: engineState(auction.id, version, { leaderId: version === 2 ? viewer.id : seller.id }),
        lines: [engineLine(version - 1, version === 2 ? viewer.id : seller.id)],
        outbidUserId,
      });

      await room.publish(bid(2));
      const first = await eventMatching<AuctionStateEvent>(socket, AUCTION_STATE_EVENT);
      expect(first.state.version).toBe(2);

      // The viewer is outbid: told at once, while the room's newer states wait for the window.
      await room.publish(bid(3, viewer.id), bid(4));
      const outbid = await eventMatching<OutbidEvent>(socket, OUTBID_EVENT);
      expect(outbid).toMatchObject({ auctionId: auction.id, version: 3 });
      expect((await heardUntilMarker(socket, viewer.id, heard)).map(([event]) => event)).toEqual([AUCTION_STATE_EVENT, OUTBID_EVENT]);

      // The close does not wait, carries the lines that waited, and the lot is sold after it.
      const closed = engineState(auction.id, 5, { status: 'ended', leaderId: seller.id, winnerId: seller.id, winnerName: 'Sara Vendedora' });
      const finished: LotFinishedEvent = { sessionId: session.id, lotId: lot.id, state: server.ctx.bidding.present.state(closed), version: 2, offered: true };
      const sold = eventMatching<LotFinishedEvent>(socket, LOT_FINISHED_EVENT);
      await room.publish({ type: 'auctionClosed', state: closed }, { type: 'lotFinished', finished });
      await sold;
      const events = await heardUntilMarker(socket, viewer.id, heard);
      expect(events.map(([event]) => event)).toEqual([AUCTION_STATE_EVENT, OUTBID_EVENT, AUCTION_STATE_EVENT, LOT_FINISHED_EVENT]);
      const close = events[2]?.[1] as AuctionStateEvent;
      expect(close.state).toMatchObject({ version: 5, status: 'ended' });
      expect(close.bids.map((b) => b.seq)).toEqual([2, 3]);
    } finally {
      room.stop();
    }
  });

  it('a quiet room hears a bid at once, without waiting for any window', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY });
    const auction = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, startingPrice: 1000 });
    const { socket } = await following(auction.id, session.id);
    const room = longWindow();
    try {
      const state = eventMatching<AuctionStateEvent>(socket, AUCTION_STATE_EVENT);
      await room.publish({ type: 'bidPlaced', state: engineState(auction.id, 2), lines: [engineLine(1)], outbidUserId: null });
      expect((await state).state.version).toBe(2);
    } finally {
      room.stop();
    }
  });
});
