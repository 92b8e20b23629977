import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuctionDetail } from '../../../../src/domain/auctions.js';
import type { BidAnswer, BidHistory, BuyNowAnswer } from '../../../../src/domain/bidding.js';
import type { AuctionStateEvent, OutbidEvent } from '../../../../src/domain/realtime.js';
import { auctions, bids, liveLots } from '../../../../src/server/db/schema.js';
import { messages } from '../../../../src/server/messages.js';
import { type Actor, buildActor, signInAs } from '../../../support/actors.js';
import { buildAuction, buildSession } from '../../../support/factories.js';
import { bidCaller, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, nextEvent, nextEventWhere } from '../../../support/sockets.js';

let server: TestServer;
let seller: Actor;
let companyAdmin: Actor;
let otherSeller: Actor;
let ana: Actor;
let beto: Actor;
let carla: Actor;
let incomplete: Actor;

/**
 * Bidders are new for every test: bids are rate-limited per user (30 per 10 s), and one file
 * bids more than that.
 */
beforeEach(async () => {
  const tag = randomUUID().slice(0, 8);
  [ana, beto, carla] = (await Promise.all(
    ['Ana López', 'Beto Ruiz', 'Carla Díaz'].map((name) =>
      buildActor(server, { email: `${name.split(' ')[0]?.toLowerCase()}-${tag}@ejemplo.mx`, name, roles: ['buyer'], completeProfile: true }),
    ),
  )) as [Actor, Actor, Actor];
});

beforeAll(async () => {
  server = await startTestServer();
  await signInAs(server, { email: 'plataforma@ejemplo.mx', roles: ['admin'] });
  seller = await signInAs(server, { email: 'vende@ejemplo.mx', roles: ['seller'], companyId: 'tianguis', completeProfile: true });
  companyAdmin = await signInAs(server, { email: 'jefa@ejemplo.mx', roles: ['admin'], companyId: 'tianguis', completeProfile: true });
  otherSeller = await signInAs(server, { email: 'norte@ejemplo.mx', roles: ['seller'], companyId: 'norte', completeProfile: true });
  incomplete = await signInAs(server, { email: 'nuevo@ejemplo.mx', roles: ['buyer'] });
});
afterAll(async () => server?.close());

const inOneHour = () => new Date(Date.now() + 3_600_000);

/** Every number in a JSON answer, however deep, written as a number or as a string of digits. */
function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (typeof value === 'string') return /^\d+(\.\d+)?$/.test(value) ? [Number(value)] : [];
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
}

function openAuction(over: Partial<typeof auctions.$inferInsert> = {}) {
  return buildAuction(server.ctx.db, { status: 'active', endTime: inOneHour(), startingPrice: 500, companyId: 'tianguis', sellerId: seller.id, ...over });
}

const bid = bidCaller(() => server);

function buyNow(actor: Actor, auctionId: string, headers: Record<string, string> = {}) {
  return server.app.inject({ method: 'POST', url: `/api/auctions/${auctionId}/buy-now`, headers: { cookie: actor.cookie, ...headers } });
}

async function history(actor: Actor | null, auctionId: string, query = ''): Promise<BidHistory> {
  const res = await server.app.inject({ method: 'GET', url: `/api/auctions/${auctionId}/bids${query}`, headers: actor ? { cookie: actor.cookie } : {} });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function row(auctionId: string) {
  const [found] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auctionId));
  if (!found) throw new Error('no auction');
  return found;
}

