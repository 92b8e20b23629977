import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuctionLiveState, BidHistory } from '../../../../src/domain/bidding.js';
import type { BlockAnswer } from '../../../../src/domain/chat.js';
import type { AuctionStateEvent } from '../../../../src/domain/realtime.js';
import type { Role } from '../../../../src/domain/role-rules.js';
import { auctions, auditLog, bids, companyBlocks, liveLots, prebids } from '../../../../src/server/db/schema.js';
import { closeDueAuctions } from '../../../../src/server/features/bids/scheduler.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildCompany, buildSession } from '../../../support/factories.js';
import { bidCaller, caller, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket, eventMatching } from '../../../support/sockets.js';

/**
 * Blocking a buyer takes their standing bids off every open lot of the company: each lot falls back
 * to the best remaining bid, by the engine's proxy rules (the runner-up's maximum answers, ties to
 * the earlier), or to its starting price with no leader when nobody else bid. The lines stay in the
 * database, out of the history and the count; the room hears the new price. The close never makes a
 * blocked bidder the winner, even when the block did not withdraw their bids first.
 */

let server: TestServer;
let admin: Actor;
let seller: Actor;
let otherSeller: Actor;
const TIANGUIS = 'tianguis-retiro';
const NORTE = 'norte-retiro';
const bid = bidCaller(() => server);
const call = caller(() => server);
const open: Socket[] = [];
let people = 0;

const person = (name: string, roles: Role[] = ['buyer'], companyId: string | null = null) =>
  buildActor(server, { email: `p${++people}-${randomUUID().slice(0, 6)}@ejemplo.mx`, name, roles, companyId, completeProfile: true });

const inOneHour = () => new Date(Date.now() + 3_600_000);

function regular(companyId = TIANGUIS, over: Partial<typeof auctions.$inferInsert> = {}) {
  return buildAuction(server.ctx.db, {
    name: `Lote ${randomUUID().slice(0, 6)}`,
    status: 'active',
    endTime: inOneHour(),
    startingPrice: 500,
    companyId,
    sellerId: companyId === TIANGUIS ? seller.id : otherSeller.id,
    ...over,
  });
}

async function block(user: Actor, by: Actor = admin): Promise<BlockAnswer> {
  const res = await call(by, 'POST', `/api/companies/${TIANGUIS}/blocks`, { userId: user.id });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as BlockAnswer;
}

async function history(auctionId: string, viewer: Actor | null = null): Promise<BidHistory> {
  const res = await call(viewer, 'GET', `/api/auctions/${auctionId}/bids?limit=100`);
  expect(res.statusCode).toBe(200);
  return res.json() as BidHistory;
}

/** The viewer's own tag on an auction, from their answer. */
async function tagOf(actor: Actor, auctionId: string): Promise<string> {
  return (await history(auctionId, actor)).me?.tag as string;
}

const row = async (auctionId: string) => (await server.ctx.db.select().from(auctions).where(eq(auctions.id, auctionId)))[0];

beforeAll(async () => {
  server = await startTestServer();
  await buildCompany(server.ctx.db, { id: TIANGUIS });
  await buildCompany(server.ctx.db, { id: NORTE });
  admin = await person('Jefa Tianguis', ['admin'], TIANGUIS);
  seller = await person('Vendedora Tianguis', ['seller'], TIANGUIS);
  otherSeller = await person('Vendedor Norte', ['seller'], NORTE);
}, 60_000);
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => server?.close());

