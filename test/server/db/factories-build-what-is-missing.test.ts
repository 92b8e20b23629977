import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auctions, companies, liveSessions, userProfiles } from '../../../src/server/db/schema.js';
import { createTestDatabase, type TestDatabase } from '../../support/db.js';
import { buildLot, buildPayment, buildSession, buildWonAuction } from '../../support/factories.js';

/**
 * The test factories make valid rows on the real schema, building what a row needs when the test
 * leaves it out: a lot needs a session and an auction, a session a seller, a seller a company.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => database?.destroy());

describe('factories build what a row needs', () => {
  it('a lot alone: a session of a seller of a company with its record, and an auction of that seller', async () => {
    const db = database.db;
    const lot = await buildLot(db);
    const [session] = await db.select().from(liveSessions).where(eq(liveSessions.id, lot.sessionId));
    const [auction] = await db.select().from(auctions).where(eq(auctions.id, lot.auctionId));
    if (!session || !auction) throw new Error('the lot points at nothing');
    const [seller] = await db.select().from(userProfiles).where(eq(userProfiles.userId, session.sellerId));
    expect(seller?.roles).toContain('seller');
    expect(seller?.companyId).toBe(session.companyId);
    expect(await db.select().from(companies).where(eq(companies.id, session.companyId))).toHaveLength(1);
    expect(auction).toMatchObject({ companyId: session.companyId, sellerId: session.sellerId });
  });

  it('a session in a given company gets a seller of that company', async () => {
    const session = await buildSession(database.db, { companyId: 'remates-fabrica' });
    const [seller] = await database.db.select().from(userProfiles).where(eq(userProfiles.userId, session.sellerId));
    expect(seller?.companyId).toBe('remates-fabrica');
  });

  it('a won auction and a payment each get a winner when none is given', async () => {
    const won = await buildWonAuction(database.db, { price: 900 });
    expect(won).toMatchObject({ status: 'ended', currentPrice: 900, bidCount: 1 });
    expect(won.currentWinnerId).not.toBeNull();
    const payment = await buildPayment(database.db);
    expect(payment.winnerId).toBeTruthy();
  });
});
