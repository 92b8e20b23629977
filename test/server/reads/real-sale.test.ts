import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auctions, rehearsalSnapshots, users } from '../../../src/server/db/schema.js';
import { inRehearsal, realSale, simulatedWinner } from '../../../src/server/reads/real-sale.js';
import { createTestDatabase, type TestDatabase } from '../../support/db.js';
import { buildSeller, buildSession, buildUser, buildWonAuction } from '../../support/factories.js';

/**
 * The one rule every winners' and summary query asks: a won auction is a real sale unless a
 * rehearsal holds it or a rehearsal's simulated bidder won it.
 */

let database: TestDatabase;
const ids = { real: '', rehearsed: '', simulated: '' };

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const seller = await buildSeller(db, { companyId: 'venta-real' });
  const buyer = await buildUser(db);
  const bot = await buildUser(db);
  await db.update(users).set({ isSimulated: true }).where(eq(users.id, bot.id));
  ids.real = (await buildWonAuction(db, { price: 300, winnerId: buyer.id, companyId: 'venta-real', sellerId: seller.id })).id;
  ids.rehearsed = (await buildWonAuction(db, { price: 400, winnerId: buyer.id, companyId: 'venta-real', sellerId: seller.id })).id;
  ids.simulated = (await buildWonAuction(db, { price: 500, winnerId: bot.id, companyId: 'venta-real', sellerId: seller.id })).id;
  const rehearsal = await buildSession(db, { sellerId: seller.id, companyId: 'venta-real', rehearsal: true, status: 'live' });
  await db.insert(rehearsalSnapshots).values({ sessionId: rehearsal.id, auctionId: ids.rehearsed, snapshot: {} });
}, 60_000);
afterAll(async () => database?.destroy());

async function verdicts() {
  const found = await database.db
    .select({
      id: auctions.id,
      real: sql<boolean>`${realSale({ auctionId: auctions.id, winnerId: auctions.currentWinnerId })}`,
      rehearsal: sql<boolean>`${inRehearsal(auctions.id)}`,
      simulated: sql<boolean>`${simulatedWinner(auctions.currentWinnerId)}`,
    })
    .from(auctions)
    .where(inArray(auctions.id, Object.values(ids)));
  return new Map(found.map((r) => [r.id, r]));
}

describe('is this a real sale?', () => {
  it("is a real buyer's win outside any rehearsal", async () => {
    expect((await verdicts()).get(ids.real)).toMatchObject({ real: true, rehearsal: false, simulated: false });
  });

  it('is not while a rehearsal holds the auction, whoever won it', async () => {
    expect((await verdicts()).get(ids.rehearsed)).toMatchObject({ real: false, rehearsal: true, simulated: false });
  });

  it("is not what a rehearsal's simulated bidder won", async () => {
    expect((await verdicts()).get(ids.simulated)).toMatchObject({ real: false, rehearsal: false, simulated: true });
  });
});
