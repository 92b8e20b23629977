/**
 * The buyers' front door at scale: seeds 100,000 auctions, 2,000 scheduled shows (20 lots each),
 * a few live ones and some ended ones, then measures GET /api/home (signed out, by category,
 * signed in) , GET /api/search (a common word, two words, a rare one, a category) and a seller's
 * page over real HTTP: p50/p95 per query, three rounds, and the median of the three p95s. Runs on
 * PGlite, and again on PostgreSQL when DATABASE_URL is set (in a throwaway database). Prints one
 * JSON document.
 *
 *   npm run bench:storefront
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres ENGINES=postgresql npm run bench:storefront
 *
 * Knobs: AUCTIONS (100000), SHOWS (2000), LOTS (20 per show), LIVE (12), ITERATIONS (100 per round),
 * ROUNDS (3), WARMUP (10), ENGINES (pglite,postgresql), DATABASE_URL.
 * `consistency.ok`: every answer was 200, the home lists what was seeded, and every search hit holds
 * the word searched. test/bench runs it at a tiny size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { HomeAnswer, SearchAnswer, SellerPageAnswer } from '../src/domain/storefront.js';
import { foldText } from '../src/domain/text.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { connectDatabase, type Database, rows } from '../src/server/db/connect.js';
import { migrateDatabase } from '../src/server/db/migrate.js';
import { percentile, runOnEngines, seedBuyers } from './support.js';

const AUCTIONS = Number(process.env.AUCTIONS ?? 100_000);
const SHOWS = Number(process.env.SHOWS ?? 2_000);
const LOTS = Number(process.env.LOTS ?? 20);
const LIVE = Number(process.env.LIVE ?? 12);
const ITERATIONS = Number(process.env.ITERATIONS ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 10);
const SELLERS = 200;
const TARGET_P95_MS = 50;

const NOUNS = [
  'Relój',
  'Bicicleta',
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
  'Moneda',
  'Billete',
  'Disco',
  'Libro',
  'Juguete',
];
const ADJECTIVES = ['vintage', 'de colección', 'edición especial', 'seminueva', 'original', 'artesanal', 'clásica', 'profesional', 'importada', 'restaurada'];
const BRANDS = [
  'Benotto',
  'Casio',
  'Canon',
  'Fender',
  'Nintendo',
  'Samsung',
  'Nike',
  'Levis',
  'Talavera',
  'Apple',
  'JBL',
  'Truper',
  'Mattel',
  'Bandai',
  'Seiko',
  'Omega',
  'Zenith',
];
const CATEGORIES = ['Electrónica', 'Relojes', 'Música', 'Videojuegos', 'Ropa', 'Hogar', 'Herramientas', 'Juguetes', 'Deportes', 'Arte'];

const textArray = (list: readonly string[]) => sql.raw(`(array[${list.map((w) => `'${w.replace(/'/g, "''")}'`).join(', ')}]::text[])`);

interface Seeded {
  categoryId: string;
  sellerSlug: string;
  buyerEmail: string;
}

/**
 * One statement per table, generated in the database (generate_series), so 100,000 auctions take
 * seconds. Auctions 1..SHOWS*LOTS are the scheduled shows' lots (pending, as lots wait), the next
 * LIVE*LOTS the live shows' (the first of each on the block), the rest on their own: half open,
 * a fifth drafts, the rest ended.
 */