describe('who may bid', () => {
  it('asks a signed-out visitor to sign in, and a buyer without WhatsApp to complete the profile', async () => {
    const auction = await openAuction();
    expect((await bid(null, auction.id, { amount: 500 })).statusCode).toBe(401);
    const res = await bid(incomplete, auction.id, { amount: 500 });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'PROFILE_INCOMPLETE', message: messages.bidding.profileIncomplete });
    expect((await row(auction.id)).bidCount).toBe(0);
  });

  it("refuses the auction's seller and anyone of its company, and lets another company's seller bid", async () => {
    const auction = await openAuction();
    for (const actor of [seller, companyAdmin]) {
      const res = await bid(actor, auction.id, { amount: 500 });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'OWN_AUCTION', message: messages.bidding.ownAuction });
    }
    const adminAuction = await openAuction({ sellerId: null });
    expect((await bid(companyAdmin, adminAuction.id, { amount: 500 })).statusCode).toBe(403);
    expect((await bid(otherSeller, auction.id, { amount: 500 })).statusCode).toBe(201);
  });

  it('takes no bids on pending, ended or expired auctions, and says which', async () => {
    const pending = await openAuction({ status: 'pending' });
    const ended = await openAuction({ status: 'ended' });
    const expired = await openAuction({ endTime: new Date(Date.now() - 1000) });
    const noEnd = await openAuction({ endTime: null });
    let res = await bid(ana, pending.id, { amount: 500 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'AUCTION_CLOSED', message: messages.bidding.notStarted });
    for (const a of [ended, expired]) {
      res = await bid(ana, a.id, { amount: 500 });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'AUCTION_CLOSED', message: messages.bidding.ended });
    }
    // No end time yet (a Live Hub lot before its timer): it has not started, it did not end.
    res = await bid(ana, noEnd.id, { amount: 500 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'AUCTION_CLOSED', message: messages.bidding.notStarted });
    expect((await bid(ana, randomUUID(), { amount: 500 })).statusCode).toBe(404);
    expect((await bid(ana, 'no-es-un-id', { amount: 500 })).statusCode).toBe(404);
  });
});

