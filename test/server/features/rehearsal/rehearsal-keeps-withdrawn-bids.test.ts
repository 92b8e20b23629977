import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auctions, bids } from '../../../../src/server/db/schema.js';
import { restoreRehearsalTx, takeRehearsalSnapshot } from '../../../../src/server/features/live/sessions/rehearsal-snapshot.js';
import { buildBidder } from '../../../support/actors.js';
import { buildAuction, buildSession, buildUser } from '../../../support/factories.js';
import { startTestServer, type TestServer } from '../../../support/server.js';

/**
 * A rehearsal puts an auction back exactly as it found it, also one whose history holds withdrawn
 * lines (a blocked bidder's): those keep their numbers, so the lines standing before it are told
 * from the rehearsal's by number, not by the count of standing lines; and what the rehearsal
 * withdrew stands again.
 */

let server: TestServer;
const COMPANY = 'ensayo-retiros';

beforeAll(async () => {
  server = await startTestServer({ listen: false });
}, 60_000);
afterAll(async () => server?.close());

const engine = (q: ReturnType<typeof sql>) => server.ctx.db.execute(q);
const lines = (auctionId: string) =>
  server.ctx.db
    .select({ seq: bids.seq, bidderId: bids.bidderId, amount: bids.amount, withdrawn: sql<boolean>`${bids.withdrawnAt} is not null` })
    .from(bids)
    .where(eq(bids.auctionId, auctionId))
    .orderBy(asc(bids.seq));

describe('a rehearsal over an auction with withdrawn bids', () => {
  it('leaves the standing lines, the withdrawn ones and the row as they were', async () => {
    const seller = await buildUser(server.ctx.db, { email: 'vende@ensayo-retiros.mx', roles: ['seller'], companyId: COMPANY });
    const [troll, ana, sim] = [await buildBidder(server), await buildBidder(server), await buildBidder(server)];
    const auction = await buildAuction(server.ctx.db, {
      status: 'active',
      endTime: new Date(Date.now() + 3_600_000),
      startingPrice: 100,
      companyId: COMPANY,
      sellerId: seller.id,
    });
    // The troll's line (1) is withdrawn; Ana's (2) stands: one standing line, numbered 2.
    await engine(sql`select place_bid(${auction.id}::uuid, ${troll.id}::uuid, 100, null, null)`);
    await engine(sql`select place_bid(${auction.id}::uuid, ${ana.id}::uuid, 120, null, null)`);
    await engine(sql`select withdraw_bids(${auction.id}::uuid, array[${troll.id}::uuid])`);
    const before = await lines(auction.id);
    const [rowBefore] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auction.id));
    expect(before.map((l) => [l.seq, l.withdrawn])).toEqual([
      [1, true],
      [2, false],
    ]);

    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, rehearsal: true });
    await server.ctx.db.transaction((tx) => takeRehearsalSnapshot(tx, { sessionId: session.id, auctionId: auction.id }));
    // The rehearsal's bidder bids, then Ana's line is withdrawn in it (as the close does for a blocked bidder).
    await engine(sql`select place_bid(${auction.id}::uuid, ${sim.id}::uuid, 140, null, null)`);
    await engine(sql`select withdraw_bids(${auction.id}::uuid, array[${ana.id}::uuid])`);

    await server.ctx.db.transaction((tx) => restoreRehearsalTx(tx, { sessionId: session.id }));
    expect(await lines(auction.id)).toEqual(before);
    const [rowAfter] = await server.ctx.db.select().from(auctions).where(eq(auctions.id, auction.id));
    expect(rowAfter).toMatchObject({
      currentPrice: rowBefore?.currentPrice,
      leaderId: ana.id,
      leaderMax: rowBefore?.leaderMax,
      bidCount: 1,
    });
  });
});
