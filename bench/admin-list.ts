/**
 * Admin list at scale: seeds 100,000 auctions across 20 companies, with bids, winners
 * and payments, then measures the admin table's queries over real HTTP as a platform admin and as
 * a seller: p50/p95 latency and response size. Runs on PGlite, and again on PostgreSQL when
 * DATABASE_URL is set (in a throwaway database on that server). Prints one JSON document.
 *
 *   npm run bench:admin-list                      # PGlite only
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:admin-list
 *   AUCTIONS=20000 ITERATIONS=50 npm run bench:admin-list
 *
 * Knobs: AUCTIONS (100000), ITERATIONS (200), WARMUP (20), ENGINES (pglite,postgresql), DATABASE_URL.
 * Each run ends with consistency checks (`consistency.ok`): every query answered 200 and the
 * counts and pages agree with what was seeded. test/bench runs it at a tiny size.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { foldText, nameTokens } from '../src/domain/text.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { connectDatabase, type Database, rows } from '../src/server/db/connect.js';
import { migrateDatabase } from '../src/server/db/migrate.js';
import { auctions, userProfiles, users } from '../src/server/db/schema.js';
import { buildSearchText } from '../src/server/reads/search-text.js';
import { runOnEngines } from './support.js';

const AUCTIONS = Number(process.env.AUCTIONS ?? 100_000);
const COMPANIES = 20;
const SELLERS_PER_COMPANY = 2;
const BUYERS = 200;
const ITERATIONS = Number(process.env.ITERATIONS ?? 200);
const WARMUP = Number(process.env.WARMUP ?? 20);
const TARGET_P95_MS = 50;
const TARGET_PAGE_BYTES = 30 * 1024;

// A small deterministic PRNG, so every run seeds the same data.
let state = 0x9e3779b9;
function random(): number {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return ((state >>> 0) % 1_000_000) / 1_000_000;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const NOUNS = [
  'Bicicleta',
  'Reloj',
  'Cámara',
  'Guitarra',
  'Consola',
  'Celular',
  'Tenis',
  'Chamarra',
  'Lámpara',
  'Florero',
  'Laptop',
  'Bocina',
  'Taladro',
  'Muñeca',
  'Figura',
];
const ADJECTIVES = ['vintage', 'de colección', 'edición especial', 'seminueva', 'original', 'artesanal', 'clásica', 'profesional', 'importada', 'restaurada'];
const BRANDS = ['Benotto', 'Casio', 'Canon', 'Fender', 'Nintendo', 'Samsung', 'Nike', 'Levis', 'Talavera', 'Apple', 'JBL', 'Truper', 'Mattel', 'Bandai', null];
const SHIPPING = ['Envío gratis', 'Estafeta', 'DHL', 'FedEx', 'Paquetexpress', 'Recoger en tienda', null];
const CONDITIONS = ['Nuevo', 'Como Nuevo', 'Usado + (Excelente)', 'Usado (Buen Estado)', 'Usado - (Aceptable)'];
const CATEGORIES = ['Electrónica', 'Relojes', 'Música', 'Videojuegos', 'Ropa', 'Hogar', 'Herramientas', 'Juguetes', 'Deportes', 'Arte'];

interface Seeded {
  platformAdminEmail: string;
  sellerEmail: string;
  sellerCompanyId: string;
  companyAuctions: number;
  sellerAuctions: number;
  bids: number;
}

export async function seed(database: Database): Promise<Seeded> {
  state = 0x9e3779b9;
  const db = database.db;
  const categoryIds: string[] = [];
  for (const name of CATEGORIES) {
    const [row] = await db
      .execute<{ id: string }>(sql`insert into categories (name, name_key) values (${name}, ${foldText(name)}) returning id`)
      .then((r) => (r as { rows: { id: string }[] }).rows);
    categoryIds.push((row as { id: string }).id);
  }
  const categoryNames = new Map(categoryIds.map((id, i) => [id, CATEGORIES[i] as string]));

  const newUser = async (email: string, roles: string[], companyId: string | null, companyName: string | null, name: string) => {
    const [user] = await db.insert(users).values({ email }).returning({ id: users.id });
    const id = (user as { id: string }).id;
    await db.insert(userProfiles).values({ userId: id, email, firstName: name, displayName: name, roles, companyId, companyName });
    return id;
  };
  const platformAdminEmail = 'plataforma@bench.mx';
  await newUser(platformAdminEmail, ['admin'], null, null, 'Plataforma');
  const sellers: { id: string; companyId: string; companyName: string }[] = [];
  for (let c = 0; c < COMPANIES; c++) {
    const companyId = `empresa-${String(c + 1).padStart(2, '0')}`;
    const companyName = `Remates ${['del Norte', 'Tapatíos', 'del Bajío', 'Jarochos', 'del Sur'][c % 5]} ${c + 1}`;
    await newUser(`admin-${companyId}@bench.mx`, ['admin'], companyId, companyName, `Admin ${c + 1}`);
    for (let s = 0; s < SELLERS_PER_COMPANY; s++) {
      sellers.push({ id: await newUser(`vende-${s}-${companyId}@bench.mx`, ['seller'], companyId, companyName, `Vendedor ${s}`), companyId, companyName });
    }
  }
  const buyers: { id: string; name: string }[] = [];
  const buyerRows = Array.from({ length: BUYERS }, (_, i) => ({
    email: `compra-${i}@bench.mx`,
    name: `${pick(['Juana', 'Pedro', 'Lucía', 'Marco', 'Rosa', 'Luis'])} ${pick(['Pérez', 'López', 'García', 'Hernández'])}`,
  }));
  const inserted = await db
    .insert(users)
    .values(buyerRows.map((b) => ({ email: b.email })))
    .returning({ id: users.id, email: users.email });
  await db
    .insert(userProfiles)
    .values(inserted.map((u, i) => ({ userId: u.id, email: u.email, firstName: buyerRows[i]?.name, displayName: buyerRows[i]?.name, roles: ['buyer'] })));
  for (const [i, u] of inserted.entries()) buyers.push({ id: u.id, name: buyerRows[i]?.name as string });

  const now = Date.now();
  const BATCH = 1000;
  let bidTotal = 0;
  for (let start = 0; start < AUCTIONS; start += BATCH) {
    const rows: (typeof auctions.$inferInsert)[] = [];
    const bidRows: { auctionIndex: number; bidder: string; name: string; seq: number; amount: number }[] = [];
    for (let i = start; i < Math.min(start + BATCH, AUCTIONS); i++) {
      const seller = sellers[i % sellers.length] as (typeof sellers)[number];
      const categoryId = pick(categoryIds);
      const name = `${pick(NOUNS)} ${pick(ADJECTIVES)} ${i}`;
      const marca = pick(BRANDS);
      const envio = pick(SHIPPING);
      const startingPrice = 100 + Math.floor(random() * 200) * 50;
      const roll = random();
      // 60 % open, 10 % pending, 20 % ended with a winner, 10 % ended without bids.
      const status = roll < 0.6 ? 'active' : roll < 0.7 ? 'pending' : 'ended';
      const won = roll >= 0.7 && roll < 0.9;
      const bidCount = won ? 1 + Math.floor(random() * 5) : status === 'active' && random() < 0.4 ? 1 + Math.floor(random() * 4) : 0;
      const winner = won ? pick(buyers) : null;
      const currentPrice = bidCount ? startingPrice + (bidCount - 1) * 20 : null;
      let leader: (typeof buyers)[number] | null = null;
      for (let b = 0; b < bidCount; b++) {
        leader = b === bidCount - 1 && winner ? winner : pick(buyers);
        bidRows.push({ auctionIndex: rows.length, bidder: leader.id, name: leader.name, seq: b + 1, amount: startingPrice + b * 20 });
      }
      rows.push({
        name,
        nameTokens: nameTokens(name),
        searchText: buildSearchText({
          name,
          categoryName: categoryNames.get(categoryId),
          marca,
          envio,
          companyName: seller.companyName,
          winnerName: winner?.name,
        }),
        description: `${name}. Pieza revisada, lista para envío. Pregunta lo que necesites antes de pujar.`,
        startingPrice,
        buyNowPrice: random() < 0.3 ? startingPrice * 3 : null,
        currentPrice,
        bidCount,
        // As the bid engine keeps them: the last line leads, at its amount.
        leaderId: leader?.id ?? null,
        leaderMax: currentPrice,
        images: [`/uploads/images/bench/${i}.jpg`],
        categoryId,
        condicion: pick(CONDITIONS),
        marca,
        envio,
        endTime: new Date(status === 'ended' ? now - random() * 30 * 86_400_000 : now + random() * 7 * 86_400_000),
        status,
        currentWinnerId: winner?.id ?? null,
        currentWinnerName: winner?.name ?? null,
        // Ended auctions are closed, so the closing scheduler leaves them alone during the measure.
        closedAt: status === 'ended' ? new Date(now) : null,
        sellerId: seller.id,
        companyId: seller.companyId,
        createdAt: new Date(now - (AUCTIONS - i) * 60_000),
      });
    }
    const ids = await db
      .insert(auctions)
      .values(rows)
      .returning({ id: auctions.id, companyId: auctions.companyId, sellerId: auctions.sellerId, name: auctions.name, winner: auctions.currentWinnerId });
    if (bidRows.length) {
      const values = bidRows.map((b) => sql`(${ids[b.auctionIndex]?.id}::uuid, ${b.bidder}::uuid, ${b.name}, ${b.seq}, ${b.amount})`);
      await db.execute(sql`insert into bids (auction_id, bidder_id, bidder_name, seq, amount) values ${sql.join(values, sql`, `)}`);
      bidTotal += bidRows.length;
    }
    // A quarter of the won auctions are paid (one payment each), so Pagadas and Pendientes both have rows.
    for (const [k, a] of ids.entries()) {
      if (!a.winner || random() >= 0.25) continue;
      const amount = rows[k]?.currentPrice ?? 0;
      const paymentId = randomUUID();
      await db.execute(
        sql`insert into payments (id, winner_id, winner_name, seller_id, company_id, total_amount, shipping_cost, payment_status, paid_at, provider) values (${paymentId}, ${a.winner}, 'Ganador', ${a.sellerId}, ${a.companyId}, ${amount}, 150, 'paid', now(), 'sandbox')`,
      );
      await db.execute(
        sql`insert into payment_items (payment_id, payment_status, auction_id, auction_name, amount) values (${paymentId}, 'paid', ${a.id}, ${a.name}, ${amount})`,
      );
    }
  }
  await db.execute(sql`analyze`);
  const seller = sellers[0] as (typeof sellers)[number];
  const [counts] = await db
    .select({
      company: sql<number>`count(*) filter (where ${auctions.companyId} = ${seller.companyId})::int`,
      seller: sql<number>`count(*) filter (where ${auctions.sellerId} = ${seller.id})::int`,
    })
    .from(auctions);
  const [sellerRow] = await db.select({ email: users.email }).from(users).where(eq(users.id, seller.id));
  return {
    platformAdminEmail,
    sellerEmail: (sellerRow as { email: string }).email,
    sellerCompanyId: seller.companyId,
    companyAuctions: Number(counts?.company),
    sellerAuctions: Number(counts?.seller),
    bids: bidTotal,
  };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] as number) * 100) / 100;
}

async function measure(url: string, cookie: string): Promise<{ p50Ms: number; p95Ms: number; bytes: number; status: number }> {
  const times: number[] = [];
  let bytes = 0;
  let status = 0;
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const body = await res.arrayBuffer();
    const elapsed = performance.now() - started;
    status = res.status;
    bytes = body.byteLength;
    if (i >= WARMUP) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50), p95Ms: percentile(times, 95), bytes, status };
}

async function signIn(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/auth/dev`, {
    method: 'POST',
    // No Origin, like any non-browser client: the server trusts only PUBLIC_URL's, and this one listens on a random port.
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: email }),
    redirect: 'manual',
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('martillo_session='));
  if (!cookie) throw new Error(`sign-in failed for ${email}: ${res.status}`);
  return cookie.split(';')[0] as string;
}

async function runOn(engine: 'pglite' | 'postgresql', databaseUrl?: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'martillo-bench-'));
  const database = await connectDatabase(databaseUrl ? { kind: 'postgresql', url: databaseUrl } : { kind: 'embedded', dir: path.join(dataDir, 'db') });
  try {
    await migrateDatabase(database);
    const seedStarted = performance.now();
    const seeded = await seed(database);
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;

    const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '0' }, { persistSecret: false });
    const { app } = await buildApp({ config, database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const actors = { platformAdmin: await signIn(base, seeded.platformAdminEmail), seller: await signIn(base, seeded.sellerEmail) };
      const queries: Record<string, string> = {
        list: '/api/auctions?filter=all&page=1&pageSize=20',
        search: `/api/auctions?search=${encodeURIComponent('bicicleta vintage')}&page=1&pageSize=20`,
        searchRare: `/api/auctions?search=${encodeURIComponent('Benotto restaurada 4')}&page=1&pageSize=20`,
        counts: '/api/auctions/counts',
        page50: '/api/auctions?filter=all&page=50&pageSize=20',
        pending: '/api/auctions?filter=pending&page=1&pageSize=20',
        paid: '/api/auctions?filter=paid&page=1&pageSize=20',
      };
      const results: { actor: string; query: string; p50Ms: number; p95Ms: number; bytes: number; status: number }[] = [];
      for (const [actor, cookie] of Object.entries(actors)) {
        for (const [query, url] of Object.entries(queries)) results.push({ actor, query, ...(await measure(`${base}${url}`, cookie)) });
      }

      // What SPEC's client did: every auction of the company in one response.
      const allTimes: number[] = [];
      let allBytes = 0;
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        const rows = await database.db.select().from(auctions).where(eq(auctions.companyId, seeded.sellerCompanyId));
        allBytes = Buffer.byteLength(JSON.stringify(rows));
        allTimes.push(performance.now() - started);
      }
      allTimes.sort((a, b) => a - b);

      const consistency = await checkConsistency(database, base, actors, seeded);
      const listed = results.filter((r) => r.query !== 'counts');
      return {
        engine,
        auctions: AUCTIONS,
        companies: COMPANIES,
        bids: seeded.bids,
        seedSeconds,
        iterations: ITERATIONS,
        sellerAuctions: seeded.sellerAuctions,
        results,
        wholeCompanyInOneResponse: { auctions: seeded.companyAuctions, bytes: allBytes, p50Ms: percentile(allTimes, 50) },
        targets: { p95Ms: TARGET_P95_MS, pageBytes: TARGET_PAGE_BYTES },
        consistency,
        meetsTargets: consistency.ok && results.every((r) => r.status === 200 && r.p95Ms < TARGET_P95_MS) && listed.every((r) => r.bytes < TARGET_PAGE_BYTES),
      };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * What the measured answers must agree with: each actor's counts add up to the auctions they see,
 * the first page of every filter is full (or holds the whole filter), and the seeded bids are
 * numbered 1..n per auction with bid_count and the leader's price matching them.
 */