describe('blocking a buyer withdraws their standing bids', () => {
  it('a leader with a maximum: the price falls to the best remaining bid and the runner-up leads', async () => {
    const [carla, diego, troll] = [await person('Carla Ríos'), await person('Diego Luna'), await person('Trol Pujador')];
    const auction = await regular();
    // Carla 500 with a maximum of 600; Diego 520 is answered by her maximum at 540; the troll takes the lead with 2,000 behind.
    expect((await bid(carla, auction.id, { amount: 500, maxAmount: 600 })).statusCode).toBe(201);
    expect((await bid(diego, auction.id, { amount: 520 })).json().outcome).toBe('outbid');
    const trolled = await bid(troll, auction.id, { amount: 560, maxAmount: 2000 });
    expect(trolled.json()).toMatchObject({ outcome: 'leading', state: { currentPrice: 620 } });

    const answer = await block(troll);
    expect(answer.withdrawn).toEqual([{ auctionId: auction.id, auctionName: auction.name, currentPrice: 540, startingPrice: 500 }]);

    // As if the troll had never bid: Carla leads at 540 (Diego's 520 answered by her maximum), her maximum still 600.
    const seen = await history(auction.id, carla);
    expect(seen.state).toMatchObject({ currentPrice: 540, bidCount: 3, nextMinimum: 560, leaderTag: await tagOf(carla, auction.id) });
    expect(seen.me?.myMaxAmount).toBe(600);
    expect(seen.items.map((l) => [l.amount, l.isAutomatic])).toEqual([
      [540, true],
      [520, false],
      [500, false],
    ]);
    expect(seen.total).toBe(3);
    expect(await row(auction.id)).toMatchObject({ leaderId: carla.id, leaderMax: 600, currentPrice: 540, bidCount: 3 });

    // The rows stay, marked withdrawn: the troll's line and Carla's automatic 600 that answered it.
    const withdrawn = await server.ctx.db
      .select({ bidderId: bids.bidderId, amount: bids.amount })
      .from(bids)
      .where(and(eq(bids.auctionId, auction.id), isNotNull(bids.withdrawnAt)));
    expect(withdrawn.map((w) => [w.bidderId === troll.id ? 'troll' : 'carla', w.amount]).sort()).toEqual([
      ['carla', 600],
      ['troll', 620],
    ]);
    const audited = await server.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, auction.id), eq(auditLog.action, 'auction.bids_withdraw')));
    expect(audited).toMatchObject([{ actorId: admin.id, before: { price: 620, leaderId: troll.id }, after: { price: 540, leaderId: carla.id } }]);

    // Bidding goes on from there: Diego's 560 meets Carla's maximum (580), numbered after every line ever written.
    const next = await bid(diego, auction.id, { amount: 560 });
    expect(next.json()).toMatchObject({ outcome: 'outbid', state: { currentPrice: 580, bidCount: 5 } });
    expect((await history(auction.id)).items.map((l) => [l.seq, l.amount])).toEqual([
      [7, 580],
      [6, 560],
      [3, 540],
      [2, 520],
      [1, 500],
    ]);
  });

  it('a maximum that took the lead from the troll falls back to what its bidder sent', async () => {
    const [ana, troll] = [await person('Ana Paz'), await person('Trol Dos')];
    const auction = await regular();
    expect((await bid(troll, auction.id, { amount: 500, maxAmount: 900 })).statusCode).toBe(201);
    // Ana sends 520 with a maximum of 3,000: she leads at 920, the troll's maximum plus one increment.
    expect((await bid(ana, auction.id, { amount: 520, maxAmount: 3000 })).json()).toMatchObject({ outcome: 'leading', state: { currentPrice: 920 } });

    await block(troll);
    // Alone, she leads at the 520 she sent, with her maximum intact.
    const seen = await history(auction.id, ana);
    expect(seen.state).toMatchObject({ currentPrice: 520, bidCount: 1, leaderTag: await tagOf(ana, auction.id) });
    expect(seen.me?.myMaxAmount).toBe(3000);
    expect(seen.items.map((l) => [l.amount, l.isAutomatic])).toEqual([[520, false]]);
  });

  it('the only bidder: the lot is back at its starting price with no leader, and takes bids from there', async () => {
    const [troll, eva] = [await person('Trol Solo'), await person('Eva Sol')];
    const auction = await regular();
    expect((await bid(troll, auction.id, { amount: 700, maxAmount: 5000 })).statusCode).toBe(201);

    const answer = await block(troll);
    expect(answer.withdrawn).toEqual([{ auctionId: auction.id, auctionName: auction.name, currentPrice: null, startingPrice: 500 }]);
    const seen = await history(auction.id);
    expect(seen.state).toMatchObject({ currentPrice: null, bidCount: 0, nextMinimum: 500, leaderTag: null });
    expect(seen.items).toEqual([]);
    expect(await row(auction.id)).toMatchObject({ leaderId: null, leaderMax: null, currentPrice: null, bidCount: 0 });

    const first = await bid(eva, auction.id, { amount: 500 });
    expect(first.json()).toMatchObject({ outcome: 'leading', state: { currentPrice: 500, bidCount: 1 } });
    expect((await history(auction.id)).items.map((l) => [l.seq, l.amount])).toEqual([[2, 500]]);
  });

  it('covers a running show lot and regular auctions of the company, never another company’s, and removes pre-bids', async () => {
    const [troll, rosa] = [await person('Trol Tres'), await person('Rosa Mar')];
    const show = await buildSession(server.ctx.db, { companyId: TIANGUIS, sellerId: seller.id, status: 'live' });
    const lot = await regular(TIANGUIS, { name: 'A · Lote en vivo', status: 'live' });
    await server.ctx.db.insert(liveLots).values({ sessionId: show.id, auctionId: lot.id, order: 1 });
    const waiting = await regular(TIANGUIS, { name: 'C · Lote que viene', status: 'pending', endTime: null });
    await server.ctx.db.insert(liveLots).values({ sessionId: show.id, auctionId: waiting.id, order: 2 });
    const plain = await regular(TIANGUIS, { name: 'B · Subasta normal' });
    const elsewhere = await regular(NORTE);
    for (const a of [lot, plain, elsewhere]) expect((await bid(troll, a.id, { amount: 500 })).statusCode).toBe(201);
    expect((await bid(rosa, plain.id, { amount: 520 })).statusCode).toBe(201);
    const prebid = await call(troll, 'POST', `/api/auctions/${waiting.id}/prebids`, { maxAmount: 800 });
    expect(prebid.statusCode, prebid.body).toBe(201);

    const answer = await block(troll);
    expect(answer.withdrawn.map((w) => [w.auctionName, w.currentPrice])).toEqual([
      ['A · Lote en vivo', null],
      ['B · Subasta normal', 520],
    ]);
    expect(answer.prebidsRemoved).toBe(1);
    expect(await server.ctx.db.select().from(prebids).where(eq(prebids.bidderId, troll.id))).toEqual([]);
    expect((await history(lot.id)).state).toMatchObject({ currentPrice: null, bidCount: 0 });
    expect((await history(plain.id)).state).toMatchObject({ currentPrice: 520, bidCount: 1 });
    // Another company's auction keeps the bid.
    expect((await history(elsewhere.id)).state).toMatchObject({ currentPrice: 500, bidCount: 1, leaderTag: await tagOf(troll, elsewhere.id) });

    // Blocking again answers the same way, with nothing left to withdraw.
    const again = await block(troll);
    expect(Object.keys(again).sort()).toEqual(Object.keys(answer).sort());
    expect([again.withdrawn, again.prebidsRemoved]).toEqual([[], 0]);
  });

  it('tells every viewer of the lot: the new price in the room, and an update to refetch the history', async () => {
    const [carla, troll] = [await person('Carla Vela'), await person('Trol Cuatro')];
    const auction = await regular();
    expect((await bid(carla, auction.id, { amount: 500 })).statusCode).toBe(201);
    const taken = await bid(troll, auction.id, { amount: 700 });
    expect(taken.json().state.currentPrice).toBe(700);
    const viewer = connectSocket(server.url);
    open.push(viewer);
    await connected(viewer);
    expect(await viewer.emitWithAck('joinAuction', { auctionId: auction.id })).toMatchObject({ ok: true });

    const stateSeen = eventMatching<AuctionStateEvent>(viewer, 'auctionState', (e) => e.state.id === auction.id && e.state.currentPrice === 500);
    const updateSeen = eventMatching<{ id: string; version: number }>(viewer, 'auctionUpdate', (e) => e.id === auction.id);
    await block(troll);
    const event = await stateSeen;
    const state: AuctionLiveState = event.state;
    expect(state).toMatchObject({ currentPrice: 500, bidCount: 1, leaderTag: await tagOf(carla, auction.id) });
    expect(state.version).toBeGreaterThan(taken.json().state.version);
    expect((await updateSeen).version).toBe(state.version);
  });
});