describe('amounts', () => {
  it('refuses amounts that are not whole positive pesos within range, with a Spanish reason per field', async () => {
    const auction = await openAuction();
    const cases: [unknown, string, string][] = [
      [{ amount: 500.5 }, 'amount', messages.fields.bidInteger],
      [{ amount: -500 }, 'amount', messages.fields.bidPositive],
      [{ amount: 0 }, 'amount', messages.fields.bidPositive],
      [{ amount: 1e12 }, 'amount', messages.fields.bidTooHigh],
      [{ amount: '500' }, 'amount', messages.fields.bidRequired],
      [{}, 'amount', messages.fields.bidRequired],
      [{ amount: 600, maxAmount: 550 }, 'maxAmount', messages.fields.maxBelowAmount],
      [{ amount: 600, maxAmount: 1.5 }, 'maxAmount', messages.fields.bidInteger],
    ];
    for (const [payload, field, message] of cases) {
      const res = await bid(ana, auction.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.fields[field], JSON.stringify(payload)).toBe(message);
    }
    expect((await bid(ana, auction.id, { amount: 600, bidder: 'otro' })).statusCode).toBe(400);
    const broken = await server.app.inject({
      method: 'POST',
      url: `/api/auctions/${auction.id}/bids`,
      headers: { cookie: ana.cookie, 'content-type': 'application/json' },
      payload: '{"amount":',
    });
    expect(broken.statusCode).toBe(400);
    expect((await row(auction.id)).bidCount).toBe(0);
  });

  it('takes the starting price first, then the price plus the increment, and answers a low bid with the current state', async () => {
    const auction = await openAuction();
    let res = await bid(ana, auction.id, { amount: 499 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'BID_TOO_LOW', state: { currentPrice: null, nextMinimum: 500 } });
    expect(res.json().error.message).toContain('$500');

    res = await bid(ana, auction.id, { amount: 500 });
    expect(res.statusCode).toBe(201);
    const first: BidAnswer = res.json();
    expect(first).toMatchObject({ outcome: 'leading', replayed: false, state: { currentPrice: 500, nextMinimum: 520, bidCount: 1, minIncrement: 20 } });
    expect(first.state.leaderTag).toBe(first.me.tag);
    expect(first.bids).toEqual([expect.objectContaining({ seq: 1, amount: 500, bidderName: 'An***', isAutomatic: false })]);

    res = await bid(beto, auction.id, { amount: 519 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.state).toMatchObject({ currentPrice: 500, nextMinimum: 520 });
    res = await bid(beto, auction.id, { amount: 520 });
    expect(res.statusCode).toBe(201);
    expect(res.json().state).toMatchObject({ currentPrice: 520, bidCount: 2 });
  });

  it("uses the live session's biddingConfig for a lot", async () => {
    const auction = await openAuction();
    const session = await buildSession(server.ctx.db, {
      sellerId: seller.id,
      companyId: 'tianguis',
      status: 'live',
      biddingConfig: { minIncrement: 50, antiSnipeSeconds: 30, timerSecondsDefault: 60 },
    });
    await server.ctx.db.insert(liveLots).values({ sessionId: session.id, auctionId: auction.id, order: 1 });
    await bid(ana, auction.id, { amount: 500 });
    expect((await bid(beto, auction.id, { amount: 540 })).statusCode).toBe(409);
    const res = await bid(beto, auction.id, { amount: 550 });
    expect(res.statusCode).toBe(201);
    expect(res.json().state).toMatchObject({ minIncrement: 50, antiSnipeSeconds: 30, nextMinimum: 600 });
  });
});

describe('maximum bids', () => {
  it('bids for the holder up to the maximum, and keeps the maximum private', async () => {
    const auction = await openAuction();
    const first: BidAnswer = (await bid(ana, auction.id, { amount: 500, maxAmount: 1000 })).json();
    expect(first.me.myMaxAmount).toBe(1000);

    const beaten: BidAnswer = (await bid(beto, auction.id, { amount: 600 })).json();
    expect(beaten.outcome).toBe('outbid');
    expect(beaten.state).toMatchObject({ currentPrice: 620, leaderTag: first.me.tag });
    expect(beaten.me.myMaxAmount).toBeNull();

    // Beto's maximum above Ana's: he leads at her maximum plus one increment.
    const leads: BidAnswer = (await bid(beto, auction.id, { amount: 640, maxAmount: 1500 })).json();
    expect(leads.outcome).toBe('leading');
    expect(leads.state.currentPrice).toBe(1020);

    const asAna = await history(ana, auction.id);
    expect(asAna.me).toEqual({ tag: first.me.tag, myMaxAmount: null });
    expect(asAna.items.map((b) => [b.amount, b.isAutomatic])).toEqual([
      [1020, false],
      [1000, true],
      [620, true],
      [600, false],
      [500, false],
    ]);
    const asBeto = await history(beto, auction.id);
    expect(asBeto.me?.myMaxAmount).toBe(1500);
    const signedOut = await history(null, auction.id);
    expect(signedOut.me).toBeNull();
    // No value anywhere is the maximum (a text search would also match an id or a time that happens to hold 1500).
    expect(numbersIn(signedOut)).not.toContain(1500);
    expect(JSON.stringify(signedOut)).not.toMatch(/maxAmount|bidderId|leaderMax/);
  });

  it('lets the leader raise their maximum without raising the price', async () => {
    const auction = await openAuction();
    await bid(ana, auction.id, { amount: 500 });
    const raised: BidAnswer = (await bid(ana, auction.id, { amount: 520, maxAmount: 900 })).json();
    expect(raised).toMatchObject({ outcome: 'maxRaised', bids: [], state: { currentPrice: 500, bidCount: 1 }, me: { myMaxAmount: 900 } });
    const answered: BidAnswer = (await bid(beto, auction.id, { amount: 800 })).json();
    expect(answered.outcome).toBe('outbid');
    expect(answered.state.currentPrice).toBe(820);
  });

  it('keeps the earlier bidder ahead on equal maximums', async () => {
    const auction = await openAuction();
    const ana1: BidAnswer = (await bid(ana, auction.id, { amount: 500, maxAmount: 800 })).json();
    const tie: BidAnswer = (await bid(beto, auction.id, { amount: 520, maxAmount: 800 })).json();
    expect(tie.outcome).toBe('outbid');
    expect(tie.state).toMatchObject({ currentPrice: 800, leaderTag: ana1.me.tag });
  });
});

describe('Idempotency-Key', () => {
  it('makes two clicks one bid, and refuses a key reused on another auction or malformed', async () => {
    const auction = await openAuction();
    const key = randomUUID();
    const first = await bid(ana, auction.id, { amount: 500 }, { 'idempotency-key': key });
    const again = await bid(ana, auction.id, { amount: 500 }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ replayed: true, outcome: 'leading', bids: [{ seq: 1, amount: 500 }] });
    expect(await server.ctx.db.select().from(bids).where(eq(bids.auctionId, auction.id))).toHaveLength(1);

    const other = await openAuction();
    const reused = await bid(ana, other.id, { amount: 500 }, { 'idempotency-key': key });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.message).toBe(messages.bidding.idempotencyReused);
    const malformed = await bid(ana, other.id, { amount: 500 }, { 'idempotency-key': 'x'.repeat(101) });
    expect(malformed.statusCode).toBe(400);
    // Another bidder may use the same key: keys belong to one bidder.
    expect((await bid(beto, other.id, { amount: 500 }, { 'idempotency-key': key })).statusCode).toBe(201);
  });

  it('replays the first answer for every outcome, a raised maximum included, even after the lead changed', async () => {
    const auction = await openAuction();
    const sent: { actor: Actor; payload: { amount: number; maxAmount?: number }; key: string; outcome: string }[] = [
      { actor: ana, payload: { amount: 500, maxAmount: 1_000 }, key: randomUUID(), outcome: 'leading' },
      { actor: beto, payload: { amount: 600 }, key: randomUUID(), outcome: 'outbid' },
      { actor: ana, payload: { amount: 700, maxAmount: 2_000 }, key: randomUUID(), outcome: 'maxRaised' },
    ];
    const firsts: BidAnswer[] = [];
    for (const s of sent) {
      const res = await bid(s.actor, auction.id, s.payload, { 'idempotency-key': s.key });
      expect(res.statusCode).toBe(201);
      firsts.push(res.json());
      expect(firsts.at(-1)?.outcome).toBe(s.outcome);
    }
    // Carla takes the lead: Ana's first bid is no longer leading, but its key still answers as it did.
    expect((await bid(carla, auction.id, { amount: 2_100 })).json().outcome).toBe('leading');
    const before = await row(auction.id);

    for (const [i, s] of sent.entries()) {
      const again = await bid(s.actor, auction.id, s.payload, { 'idempotency-key': s.key });
      expect(again.statusCode, s.outcome).toBe(200);
      expect(again.json(), s.outcome).toMatchObject({ replayed: true, outcome: s.outcome, bids: firsts[i]?.bids });
    }
    // Nothing was decided again.
    expect(await row(auction.id)).toMatchObject({ version: before.version, bidCount: before.bidCount, leaderMax: before.leaderMax });
  });
});

