import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimerMode } from '../../../../src/domain/bid-rules.js';
import type { BidAnswer } from '../../../../src/domain/bidding.js';
import { DEFAULT_BIDDING_CONFIG } from '../../../../src/domain/live.js';
import { auctions, liveLots } from '../../../../src/server/db/schema.js';
import { type Actor, type Bidder, buildBidder, signInAs } from '../../../support/actors.js';
import { buildAuction, buildSession } from '../../../support/factories.js';
import { placeBid, startTestServer, type TestServer } from '../../../support/server.js';
import { eventually } from '../../../support/wait.js';

/**
 * How a lot's clock answers a bid, by the timer format of its session or its own: 'Contrapuja'
 * sets the clock to R seconds when a leading bid comes with fewer than W left (never shortening
 * it), 'Muerte súbita' never moves it and the lot sells at 00:00 to the leader, 'Extender' moves the
 * end to now plus W as it always did. Only a bid that takes the lead moves the clock; a bid after
 * the end is refused, on the server's clock. End times are set on the row to put a bid where the
 * format matters, half a second away from any window; a moved end is checked against the instants
 * the request was sent and answered (the same clock), never with a tolerance.
 */

let server: TestServer;
let seller: Actor;
const COMPANY = 'remates-reloj';

beforeAll(async () => {
  server = await startTestServer({ jobs: ['closing'] });
  seller = await signInAs(server, { email: 'vendedor-reloj@ejemplo.mx', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => server?.close());

interface Format {
  timerMode: TimerMode;
  antiSnipeSeconds?: number;
  counterBidWindowSeconds?: number;
  counterBidResetSeconds?: number;
}
interface LotFormat {
  timerMode?: TimerMode | null;
  counterBidWindowSeconds?: number | null;
  counterBidResetSeconds?: number | null;
}

/** An open auction that is a lot of a live session with this format (and the lot's own, when given). */
async function lotWith(format: Format, lot: LotFormat = {}): Promise<string> {
  const session = await buildSession(server.ctx.db, {
    sellerId: seller.id,
    companyId: COMPANY,
    status: 'live',
    biddingConfig: { ...DEFAULT_BIDDING_CONFIG, minIncrement: 10, ...format },
  });
  const auction = await buildAuction(server.ctx.db, {
    status: 'live',
    endTime: new Date(Date.now() + 3_600_000),
    startingPrice: 500,
    companyId: COMPANY,
    sellerId: seller.id,
  });
  await server.ctx.db.insert(liveLots).values({ sessionId: session.id, auctionId: auction.id, order: 1, ...lot });
  return auction.id;
}

/** Puts the end `ms` from now and answers it. */
async function endsIn(auctionId: string, ms: number): Promise<number> {
  const end = Date.now() + ms;
  await server.ctx.db
    .update(auctions)
    .set({ endTime: new Date(end) })
    .where(eq(auctions.id, auctionId));
  return end;
}

async function endOf(auctionId: string): Promise<number | undefined> {
  const [row] = await server.ctx.db.select({ endTime: auctions.endTime }).from(auctions).where(eq(auctions.id, auctionId));
  return row?.endTime?.getTime();
}

/** A bid that must be accepted, with the instants it was sent and answered. */
async function placed(bidder: Bidder, auctionId: string, payload: { amount: number; maxAmount?: number }) {
  const sentAt = Date.now();
  const res = await placeBid(server, bidder, auctionId, payload);
  const answeredAt = Date.now();
  expect(res.statusCode, res.body).toBe(201);
  return { answer: res.json() as BidAnswer, sentAt, answeredAt };
}

/** The end was set to the engine's instant plus `seconds`: between the sending plus them and the answer plus them. */
function expectMovedTo(bid: { answer: BidAnswer; sentAt: number; answeredAt: number }, seconds: number) {
  expect(bid.answer.state.endTime).toBeGreaterThanOrEqual(bid.sentAt + seconds * 1000);
  expect(bid.answer.state.endTime).toBeLessThanOrEqual(bid.answeredAt + seconds * 1000);
}

describe('Contrapuja', () => {
  it('10/10: a leading bid with fewer than 10 s left sets the clock to 10 s; with more left it stays', async () => {
    const auctionId = await lotWith({ timerMode: 'counterBid', counterBidWindowSeconds: 10, counterBidResetSeconds: 10 });
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];

    const far = await endsIn(auctionId, 30_500);
    const opening = await placed(ana, auctionId, { amount: 500 });
    expect(opening.answer.state).toMatchObject({ timerMode: 'counterBid', antiSnipeSeconds: 10, counterBidResetSeconds: 10, endTime: far });

    await endsIn(auctionId, 4_500);
    const late = await placed(beto, auctionId, { amount: 510 });
    expect(late.answer.outcome).toBe('leading');
    expectMovedTo(late, 10);
    expect(await endOf(auctionId)).toBe(late.answer.state.endTime);

    // Again inside the window: each counter-bid sets it to 10 s once more.
    await endsIn(auctionId, 9_500);
    const again = await placed(ana, auctionId, { amount: 520 });
    expectMovedTo(again, 10);
  });

  it('15/5: a leading bid inside the 15 s window sets the clock to 5 s, and never shortens it', async () => {
    const auctionId = await lotWith({ timerMode: 'counterBid', counterBidWindowSeconds: 15, counterBidResetSeconds: 5 });
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];

    // 12 s left, inside the window: 5 s from now would be earlier, so the end stays.
    const end = await endsIn(auctionId, 12_500);
    const inside = await placed(ana, auctionId, { amount: 500 });
    expect(inside.answer.state).toMatchObject({ antiSnipeSeconds: 15, counterBidResetSeconds: 5, endTime: end });

    // 3 s left: the clock goes back up to 5 s.
    await endsIn(auctionId, 3_500);
    const last = await placed(beto, auctionId, { amount: 510 });
    expect(last.answer.outcome).toBe('leading');
    expectMovedTo(last, 5);
  });
});

describe('Muerte súbita', () => {
  it('never moves the clock, sells at 00:00 to the leader, and refuses a bid after the end', async () => {
    const auctionId = await lotWith({ timerMode: 'suddenDeath', antiSnipeSeconds: 10 });
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];
    const end = await endsIn(auctionId, 2_500);
    const first = await placed(ana, auctionId, { amount: 500 });
    expect(first.answer.state).toMatchObject({ timerMode: 'suddenDeath', antiSnipeSeconds: 0, counterBidResetSeconds: 0, endTime: end });
    const second = await placed(beto, auctionId, { amount: 510 });
    expect(second.answer).toMatchObject({ outcome: 'leading', state: { endTime: end } });

    // The scheduler closes it at its end, with the leader at 00:00 as the winner.
    await eventually(async () => {
      const [row] = await server.ctx.db.select({ closedAt: auctions.closedAt }).from(auctions).where(eq(auctions.id, auctionId));
      return row?.closedAt != null;
    });
    const [row] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auctionId));
    expect(row).toMatchObject({ status: 'ended', currentWinnerId: beto.id, currentPrice: 510 });
    expect(row?.endTime?.getTime()).toBe(end);

    const tooLate = await placeBid(server, ana, auctionId, { amount: 5_000 });
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json().error.code).toBe('AUCTION_CLOSED');
    expect(await endOf(auctionId)).toBe(end);
  });

  it('refuses a bid that reaches the server after the end, before the scheduler closed the lot', async () => {
    const auctionId = await lotWith({ timerMode: 'suddenDeath' });
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];
    await placed(ana, auctionId, { amount: 500 });
    const ended = await endsIn(auctionId, -1);
    const late = await placeBid(server, beto, auctionId, { amount: 900 });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatchObject({ code: 'AUCTION_CLOSED', state: { currentPrice: 500, endTime: ended } });
  });
});