describe('a block racing the buyer’s bids', () => {
  it('leaves none of their bids standing and never them leading, whatever the order', async () => {
    for (let round = 0; round < 4; round++) {
      const [troll, honest] = [await person(`Trol Carrera${round}`), await person(`Hugo Carrera${round}`)];
      const lots = await Promise.all([regular(), regular(), regular()]);
      for (const lot of lots) expect((await bid(honest, lot.id, { amount: 500 })).statusCode).toBe(201);
      const answers: { status: number; code?: string }[] = [];
      /** The troll keeps raising on one lot, as a script would, while the block goes through. */
      const raise = async (auctionId: string) => {
        for (let i = 1; i <= 5; i++) {
          const res = await bid(troll, auctionId, { amount: 500 + i * 100, maxAmount: 500 + i * 300 });
          answers.push({ status: res.statusCode, ...(res.statusCode === 201 ? {} : { code: res.json().error.code }) });
        }
      };
      const blocked = (async () => {
        await new Promise((resolve) => setTimeout(resolve, round * 3));
        return block(troll);
      })();
      await Promise.all([...lots.map((lot) => raise(lot.id)), blocked]);

      // Every bid was either taken before the block (and withdrawn by it) or refused after it.
      for (const a of answers) expect(a.status === 201 || (a.status === 403 && a.code === 'BUYER_BLOCKED'), JSON.stringify(a)).toBe(true);
      const standing = await server.ctx.db
        .select()
        .from(bids)
        .where(and(eq(bids.bidderId, troll.id), isNull(bids.withdrawnAt)));
      expect(standing).toEqual([]);
      for (const lot of lots) {
        const after = await row(lot.id);
        expect(after?.leaderId).toBe(honest.id);
        expect(after).toMatchObject({ currentPrice: 500, bidCount: 1 });
      }
    }
  }, 60_000);
});