describe('anti-sniping', () => {
  it('moves the end to now plus the window when a bid takes the lead inside it, and never for a refused or answered bid', async () => {
    const endTime = new Date(Date.now() + 5_000);
    const auction = await openAuction({ endTime });
    const tooLow = await bid(ana, auction.id, { amount: 100 });
    expect(tooLow.statusCode).toBe(409);
    expect((await row(auction.id)).endTime?.getTime()).toBe(endTime.getTime());

    const before = Date.now();
    const lead: BidAnswer = (await bid(ana, auction.id, { amount: 500, maxAmount: 2000 })).json();
    expect(lead.state.endTime).toBeGreaterThanOrEqual(before + 10_000);
    expect(lead.state.endTime).toBeLessThanOrEqual(Date.now() + 10_000);
    const extended = lead.state.endTime;

    // Ana's maximum answers Beto: the leader did not change, so the end stays.
    const answered: BidAnswer = (await bid(beto, auction.id, { amount: 600 })).json();
    expect(answered.outcome).toBe('outbid');
    expect(answered.state.endTime).toBe(extended);
  });

  it('leaves the end alone outside the window', async () => {
    const endTime = new Date(Date.now() + 60_000);
    const auction = await openAuction({ endTime });
    const res: BidAnswer = (await bid(ana, auction.id, { amount: 500 })).json();
    expect(res.state.endTime).toBe(endTime.getTime());
  });
});