async function seed(database: Database): Promise<Seeded> {
  const db = database.db;
  await db.execute(
    sql`insert into categories (name, name_key) values ${sql.join(
      CATEGORIES.map((c) => sql`(${c}, ${foldText(c)})`),
      sql`, `,
    )}`,
  );
  await db.execute(sql`create table bench_categories as select row_number() over (order by name_key) as n, id from categories`);
  await db.execute(sql`insert into users (email) select 'vende-' || i || '@bench.mx' from generate_series(1, ${SELLERS}) i`);
  await db.execute(sql`insert into users (email) values ('compra@bench.mx')`);
  await db.execute(sql`
    insert into companies (id, name) select 'empresa-' || i, 'Remates ' || i from generate_series(1, ${SELLERS}) i`);
  await db.execute(sql`
    insert into user_profiles (user_id, email, first_name, display_name, roles, company_id, store_slug, city)
    select u.id, u.email, 'Vendedor', 'Vendedor ' || split_part(split_part(u.email, '@', 1), '-', 2), array['seller', 'buyer'],
           'empresa-' || split_part(split_part(u.email, '@', 1), '-', 2), 'tienda-' || split_part(split_part(u.email, '@', 1), '-', 2), 'Guadalajara'
      from users u where u.email like 'vende-%'`);
  await db.execute(
    sql`insert into user_profiles (user_id, email, first_name, roles) select id, email, 'Compradora', array['buyer'] from users where email = 'compra@bench.mx'`,
  );
  await db.execute(
    sql`create table bench_sellers as select row_number() over (order by p.store_slug) as n, p.user_id as id, p.company_id from user_profiles p where p.store_slug is not null`,
  );

  const lotsScheduled = SHOWS * LOTS;
  const lotsLive = LIVE * LOTS;
  const nouns = textArray(NOUNS);
  const adjectives = textArray(ADJECTIVES);
  const brands = textArray(BRANDS);
  await db.execute(sql`
    insert into auctions (name, description, starting_price, current_price, bid_count, status, end_time, closed_at, category_id, seller_id, company_id, images, created_at)
    select ${nouns}[1 + (i * 7) % ${NOUNS.length}] || ' ' || ${brands}[1 + (i * 11) % ${BRANDS.length}] || ' ' || ${adjectives}[1 + (i * 13) % ${ADJECTIVES.length}] || ' ' || i,
           'Pieza revisada, lista para envío. ' || ${brands}[1 + (i * 5) % ${BRANDS.length}] || ' ' || ${adjectives}[1 + (i * 3) % ${ADJECTIVES.length}] || '. Pregunta antes de pujar.',
           100 + (i % 200) * 50,
           case when i > ${lotsScheduled} and i % 10 < 2 then 100 + (i % 200) * 50 + 20 end,
           case when i > ${lotsScheduled} and i % 10 < 2 then 1 else 0 end,
           case when i <= ${lotsScheduled} then 'pending'
                when i <= ${lotsScheduled + lotsLive} then 'pending'
                when i % 10 < 5 then 'active' when i % 10 < 7 then 'pending' else 'ended' end,
           case when i <= ${lotsScheduled + lotsLive} then null
                when i % 10 < 5 then now() + (i % 10000) * interval '1 minute'
                when i % 10 < 7 then null else now() - (i % 1000) * interval '1 hour' end,
           case when i > ${lotsScheduled + lotsLive} and i % 10 >= 7 then now() end,
           c.id, s.id, s.company_id,
           array['/uploads/images/bench/' || i || '.jpg'],
           now() - (${AUCTIONS} - i) * interval '1 second'
      from generate_series(1, ${AUCTIONS}) i
      join bench_categories c on c.n = 1 + (i / 7) % ${CATEGORIES.length}
      join bench_sellers s on s.n = 1 + i % ${SELLERS}`);
  await db.execute(sql`create table bench_auctions as select row_number() over (order by created_at, id) as n, id from auctions`);
  // Scheduled shows over the next 30 days, the live ones started within the hour, and some ended.
  await db.execute(sql`
    insert into live_sessions (title, seller_id, company_id, seller_slug, status, scheduled_at, cover_image_url)
    select 'Show ' || i, s.id, s.company_id, 'tienda-' || s.n,
           case when i <= ${SHOWS} then 'scheduled' else 'live' end,
           case when i <= ${SHOWS} then now() + (i * ${Math.max(1, Math.floor(2_592_000 / SHOWS))}) * interval '1 second' else now() - interval '30 minutes' end,
           '/uploads/images/bench/cover-' || i || '.jpg'
      from generate_series(1, ${SHOWS + LIVE}) i join bench_sellers s on s.n = 1 + i % ${SELLERS}`);
  await db.execute(sql`
    insert into live_sessions (title, seller_id, company_id, seller_slug, status, scheduled_at)
    select 'Show pasado ' || i, s.id, s.company_id, 'tienda-' || s.n, 'ended', now() - i * interval '1 day'
      from generate_series(1, 500) i join bench_sellers s on s.n = 1 + i % ${SELLERS}`);
  await db.execute(
    sql`create table bench_sessions as select row_number() over (order by substr(title, 6)::int) as n, id from live_sessions where status <> 'ended'`,
  );
  await db.execute(sql`
    insert into live_lots (session_id, auction_id, "order")
    select s.id, a.id, 1 + (a.n - 1) % ${LOTS}
      from bench_auctions a join bench_sessions s on s.n = 1 + (a.n - 1) / ${LOTS}
     where a.n <= ${lotsScheduled + lotsLive}`);
  await db.execute(sql`
    update live_sessions s set current_lot_id = l.id from live_lots l where l.session_id = s.id and l."order" = 1 and s.status = 'live'`);
  await db.execute(sql`
    update auctions a set status = 'live', end_time = now() + interval '1 minute'
      from live_lots l join live_sessions s on s.current_lot_id = l.id where a.id = l.auction_id`);
  // A buyer with a few reminders, and followers for the first seller.
  await db.execute(sql`
    insert into session_reminders (user_id, session_id)
    select u.id, s.id from users u, bench_sessions s where u.email = 'compra@bench.mx' and s.n % 100 = 1`);
  await db.execute(
    sql`insert into seller_follows (follower_id, seller_id) select u.id, s.id from users u, bench_sellers s where u.email = 'compra@bench.mx' and s.n <= 20`,
  );
  await db.execute(sql`drop table bench_categories, bench_sellers, bench_auctions, bench_sessions`);
  await db.execute(sql`analyze`);
  const [category] = rows<{ id: string }>(await db.execute(sql`select id from categories where name_key = 'relojes'`));
  return { categoryId: (category as { id: string }).id, sellerSlug: 'tienda-1', buyerEmail: 'compra@bench.mx' };
}

