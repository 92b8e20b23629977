import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database, rows } from '../../../src/server/db/connect.js';
import { MIGRATIONS_DIR, migrateDatabase, migrationsApplied } from '../../../src/server/db/migrate.js';
import { auctions, DEFAULT_BIDDING_CONFIG, liveLots, paymentItems, payments, userProfiles } from '../../../src/server/db/schema.js';
import { createEmptyPostgresDatabase, createTestDatabase, engine, type TestDatabase } from '../../support/db.js';
import { buildAuction, buildPayment, buildSession, buildUser } from '../../support/factories.js';

const journal = JSON.parse(readFileSync(`${MIGRATIONS_DIR}/meta/_journal.json`, 'utf8')) as { entries: unknown[] };
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.destroy());

/** The constraint a failed statement broke: PGlite and pg wrap the driver error differently. */
async function violation(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    const e = err as { cause?: { constraint?: string; code?: string }; constraint?: string; code?: string };
    return e.cause?.constraint ?? e.constraint ?? e.cause?.code ?? e.code ?? 'unknown';
  }
  return 'none';
}

describe('data model', () => {
  it('applies every migration, and applying again changes nothing', async () => {
    expect(await migrationsApplied(database.db)).toBe(true);
    const count = async () => rows<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]?.n;
    const before = await count();
    expect(before).toBe(journal.entries.length);
    await migrateDatabase(database as Database);
    expect(await count()).toBe(before);
  });

  it('holds each auction in at most one draft, pending or paid payment', async () => {
    const winner = await buildUser(database.db);
    const auction = await buildAuction(database.db);
    const first = await buildPayment(database.db, { winnerId: winner.id });
    await database.db
      .insert(paymentItems)
      .values({ paymentId: first.id, paymentStatus: 'draft', auctionId: auction.id, auctionName: auction.name, amount: 700 });
    const second = await buildPayment(database.db, { winnerId: winner.id });
    expect(
      await violation(
        database.db
          .insert(paymentItems)
          .values({ paymentId: second.id, paymentStatus: 'draft', auctionId: auction.id, auctionName: auction.name, amount: 700 }),
      ),
    ).toBe('payment_items_one_holding_payment');

    // The items' status follows the payment's through the cascading key...
    await database.db.update(payments).set({ paymentStatus: 'pending' }).where(eq(payments.id, first.id));
    const [item] = await database.db.select().from(paymentItems).where(eq(paymentItems.paymentId, first.id));
    expect(item?.paymentStatus).toBe('pending');
    // ...and an item cannot claim a status its payment does not have.
    expect(await violation(database.db.update(paymentItems).set({ paymentStatus: 'canceled' }).where(eq(paymentItems.paymentId, first.id)))).toBe(
      'payment_items_payment_fk',
    );

    // Cancelling releases the auction for another payment.
    await database.db.update(payments).set({ paymentStatus: 'canceled' }).where(eq(payments.id, first.id));
    await database.db
      .insert(paymentItems)
      .values({ paymentId: second.id, paymentStatus: 'draft', auctionId: auction.id, auctionName: auction.name, amount: 700 });
    const held = await database.db.select().from(paymentItems).where(eq(paymentItems.auctionId, auction.id));
    expect(held.map((h) => h.paymentStatus).sort()).toEqual(['canceled', 'draft']);
  });

  it('keeps the grand total as item total plus shipping', async () => {
    const winner = await buildUser(database.db);
    const p = await buildPayment(database.db, { winnerId: winner.id, totalAmount: 1250, shippingCost: 180 });
    expect(p.grandTotal).toBe(1430);
    const [updated] = await database.db.update(payments).set({ shippingCost: 0 }).where(eq(payments.id, p.id)).returning();
    expect(updated?.grandTotal).toBe(1250);
  });

  it('keeps lot order unique within a session, and free across sessions', async () => {
    const seller = await buildUser(database.db, { roles: ['seller'] });
    const a = await buildSession(database.db, { sellerId: seller.id });
    const b = await buildSession(database.db, { sellerId: seller.id });
    expect(a.biddingConfig).toEqual(DEFAULT_BIDDING_CONFIG);
    const [x, y] = [await buildAuction(database.db), await buildAuction(database.db)];
    await database.db.insert(liveLots).values({ sessionId: a.id, auctionId: (x as { id: string }).id, order: 1 });
    expect(await violation(database.db.insert(liveLots).values({ sessionId: a.id, auctionId: (y as { id: string }).id, order: 1 }))).toBe(
      'live_lots_session_order_key',
    );
    await database.db.insert(liveLots).values({ sessionId: b.id, auctionId: (x as { id: string }).id, order: 1 });
    expect(await violation(database.db.insert(liveLots).values({ sessionId: a.id, auctionId: (y as { id: string }).id, order: 0 }))).toBe(
      'live_lots_order_positive',
    );
  });

  it.each([
    ['an unknown role', () => database.db.execute(sql`update user_profiles set roles = array['root']`), 'user_profiles_roles_valid'],
    ['a condition outside SPEC', () => buildAuction(database.db, { condicion: 'Roto' }), 'auctions_condicion_valid'],
    ['a buy-now price not above the start', () => buildAuction(database.db, { startingPrice: 500, buyNowPrice: 500 }), 'auctions_prices_valid'],
    ['a negative price', () => buildAuction(database.db, { startingPrice: -1 }), 'auctions_prices_valid'],
    ['seven images', () => buildAuction(database.db, { images: Array.from({ length: 7 }, (_, i) => `/u/${i}.webp`) }), 'auctions_images_max'],
    ['an unknown auction status', () => buildAuction(database.db, { status: 'sold' as 'ended' }), 'auctions_status_valid'],
  ])('refuses %s', async (_label, write, constraint) => {
    expect(await violation(write())).toBe(constraint);
  });

  it('stores times as timestamptz and money as integers', async () => {
    const columns = rows<{ table_name: string; column_name: string; data_type: string }>(
      await database.db.execute(sql`select table_name, column_name, data_type from information_schema.columns where table_schema = 'public'`),
    );
    const times = columns.filter((r) => /_at$|end_time|last_stream/.test(r.column_name));
    expect(times.length).toBeGreaterThan(20);
    for (const t of times) expect(`${t.table_name}.${t.column_name}: ${t.data_type}`).toMatch(/timestamp with time zone$/);
    const money = columns.filter((r) => /price|amount|total|shipping_cost/.test(r.column_name));
    for (const m of money) expect(`${m.table_name}.${m.column_name}: ${m.data_type}`).toMatch(/integer$/);
  });

  it('keeps a word index of the folded search text, searched by word prefix', async () => {
    await buildAuction(database.db, { name: 'Bicicléta Benotto', searchText: 'bicicleta benotto deportes' });
    const hits = await database.db
      .select({ name: auctions.name })
      .from(auctions)
      .where(sql`${auctions.searchVector} @@ to_tsquery('simple', 'bici:* & deport:*')`);
    expect(hits.map((h) => h.name)).toContain('Bicicléta Benotto');
    const found = rows<{ indexname: string }>(
      await database.db.execute(sql`select indexname from pg_indexes where tablename = 'auctions' and indexdef like '%gin (search_vector)%'`),
    );
    expect(found.map((i) => i.indexname)).toEqual(['auctions_search_idx']);
  });

  it('lets two instances migrate one empty database at once', async () => {
    // PostgreSQL: two pools on one new database. PGlite: two callers on one process's database.
    const target = engine === 'postgresql' ? await createEmptyPostgresDatabase() : null;
    const open = () => (target ? connectDatabase({ kind: 'postgresql', url: target.url }) : null);
    const first = (await open()) ?? (await connectDatabase({ kind: 'embedded', dir: null }));
    const second = (await open()) ?? first;
    try {
      await Promise.all([migrateDatabase(first), migrateDatabase(second)]);
      expect(await migrationsApplied(first.db)).toBe(true);
      expect(await first.db.select().from(userProfiles)).toEqual([]);
    } finally {
      await first.close();
      await second.close();
      await target?.drop();
    }
  });
});