async function checkConsistency(database: Database, base: string, actors: Record<'platformAdmin' | 'seller', string>, seeded: Seeded) {
  const get = async (url: string, cookie: string) => {
    const res = await fetch(`${base}${url}`, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return (await res.json()) as { all: number; pending: number; paid: number } & { items: unknown[]; total: number };
  };
  const visible = { platformAdmin: AUCTIONS, seller: seeded.sellerAuctions };
  const countsMatch: Record<string, boolean> = {};
  const pagesFull: Record<string, boolean> = {};
  for (const [actor, cookie] of Object.entries(actors) as ['platformAdmin' | 'seller', string][]) {
    const counts = await get('/api/auctions/counts', cookie);
    countsMatch[actor] = counts.all + counts.pending + counts.paid === visible[actor];
    for (const filter of ['all', 'pending', 'paid'] as const) {
      const page = await get(`/api/auctions?filter=${filter}&page=1&pageSize=20`, cookie);
      pagesFull[`${actor}.${filter}`] = page.total === counts[filter] && page.items.length === Math.min(20, counts[filter]);
    }
  }
  const [bidRows] = rows<{ bad_seq: number; bad_count: number; bad_price: number; lines: number }>(
    await database.db.execute(sql`
      with per as (
        select a.id, a.bid_count, a.current_price, a.leader_id,
               count(b.id)::int as n, coalesce(max(b.seq), 0) as max_seq, count(distinct b.seq)::int as seqs,
               (select b2.amount from bids b2 where b2.auction_id = a.id order by b2.seq desc limit 1) as last_amount,
               (select b2.bidder_id from bids b2 where b2.auction_id = a.id order by b2.seq desc limit 1) as last_bidder
        from auctions a left join bids b on b.auction_id = a.id group by a.id)
      select count(*) filter (where max_seq <> n or seqs <> n)::int as bad_seq,
             count(*) filter (where bid_count <> n)::int as bad_count,
             count(*) filter (where n > 0 and (current_price is distinct from last_amount or leader_id is distinct from last_bidder))::int as bad_price,
             coalesce(sum(n), 0)::int as lines
      from per`),
  );
  const bidsNumbered = bidRows?.bad_seq === 0 && bidRows.bad_count === 0 && bidRows.bad_price === 0 && bidRows.lines === seeded.bids;
  const ok = Object.values(countsMatch).every(Boolean) && Object.values(pagesFull).every(Boolean) && bidsNumbered;
  return { ok, countsMatch, pagesFull, bidsNumbered };
}

if (import.meta.url === `file://${process.argv[1]}`) await runOnEngines('admin-list', runOn);