describe('Extender', () => {
  it('moves the end to now plus the window for a leading bid with the window or less left, as before', async () => {
    const auctionId = await lotWith({ timerMode: 'extend', antiSnipeSeconds: 10 });
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];
    const far = await endsIn(auctionId, 20_500);
    expect((await placed(ana, auctionId, { amount: 500 })).answer.state).toMatchObject({ timerMode: 'extend', antiSnipeSeconds: 10, endTime: far });
    await endsIn(auctionId, 6_500);
    const lead = await placed(beto, auctionId, { amount: 510 });
    expect(lead.answer.outcome).toBe('leading');
    expectMovedTo(lead, 10);
  });
});

describe('bids that do not take the lead', () => {
  it.each<Format>([
    { timerMode: 'counterBid', counterBidWindowSeconds: 10, counterBidResetSeconds: 10 },
    { timerMode: 'extend', antiSnipeSeconds: 10 },
    { timerMode: 'suddenDeath' },
  ])('never move the clock ($timerMode)', async (format) => {
    const auctionId = await lotWith(format);
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];
    await endsIn(auctionId, 60_000);
    await placed(ana, auctionId, { amount: 500, maxAmount: 2_000 });

    const end = await endsIn(auctionId, 4_500);
    // Answered at once by the leader's maximum: the lead stays, and so does the end.
    const answered = await placed(beto, auctionId, { amount: 600 });
    expect(answered.answer).toMatchObject({ outcome: 'outbid', state: { endTime: end } });
    // The leader raising their maximum changes nothing public either.
    const raised = await placed(ana, auctionId, { amount: 700, maxAmount: 3_000 });
    expect(raised.answer).toMatchObject({ outcome: 'maxRaised', state: { endTime: end } });
    expect(await endOf(auctionId)).toBe(end);
  });
});

