import { Redis } from 'ioredis';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OUTBID_EVENT, type OutbidEvent, USER_NOTICES_EVENT } from '../../../../src/domain/realtime.js';
import { USER_NOTICE_WINDOW_MS } from '../../../../src/server/realtime/user-notices.js';
import { buildBidder } from '../../../support/actors.js';
import { type Instance, startInstances } from '../../../support/server.js';
import { collect, connected, connectSocket, eventMatching } from '../../../support/sockets.js';

/**
 * Outbid notices with two instances on one database: a bidder's sockets on the committing instance
 * hear hers at once, and the other instances get the committing instance's notices gathered, a
 * Redis message per window instead of one per bid (on a hot lot, one per bid was the committing
 * instance's largest Redis cost). Included by vitest.config.ts only when TEST_REDIS_URL is set.
 */
const redisUrl = process.env.TEST_REDIS_URL as string;

let started: Awaited<ReturnType<typeof startInstances>> | null = null;
let instances: Instance[] = [];
const open: Socket[] = [];
let monitorClient: Redis | null = null;

beforeAll(async () => {
  started = await startInstances(2, { redisUrl, secret: 'notices-redis-' });
  instances = started.instances;
}, 60_000);
afterEach(async () => {
  for (const s of open.splice(0)) s.disconnect();
  monitorClient?.disconnect();
  monitorClient = null;
});
afterAll(async () => {
  await started?.close();
});

const a = () => instances[0] as Instance;
const b = () => instances[1] as Instance;

async function socketOf(instance: Instance, cookie: string) {
  const socket = connectSocket(instance.url, { cookie });
  open.push(socket);
  await connected(socket);
  return socket;
}

const notice = (version: number): OutbidEvent => ({
  auctionId: 'subasta-1',
  auctionName: 'Reloj Omega',
  currentPrice: 100 + version,
  nextMinimum: 110 + version,
  version,
});

/** Every PUBLISH and SPUBLISH that Redis receives whose payload names `text`, from now on. */
async function publishesNaming(text: string) {
  const seen: string[][] = [];
  monitorClient = new Redis(redisUrl);
  const monitor = await monitorClient.monitor();
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (/^s?publish$/i.test(String(args[0])) && args.some((arg) => String(arg).includes(text))) seen.push(args);
  });
  return { seen, stop: () => monitor.disconnect() };
}

describe('outbid notices across two instances', () => {
  it("reach a bidder's sockets on both instances, every one in order", async () => {
    const bidder = await buildBidder(a());
    const [onA, onB] = await Promise.all([socketOf(a(), bidder.cookie), socketOf(b(), bidder.cookie)]);
    const lastOnA = eventMatching<OutbidEvent>(onA, OUTBID_EVENT, (e) => e.version === 5);
    const lastOnB = eventMatching<OutbidEvent>(onB, OUTBID_EVENT, (e) => e.version === 5);
    const heardA: number[] = [];
    const heardB: number[] = [];
    onA.on(OUTBID_EVENT, (e: OutbidEvent) => heardA.push(e.version));
    onB.on(OUTBID_EVENT, (e: OutbidEvent) => heardB.push(e.version));
    for (const v of [1, 2, 3, 4, 5]) a().ctx.realtime.toUserOften(bidder.id, OUTBID_EVENT, notice(v));
    expect(await lastOnA).toEqual(notice(5));
    expect(await lastOnB).toEqual(notice(5));
    expect(heardA).toEqual([1, 2, 3, 4, 5]);
    expect(heardB).toEqual([1, 2, 3, 4, 5]);
  });

  it("send a hot lot's hundred notices to the other instance in a few Redis messages, not one per notice", async () => {
    const bidders = await Promise.all([buildBidder(a()), buildBidder(a())]);
    const sockets = await Promise.all(bidders.map((bidder) => socketOf(b(), bidder.cookie)));
    const heard = sockets.map(() => [] as number[]);
    sockets.forEach((socket, i) => {
      socket.on(OUTBID_EVENT, (e: OutbidEvent) => heard[i]?.push(e.version));
    });
    const redis = await publishesNaming(bidders[0]?.id as string);
    try {
      const done = Promise.all([
        eventMatching<OutbidEvent>(sockets[0] as Socket, OUTBID_EVENT, (e) => e.version === 100),
        eventMatching<OutbidEvent>(sockets[1] as Socket, OUTBID_EVENT, (e) => e.version === 99),
      ]);
      // Two bidders outbidding each other, a hundred bids in a few windows.
      for (let v = 1; v <= 100; v++) {
        a().ctx.realtime.toUserOften((bidders[v % 2] as { id: string }).id, OUTBID_EVENT, notice(v));
        if (v % 25 === 0) await new Promise((resolve) => setTimeout(resolve, USER_NOTICE_WINDOW_MS / 2));
      }
      await done;
      expect(heard[0]).toEqual(Array.from({ length: 50 }, (_, i) => 2 * i + 2));
      expect(heard[1]).toEqual(Array.from({ length: 50 }, (_, i) => 2 * i + 1));
      // The first notice at once, then one message per window: the pauses span a few windows.
      expect(redis.seen.length).toBeGreaterThanOrEqual(1);
      expect(redis.seen.length).toBeLessThanOrEqual(6);
    } finally {
      redis.stop();
    }
  });

  it('deliver nothing from a peer message that names an event other than a notice, or no user', async () => {
    const bidder = await buildBidder(a());
    const onB = await socketOf(b(), bidder.cookie);
    const payments = collect(onB, 'paymentStatusUpdate', 500);
    const marker = eventMatching<OutbidEvent>(onB, OUTBID_EVENT, (e) => e.version === 9);
    a().ctx.realtime.io.serverSideEmit(USER_NOTICES_EVENT, {
      notices: [
        { userId: bidder.id, event: 'paymentStatusUpdate', payload: { id: 'p1' } },
        { userId: 42, event: OUTBID_EVENT, payload: notice(8) },
        { userId: bidder.id, event: OUTBID_EVENT, payload: notice(9) },
      ],
    });
    a().ctx.realtime.io.serverSideEmit(USER_NOTICES_EVENT, { notices: 'todas' });
    expect(await marker).toEqual(notice(9));
    expect(await payments).toEqual([]);
  });
});