describe('the close never makes a blocked bidder the winner', () => {
  it('withdraws the standing bids of a bidder blocked without them being withdrawn, and the runner-up wins', async () => {
    const [carla, troll] = [await person('Carla Cierre'), await person('Trol Cierre')];
    const auction = await regular();
    expect((await bid(carla, auction.id, { amount: 500, maxAmount: 650 })).statusCode).toBe(201);
    expect((await bid(troll, auction.id, { amount: 520, maxAmount: 4000 })).json().state.currentPrice).toBe(670);
    // A block that raced the close: written, its bids still standing (as a strikes block leaves them).
    await server.ctx.db.insert(companyBlocks).values({ companyId: TIANGUIS, userId: troll.id, blockedBy: admin.id });
    await server.ctx.db
      .update(auctions)
      .set({ endTime: new Date(Date.now() - 1000) })
      .where(eq(auctions.id, auction.id));

    const closed = (await closeDueAuctions(server.ctx.db)).find((s) => s.id === auction.id);
    expect(closed).toMatchObject({ status: 'ended', winnerId: carla.id, currentPrice: 500, bidCount: 1 });
    expect(await row(auction.id)).toMatchObject({ currentWinnerId: carla.id, currentPrice: 500, winnerEmail: carla.email });
  });

  it('ends without a winner when the blocked bidder was the only one', async () => {
    const troll = await person('Trol Único');
    const auction = await regular();
    expect((await bid(troll, auction.id, { amount: 500 })).statusCode).toBe(201);
    await server.ctx.db.insert(companyBlocks).values({ companyId: TIANGUIS, userId: troll.id, blockedBy: admin.id });
    await server.ctx.db
      .update(auctions)
      .set({ endTime: new Date(Date.now() - 1000) })
      .where(eq(auctions.id, auction.id));

    await closeDueAuctions(server.ctx.db);
    expect(await row(auction.id)).toMatchObject({ status: 'ended', currentWinnerId: null, currentPrice: null, bidCount: 0, winnerEmail: null });
  });
});