describe("a lot's own format", () => {
  it("beats the session's: sudden death on one lot of an Extender session", async () => {
    const auctionId = await lotWith({ timerMode: 'extend', antiSnipeSeconds: 10 }, { timerMode: 'suddenDeath' });
    const ana = await buildBidder(server);
    const end = await endsIn(auctionId, 4_500);
    const bid = await placed(ana, auctionId, { amount: 500 });
    expect(bid.answer.state).toMatchObject({ timerMode: 'suddenDeath', antiSnipeSeconds: 0, endTime: end });
  });

  it("beats the session's: its own Contrapuja window and reset", async () => {
    // The session's 10/10 would leave 15 s alone; the lot's 20/30 sets the clock to 30 s.
    const auctionId = await lotWith(
      { timerMode: 'counterBid', counterBidWindowSeconds: 10, counterBidResetSeconds: 10 },
      { counterBidWindowSeconds: 20, counterBidResetSeconds: 30 },
    );
    const ana = await buildBidder(server);
    await endsIn(auctionId, 15_500);
    const bid = await placed(ana, auctionId, { amount: 500 });
    expect(bid.answer.state).toMatchObject({ timerMode: 'counterBid', antiSnipeSeconds: 20, counterBidResetSeconds: 30 });
    expectMovedTo(bid, 30);
  });

  it("beats the session's: Contrapuja on one lot of a sudden-death session", async () => {
    const auctionId = await lotWith({ timerMode: 'suddenDeath' }, { timerMode: 'counterBid', counterBidWindowSeconds: 10, counterBidResetSeconds: 8 });
    const ana = await buildBidder(server);
    await endsIn(auctionId, 2_500);
    const bid = await placed(ana, auctionId, { amount: 500 });
    expect(bid.answer.state).toMatchObject({ timerMode: 'counterBid', antiSnipeSeconds: 10, counterBidResetSeconds: 8 });
    expectMovedTo(bid, 8);
  });
});
