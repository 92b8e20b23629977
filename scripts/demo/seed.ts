import { count } from 'drizzle-orm';
import type { Db } from '../../src/server/db/connect.js';
import { auctions, users } from '../../src/server/db/schema.js';
import type { Storage } from '../../src/server/providers/storage/types.js';
import { insertCategories, insertPeople, type SeededPerson } from './accounts.js';
import { writeHistory, writePayments } from './history.js';
import { createListings } from './listings.js';
import { writeLiveSessions } from './live.js';
import { writePastShow } from './past-show.js';
import { DEFAULT_SIZE, DEMO_SEED, planDemo } from './plan.js';

/** The database already holds people or auctions: the demo only fills an empty one. */
export class DemoSeedRefused extends Error {
  override name = 'DemoSeedRefused';
}

export interface SeedDemoOptions {
  db: Db;
  storage: Storage;
  log?: (line: string) => void;
  /** How many auctions (default DEFAULT_SIZE). */
  size?: number;
  seed?: number;
  /** Listings made at once (pictures are encoded on libuv's thread pool). */
  concurrency?: number;
}

export interface SeedDemoResult {
  categories: number;
  people: SeededPerson[];
  auctions: { total: number; pending: number; active: number; ended: number; endedWithWinner: number };
  images: number;
  bids: number;
  payments: { paid: number; paidAuctions: number; pendingAuctions: number };
  /** Scheduled live shows (one per seller with pending auctions), with their lots. */
  liveSessions: number;
  /** Rehearsals ('Ensayo'): one, unlisted in /live, on a seller's spare pending auctions. */
  rehearsals: number;
  /** Last night's show, ended, with unbilled winners, the record of its lots and viewers, and shipping rules. */
  pastShows: number;
  /** Milliseconds per step. */
  timings: { accounts: number; listings: number; history: number; total: number };
}

async function assertEmpty(db: Db): Promise<void> {
  const [[u], [a]] = await Promise.all([db.select({ n: count() }).from(users), db.select({ n: count() }).from(auctions)]);
  const userCount = Number(u?.n ?? 0);
  const auctionCount = Number(a?.n ?? 0);
  if (userCount === 0 && auctionCount === 0) return;
  throw new DemoSeedRefused(
    `La base de datos ya tiene datos (${userCount} usuarios, ${auctionCount} subastas); el demo solo se carga en una base vacía.\n` +
      `The database already has data (${userCount} users, ${auctionCount} auctions); the demo only fills an empty one.`,
  );
}

/**
 * Fills an empty database with the demo: categories, two companies with their admins and
 * sellers, a platform admin, buyers, a few hundred auctions with pictures, bids, winners and
 * paid orders, and tonight's live shows in the Live Hub. Refuses (DemoSeedRefused) when users or auctions already exist.
 */
export async function seedDemo(opts: SeedDemoOptions): Promise<SeedDemoResult> {
  const log = opts.log ?? (() => {});
  const started = performance.now();
  await assertEmpty(opts.db);
  const size = opts.size ?? DEFAULT_SIZE;
  log(`Cargando el demo / seeding the demo: ${size} subastas`);
  const plan = planDemo({ size, seed: opts.seed ?? DEMO_SEED });

  const categoryIds = await insertCategories(opts.db);
  const people = await insertPeople(opts.db, Date.now());
  const accountsDone = performance.now();
  log(`  ${categoryIds.size} categorías, ${people.size} cuentas`);

  const step = Math.max(10, Math.round(size / 6));
  const { ids, images } = await createListings(opts.db, opts.storage, {
    auctions: plan.auctions,
    people,
    categoryIds,
    now: Date.now(),
    concurrency: opts.concurrency ?? 4,
    onProgress: (done) => {
      if (done % step === 0 || done === size) log(`  ${done}/${size} subastas con sus imágenes`);
    },
  });
  const listingsDone = performance.now();

  // End times are relative to the end of the seed, so the shortest countdowns still have minutes to run.
  const now = Date.now();
  const history = await writeHistory(opts.db, { auctions: plan.auctions, ids, people, now });
  const paid = await writePayments(opts.db, { payments: plan.payments, auctions: plan.auctions, ids, people, now });
  const { shows: liveSessions, rehearsals } = await writeLiveSessions(opts.db, { auctions: plan.auctions, ids, people, now });
  const pastShows = await writePastShow(opts.db, { auctions: plan.auctions, payments: plan.payments, ids, people, now });
  const done = performance.now();

  const kinds = { pending: 0, active: 0, ended: 0 };
  for (const a of plan.auctions) kinds[a.kind]++;
  const paidAuctions = plan.payments.reduce((sum, p) => sum + p.auctionIndexes.length, 0);
  return {
    categories: categoryIds.size,
    people: [...people.values()],
    auctions: { total: size, ...kinds, endedWithWinner: history.winnerIds.length },
    images,
    bids: history.bids,
    payments: { paid, paidAuctions, pendingAuctions: history.winnerIds.length - paidAuctions },
    liveSessions,
    rehearsals,
    pastShows,
    timings: {
      accounts: Math.round(accountsDone - started),
      listings: Math.round(listingsDone - accountsDone),
      history: Math.round(done - listingsDone),
      total: Math.round(done - started),
    },
  };
}