async function signIn(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/auth/dev`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: 'Compradora' }),
    redirect: 'manual',
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('martillo_session='));
  if (!cookie) throw new Error(`sign-in failed for ${email}: ${res.status}`);
  return cookie.split(';')[0] as string;
}

/** One round of requests; with `cookies`, each request as the next buyer (the search is rate-limited per person). */
async function round(url: string, cookies: string[] | null): Promise<{ p50Ms: number; p95Ms: number; bytes: number; statuses: number[] }> {
  const times: number[] = [];
  let bytes = 0;
  const statuses = new Set<number>();
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const cookie = cookies ? cookies[i % cookies.length] : undefined;
    const started = performance.now();
    const res = await fetch(url, cookie ? { headers: { cookie } } : {});
    const body = await res.arrayBuffer();
    const elapsed = performance.now() - started;
    statuses.add(res.status);
    bytes = body.byteLength;
    if (i >= WARMUP) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50) ?? 0, p95Ms: percentile(times, 95) ?? 0, bytes, statuses: [...statuses] };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function runOn(engine: 'pglite' | 'postgresql', databaseUrl?: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'martillo-bench-'));
  const database = await connectDatabase(databaseUrl ? { kind: 'postgresql', url: databaseUrl } : { kind: 'embedded', dir: path.join(dataDir, 'db') });
  try {
    await migrateDatabase(database);
    const seedStarted = performance.now();
    const seeded = await seed(database);
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
    const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '0' }, { persistSecret: false });
    // No background job: the closing scheduler would close the seeded ended auctions' neighbours while measuring.
    const { app } = await buildApp({ config, database, logger: false, jobs: [] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const buyer = await signIn(base, seeded.buyerEmail);
      // The search allows 120 a minute per person: the bench searches as many signed-in buyers in turn.
      const searchers = (await seedBuyers(database, config.sessionSecret, 60)).cookies;
      const queries: { name: string; url: string; cookies: string[] | null }[] = [
        { name: 'home', url: '/api/home', cookies: null },
        { name: 'homeSignedIn', url: '/api/home', cookies: [buyer] },
        { name: 'homeCategory', url: `/api/home?categoryId=${seeded.categoryId}`, cookies: null },
        { name: 'searchCommon', url: `/api/search?q=${encodeURIComponent('reloj')}`, cookies: searchers },
        { name: 'searchTwoWords', url: `/api/search?q=${encodeURIComponent('bicicleta vintage')}`, cookies: searchers },
        { name: 'searchRare', url: `/api/search?q=${encodeURIComponent('zenith restaurada 4')}`, cookies: searchers },
        { name: 'searchCategory', url: `/api/search?q=${encodeURIComponent('casio')}&categoryId=${seeded.categoryId}`, cookies: searchers },
        { name: 'sellerPage', url: `/api/sellers/${seeded.sellerSlug}`, cookies: [buyer] },
      ];
      const results = [];
      for (const q of queries) {
        const rounds = [];
        for (let r = 0; r < ROUNDS; r++) rounds.push(await round(`${base}${q.url}`, q.cookies));
        results.push({
          query: q.name,
          url: q.url,
          bytes: rounds[0]?.bytes ?? 0,
          p50Ms: rounds.map((r) => r.p50Ms),
          p95Ms: rounds.map((r) => r.p95Ms),
          medianP95Ms: median(rounds.map((r) => r.p95Ms)),
          statuses: [...new Set(rounds.flatMap((r) => r.statuses))],
        });
      }
      const consistency = await checkConsistency(base, buyer, seeded);
      return {
        engine,
        auctions: AUCTIONS,
        scheduledShows: SHOWS,
        liveShows: LIVE,
        lotsPerShow: LOTS,
        seedSeconds,
        iterationsPerRound: ITERATIONS,
        rounds: ROUNDS,
        results,
        targets: { p95Ms: TARGET_P95_MS },
        consistency,
        meetsTargets: consistency.ok && results.every((r) => r.medianP95Ms < TARGET_P95_MS && r.statuses.every((s) => s === 200)),
      };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What the measured answers must say of the seeded data. */
async function checkConsistency(base: string, buyer: string, seeded: Seeded) {
  const get = async <T>(url: string, cookie: string | null = null): Promise<T> => {
    const res = await fetch(`${base}${url}`, cookie ? { headers: { cookie } } : {});
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return (await res.json()) as T;
  };
  const home = await get<HomeAnswer>('/api/home', buyer);
  const homeListsSeeded =
    home.live.length === Math.min(LIVE, 60) &&
    home.upcoming.length === Math.min(SHOWS, 30) &&
    home.live.every((s) => s.currentLot !== null && s.lots.length === Math.min(4, LOTS - 1)) &&
    home.upcoming.every((s, i, all) => i === 0 || (all[i - 1] as { scheduledAt: number }).scheduledAt <= s.scheduledAt) &&
    home.categories.length === CATEGORIES.length;
  const remindedShown = home.upcoming.some((s) => s.reminded);
  const search = await get<SearchAnswer>(`/api/search?q=reloj`, buyer);
  const searchHitsMatch = search.items.length > 0 && search.items.every((i) => foldText(i.name).includes('reloj'));
  const byCategory = await get<HomeAnswer>(`/api/home?categoryId=${seeded.categoryId}`);
  const categoryFilters = byCategory.upcoming.every((s) => s.categoryIds.includes(seeded.categoryId));
  const page = await get<SellerPageAnswer>(`/api/sellers/${seeded.sellerSlug}`, buyer);
  const sellerPage = page.seller.slug === seeded.sellerSlug && page.seller.following && !JSON.stringify(page).includes('@');
  const ok = homeListsSeeded && remindedShown && searchHitsMatch && categoryFilters && sellerPage;
  return { ok, homeListsSeeded, remindedShown, searchHitsMatch, categoryFilters, sellerPage };
}

if (import.meta.url === `file://${process.argv[1]}`) await runOnEngines('storefront', runOn);