describe('buy now', () => {
  it('ends the auction at the buy-now price with the buyer as winner, and tells the previous leader', async () => {
    const auction = await openAuction({ buyNowPrice: 3000 });
    await bid(beto, auction.id, { amount: 500 });
    const betoSocket = connectSocket(server.url, { cookie: beto.cookie });
    await connected(betoSocket);
    const outbid = nextEvent<OutbidEvent>(betoSocket, 'outbid');

    const res = await buyNow(ana, auction.id, { 'idempotency-key': randomUUID() });
    expect(res.statusCode).toBe(200);
    const answer: BuyNowAnswer = res.json();
    expect(answer.state).toMatchObject({ status: 'ended', currentPrice: 3000, winnerName: 'An***', winnerTag: answer.me.tag });
    expect(await outbid).toMatchObject({ auctionId: auction.id, currentPrice: 3000 });
    betoSocket.close();

    const stored = await row(auction.id);
    expect(stored).toMatchObject({
      status: 'ended',
      currentPrice: 3000,
      currentWinnerId: ana.id,
      currentWinnerName: 'Ana López',
      winnerEmail: ana.email,
      winnerWhatsapp: '+523312345678',
    });
    expect(stored.closedAt).not.toBeNull();

    expect((await buyNow(carla, auction.id)).json().error.code).toBe('AUCTION_CLOSED');
    expect((await bid(carla, auction.id, { amount: 3100 })).json().error.code).toBe('AUCTION_CLOSED');
  });

  it('is offered only while the price is below it, and not without a buy-now price', async () => {
    const auction = await openAuction({ buyNowPrice: 600 });
    await bid(ana, auction.id, { amount: 600 });
    const late = await buyNow(beto, auction.id);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatchObject({ code: 'BUY_NOW_UNAVAILABLE', message: messages.bidding.buyNowUnavailable });
    const none = await openAuction();
    expect((await buyNow(beto, none.id)).json().error.code).toBe('BUY_NOW_UNAVAILABLE');
    expect((await buyNow(seller, (await openAuction({ buyNowPrice: 900 })).id)).json().error.code).toBe('OWN_AUCTION');
  });
});

describe('public views', () => {
  it('masks the winner in public and names them in full in the auction panel', async () => {
    const auction = await openAuction({ buyNowPrice: 900 });
    await buyNow(carla, auction.id);
    const pub = await server.app.inject({ method: 'GET', url: `/api/auctions/${auction.id}` });
    expect(pub.json().currentWinnerName).toBe('Ca***');
    const panel = await server.app.inject({ method: 'GET', url: `/api/auctions/${auction.id}`, headers: { cookie: seller.cookie } });
    expect((panel.json() as AuctionDetail).currentWinnerName).toBe('Carla Díaz');
  });

  it('pages the history newest first', async () => {
    const auction = await openAuction();
    for (let i = 0; i < 5; i++) await bid(i % 2 ? beto : ana, auction.id, { amount: 500 + i * 20 });
    const page1 = await history(null, auction.id, '?limit=2');
    expect(page1.items.map((b) => b.seq)).toEqual([5, 4]);
    expect(page1).toMatchObject({ total: 5, nextBefore: 4 });
    const page3 = await history(null, auction.id, '?limit=2&before=2');
    expect(page3.items.map((b) => b.seq)).toEqual([1]);
    expect(page3.nextBefore).toBeNull();
    const bad = await server.app.inject({ method: 'GET', url: `/api/auctions/${auction.id}/bids?limit=1000` });
    expect(bad.statusCode).toBe(400);
  });
});

