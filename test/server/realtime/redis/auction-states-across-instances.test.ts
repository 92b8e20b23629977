import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUCTION_STATE_EVENT, type AuctionStateEvent } from '../../../../src/domain/realtime.js';
import { createBidBroadcaster } from '../../../../src/server/realtime/bid-broadcaster.js';
import { engineLine, engineState } from '../../../support/engine-states.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../../support/sockets.js';

/**
 * A hot auction's states with two instances: each change goes to the instances holding the
 * auction's viewers, and each coalesces for its own sockets, so a viewer hears no more states than
 * with one instance, whichever instance committed each bid; the room's channels are subscribed
 * only where its viewers are. Included by vitest.config.ts only when TEST_REDIS_URL is set.
 */
const redisUrl = process.env.TEST_REDIS_URL as string;
let a: TestServer;
let b: TestServer;
let redis: Redis;
const open: Socket[] = [];
const stops: (() => void)[] = [];

beforeAll(async () => {
  [a, b] = await Promise.all([
    startTestServer({ env: { REDIS_URL: redisUrl, VIDEO_PROVIDER: 'agora' } }),
    startTestServer({ env: { REDIS_URL: redisUrl, VIDEO_PROVIDER: 'agora' } }),
  ]);
  redis = new Redis(redisUrl);
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
  for (const stop of stops.splice(0)) stop();
});
afterAll(async () => {
  redis?.disconnect();
  await Promise.all([a?.close(), b?.close()]);
});

/** The instance's realtime with a broadcaster whose window is a minute: nothing waiting in it goes out by itself. */
function longWindow(server: TestServer) {
  const broadcaster = createBidBroadcaster(server.ctx.realtime, server.ctx.bidding.present, { publicMs: 60_000 });
  stops.push(() => broadcaster.stop());
  return broadcaster;
}

async function viewer(server: TestServer, auctionId: string) {
  const socket = connectSocket(server.url);
  open.push(socket);
  const states: AuctionStateEvent[] = [];
  socket.on(AUCTION_STATE_EVENT, (e: AuctionStateEvent) => states.push(e));
  await connected(socket);
  expect(await socket.emitWithAck('joinAuction', { auctionId })).toMatchObject({ ok: true });
  return { socket, states };
}

/** How many instances are subscribed to a sharded channel. */
async function subscribers(channel: string): Promise<number> {
  const answer = (await redis.call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number];
  return Number(answer[1]);
}

const bid = (auctionId: string, version: number, over: Parameters<typeof engineState>[2] = {}) => ({
  state: engineState(auctionId, version, over),
  lines: [engineLine(version - 1)],
  outbidUserId: null,
});
const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a hot auction's states across two instances", () => {
  it('a viewer on either instance hears the first state at once and then one state for bids committed on both in one window, with every line in order', async () => {
    const auctionId = randomUUID();
    const [onA, onB] = [longWindow(a), longWindow(b)];
    const [viewerA, viewerB] = await Promise.all([viewer(a, auctionId), viewer(b, auctionId)]);
    await settle();

    const first = Promise.all([viewerA, viewerB].map((v) => eventMatching<AuctionStateEvent>(v.socket, AUCTION_STATE_EVENT, (e) => e.state.version === 1)));
    onA.bid(bid(auctionId, 1));
    await first;
    // Each instance's first bid would have gone out at once if each coalesced only its own commits.
    onB.bid(bid(auctionId, 2));
    onA.bid(bid(auctionId, 3));
    onB.bid(bid(auctionId, 4));
    await settle();
    expect(viewerA.states.map((e) => e.state.version)).toEqual([1]);
    expect(viewerB.states.map((e) => e.state.version)).toEqual([1]);

    const closed = Promise.all([viewerA, viewerB].map((v) => eventMatching<AuctionStateEvent>(v.socket, AUCTION_STATE_EVENT, (e) => e.state.version === 5)));
    onA.bid(bid(auctionId, 5, { status: 'ended' }));
    await closed;
    await settle();
    for (const v of [viewerA, viewerB]) {
      expect(v.states.map((e) => e.state.version)).toEqual([1, 5]);
      expect(v.states.map((e) => e.bids.map((line) => line.seq))).toEqual([[0], [1, 2, 3, 4]]);
      expect(v.states[1]?.state.status).toBe('ended');
    }
  });

  it('a line that arrives from the other instance after a newer state went out still reaches the viewers, with the newest state', async () => {
    const auctionId = randomUUID();
    const [onA, onB] = [longWindow(a), longWindow(b)];
    const watching = await viewer(a, auctionId);
    await settle();
    const newest = eventMatching<AuctionStateEvent>(watching.socket, AUCTION_STATE_EVENT, (e) => e.state.version === 3);
    onA.bid({ ...bid(auctionId, 3), lines: [engineLine(2)] });
    await newest;
    // Version 2's answer was published after version 3's went out: its line waits for the next state, never an older one.
    const late = eventMatching<AuctionStateEvent>(watching.socket, AUCTION_STATE_EVENT, (e) => e.bids.some((line) => line.seq === 1));
    onB.bid({ ...bid(auctionId, 2), lines: [engineLine(1)], state: engineState(auctionId, 2) });
    onB.closed(engineState(auctionId, 4, { status: 'ended' }));
    await late;
    await settle();
    expect(watching.states.map((e) => e.state.version)).toEqual([3, 4]);
    expect(watching.states[1]?.bids.map((line) => line.seq)).toEqual([1]);
  });

  it('reaches a viewer on the other instance from an instance that holds none of the auction’s viewers', async () => {
    const auctionId = randomUUID();
    const onA = longWindow(a);
    longWindow(b);
    const watching = await viewer(b, auctionId);
    await settle();
    const heard = eventMatching<AuctionStateEvent>(watching.socket, AUCTION_STATE_EVENT, (e) => e.state.version === 1);
    onA.bid(bid(auctionId, 1));
    expect((await heard).bids.map((line) => line.seq)).toEqual([0]);
  });

  it('subscribes to an auction’s channels only on the instances holding its viewers, and leaves them with the last one', async () => {
    const auctionId = randomUUID();
    const relayChannel = `martillo#relay#auction:${auctionId}`;
    const roomChannel = `socket.io#/#auction:${auctionId}#`;
    const counts = async () => [await subscribers(relayChannel), await subscribers(roomChannel)];
    expect(await counts()).toEqual([0, 0]);

    const onB = await viewer(b, auctionId);
    await expect.poll(counts).toEqual([1, 1]);
    const onA = await viewer(a, auctionId);
    await expect.poll(counts).toEqual([2, 2]);

    onB.socket.disconnect();
    await expect.poll(counts).toEqual([1, 1]);
    expect(await onA.socket.emitWithAck('leaveAuction', { auctionId })).toMatchObject({ ok: true });
    await expect.poll(counts).toEqual([0, 0]);
  });
});
