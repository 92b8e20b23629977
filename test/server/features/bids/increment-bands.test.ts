import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INCREMENT_BANDS } from '../../../../src/domain/bid-rules.js';
import type { BidAnswer, BidHistory } from '../../../../src/domain/bidding.js';
import { type BiddingConfig, DEFAULT_BIDDING_CONFIG } from '../../../../src/domain/live.js';
import { liveLots } from '../../../../src/server/db/schema.js';
import { type Actor, type Bidder, buildBidder, signInAs } from '../../../support/actors.js';
import { buildAuction, buildSession } from '../../../support/factories.js';
import { placeBid, startTestServer, type TestServer } from '../../../support/server.js';

/**
 * Increments by price band: with a session's band table (the default for pesos here: under $100
 * → $5, $100–499 → $10, $500–999 → $20, $1,000–4,999 → $50, ...) the lowest bid is the price plus
 * the increment of the band the price is in, proxy bidding steps by the band of the maximum it
 * answers from, and every state says the increment at the price, the next minimum and the table.
 * Without a table the flat minIncrement applies, as before.
 */

let server: TestServer;
let seller: Actor;
const COMPANY = 'remates-bandas';

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  seller = await signInAs(server, { email: 'vendedor-bandas@ejemplo.mx', roles: ['seller'], companyId: COMPANY });
}, 60_000);
afterAll(async () => server?.close());

/** An open auction, a lot of a live session with this bidding configuration. */
async function lotWith(config: Partial<BiddingConfig>, startingPrice: number): Promise<string> {
  const session = await buildSession(server.ctx.db, {
    sellerId: seller.id,
    companyId: COMPANY,
    status: 'live',
    biddingConfig: { ...DEFAULT_BIDDING_CONFIG, ...config },
  });
  const auction = await buildAuction(server.ctx.db, {
    status: 'live',
    endTime: new Date(Date.now() + 3_600_000),
    startingPrice,
    companyId: COMPANY,
    sellerId: seller.id,
  });
  await server.ctx.db.insert(liveLots).values({ sessionId: session.id, auctionId: auction.id, order: 1 });
  return auction.id;
}

async function placed(bidder: Bidder, auctionId: string, payload: { amount: number; maxAmount?: number }): Promise<BidAnswer> {
  const res = await placeBid(server, bidder, auctionId, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A bid refused as too low, answering the state it met. */
async function tooLow(bidder: Bidder, auctionId: string, amount: number) {
  const res = await placeBid(server, bidder, auctionId, { amount });
  expect(res.statusCode, res.body).toBe(409);
  expect(res.json().error.code).toBe('BID_TOO_LOW');
  return res.json().error.state as BidAnswer['state'];
}

async function history(auctionId: string): Promise<BidHistory> {
  const res = await server.app.inject({ method: 'GET', url: `/api/auctions/${auctionId}/bids` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const bands = [...DEFAULT_INCREMENT_BANDS];

describe('the minimum bid under a band table', () => {
  it('follows the band of the current price across the band edges', async () => {
    const auctionId = await lotWith({ incrementBands: bands }, 90);
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];

    // Before any bid: the starting price, and the band it is in.
    expect((await history(auctionId)).state).toMatchObject({ nextMinimum: 90, minIncrement: 5, incrementBands: bands });

    expect((await placed(ana, auctionId, { amount: 90 })).state).toMatchObject({ currentPrice: 90, minIncrement: 5, nextMinimum: 95 });
    expect((await placed(beto, auctionId, { amount: 95 })).state).toMatchObject({ minIncrement: 5, nextMinimum: 100 });
    // $100 is the next band's edge: from it, bids rise by $10.
    expect((await placed(ana, auctionId, { amount: 100 })).state).toMatchObject({ minIncrement: 10, nextMinimum: 110 });
    expect(await tooLow(beto, auctionId, 105)).toMatchObject({ currentPrice: 100, nextMinimum: 110 });
    expect((await placed(beto, auctionId, { amount: 495 })).state).toMatchObject({ minIncrement: 10, nextMinimum: 505 });
    expect(await tooLow(ana, auctionId, 500)).toMatchObject({ nextMinimum: 505 });
    expect((await placed(ana, auctionId, { amount: 505 })).state).toMatchObject({ minIncrement: 20, nextMinimum: 525 });
    expect((await placed(beto, auctionId, { amount: 990 })).state).toMatchObject({ minIncrement: 20, nextMinimum: 1_010 });
    expect((await placed(ana, auctionId, { amount: 1_010 })).state).toMatchObject({ minIncrement: 50, nextMinimum: 1_060 });
    expect(await tooLow(beto, auctionId, 1_059)).toMatchObject({ nextMinimum: 1_060 });
    expect((await placed(beto, auctionId, { amount: 10_000 })).state).toMatchObject({ minIncrement: 200, nextMinimum: 10_200 });

    // Anyone reading the auction sees the same.
    expect((await history(auctionId)).state).toMatchObject({ currentPrice: 10_000, minIncrement: 200, nextMinimum: 10_200, incrementBands: bands });
  });

  it('is the flat minIncrement when the session has no band table', async () => {
    const auctionId = await lotWith({ minIncrement: 25, incrementBands: null }, 90);
    const [ana, beto] = [await buildBidder(server), await buildBidder(server)];
    expect((await placed(ana, auctionId, { amount: 90 })).state).toMatchObject({ minIncrement: 25, nextMinimum: 115, incrementBands: null });
    expect(await tooLow(beto, auctionId, 114)).toMatchObject({ nextMinimum: 115 });
    expect((await placed(beto, auctionId, { amount: 1_000 })).state).toMatchObject({ minIncrement: 25, nextMinimum: 1_025 });
  });
});

describe('proxy bidding under a band table', () => {
  it('answers with one increment of the band of the maximum it beats', async () => {
    const auctionId = await lotWith({ incrementBands: bands }, 90);
    const [ana, beto, carla] = [await buildBidder(server), await buildBidder(server), await buildBidder(server)];
    await placed(ana, auctionId, { amount: 90, maxAmount: 1_000 });

    // Beto's $480 is answered at $480 plus $10 (the band of $480).
    expect(await placed(beto, auctionId, { amount: 480 })).toMatchObject({ outcome: 'outbid', state: { currentPrice: 490, nextMinimum: 500 } });
    // His $500 is answered at $500 plus $20.
    expect(await placed(beto, auctionId, { amount: 500 })).toMatchObject({ outcome: 'outbid', state: { currentPrice: 520, nextMinimum: 540 } });
    // Carla's higher maximum beats Ana's $1,000 by one increment of $1,000's band ($50).
    const lead = await placed(carla, auctionId, { amount: 600, maxAmount: 5_000 });
    expect(lead).toMatchObject({ outcome: 'leading', state: { currentPrice: 1_050, minIncrement: 50, nextMinimum: 1_100 } });
    // Ana's $4,990 would be answered at $5,040, past Carla's maximum: the price stops at it, and
    // from $5,000 the next band's $100 applies.
    expect(await placed(ana, auctionId, { amount: 4_990 })).toMatchObject({ outcome: 'outbid', state: { currentPrice: 5_000, nextMinimum: 5_100 } });
  });
});