describe('bids over the wire: rooms, notices, pace and groups', () => {
  it("sends the auction's room the new state and lines, the outbid bidder a notice, and the panel an update", async () => {
    const auction = await openAuction();
    const viewer = connectSocket(server.url);
    const anaSocket = connectSocket(server.url, { cookie: ana.cookie });
    const panel = connectSocket(server.url, { cookie: seller.cookie });
    await Promise.all([connected(viewer), connected(anaSocket), connected(panel)]);
    await viewer.emitWithAck('joinAuction', { auctionId: auction.id });

    const firstState = nextEvent<AuctionStateEvent>(viewer, 'auctionState');
    // The panel hears about every auction of the company; earlier tests' auctions may still change (the scheduler closes them).
    const panelUpdate = nextEventWhere<{ id: string; version: number }>(panel, 'auctionUpdate', (update) => update.id === auction.id);
    await bid(ana, auction.id, { amount: 500 });
    const event = await firstState;
    expect(event.state).toMatchObject({ id: auction.id, currentPrice: 500, version: 2 });
    expect(event.bids).toEqual([expect.objectContaining({ seq: 1, amount: 500, bidderName: 'An***' })]);
    expect(await panelUpdate).toMatchObject({ id: auction.id, version: 2 });

    const outbid = nextEvent<OutbidEvent>(anaSocket, 'outbid');
    // Listened for before the bid: the room's state and the outbid notice go out separately, in
    // either order. It may be merged with later states; the first one past Ana's bid is Beto's.
    const secondState = new Promise<AuctionStateEvent>((resolve) => {
      const onState = (e: AuctionStateEvent) => {
        if (e.state.version < 3) return;
        viewer.off('auctionState', onState);
        resolve(e);
      };
      viewer.on('auctionState', onState);
    });
    await bid(beto, auction.id, { amount: 520 });
    expect(await outbid).toMatchObject({ auctionId: auction.id, currentPrice: 520, nextMinimum: 540 });
    const second = await secondState;
    expect(second.state.version).toBeGreaterThanOrEqual(3);
    expect(second.bids.at(-1)).toMatchObject({ seq: 2, amount: 520 });
    for (const s of [viewer, anaSocket, panel]) s.close();
  });
});

describe('rate limit', () => {
  it('stops a bidder who bids faster than a person can, with a Spanish message', async () => {
    const auction = await openAuction();
    const fast = await buildActor(server, { email: 'rapido@ejemplo.mx', name: 'Rápido', roles: ['buyer'], completeProfile: true });
    const answers = [];
    for (let i = 0; i < 31; i++) answers.push(await bid(fast, auction.id, { amount: 100 }));
    expect(answers.slice(0, 30).every((r) => r.statusCode === 409)).toBe(true);
    const limited = answers[30];
    expect(limited?.statusCode).toBe(429);
    expect(limited?.json().error).toEqual({ code: 'RATE_LIMITED', message: messages.bidding.rateLimited });
  });
});

describe('group commit', () => {
  it('decides bids that arrive together in order, and a bid that breaks its group fails alone', async () => {
    const auction = await openAuction();
    const { batcher } = server.ctx.bidding;
    const request = (bidder: Actor, amount: number) => ({ auctionId: auction.id, bidderId: bidder.id, amount, maxAmount: null, key: null });
    // The first goes alone; the next three wait for it and go together as one group.
    const answers = await Promise.allSettled([
      batcher.place(request(ana, 500)),
      batcher.place(request(beto, 520)),
      batcher.place({ ...request(carla, 540), bidderId: 'not-a-uuid' }),
      batcher.place(request(carla, 540)),
    ]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(answers.map((a) => (a.status === 'fulfilled' ? (a.value as { outcome: string }).outcome : null))).toEqual(['leading', 'leading', null, 'leading']);
    const stored = await server.ctx.db.select({ seq: bids.seq, amount: bids.amount }).from(bids).where(eq(bids.auctionId, auction.id)).orderBy(bids.seq);
    expect(stored).toEqual([
      { seq: 1, amount: 500 },
      { seq: 2, amount: 520 },
      { seq: 3, amount: 540 },
    ]);
  });
});
