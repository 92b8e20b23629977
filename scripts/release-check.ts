/**
 * The release, checked as an operator would run it: `npm run build`, the release's files copied to
 * a scratch folder, `npm ci --omit=dev` there (no TypeScript runner, bundler, test or benchmark
 * tools may arrive), then `NODE_ENV=production npm start` against a fresh PostgreSQL database,
 * and `/readyz`, a page, its script (and no source map for it) and a bid answered. Prints one JSON
 * line with what it saw (including the idle memory of the production process) and exits 1 on the
 * first failure.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, as the test suites); `npm test` runs it when that is set.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { seedBuyers } from '../bench/support.js';
import { connectDatabase } from '../src/server/db/connect.js';
import { auctions, companies } from '../src/server/db/schema.js';
import { SESSION_COOKIE } from '../src/server/sessions/store.js';
import { createEmptyPostgresDatabase } from '../test/support/db.js';
import { freePort } from '../test/support/net.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** What a release is: the built code, the migrations, the start command and the locked dependencies. */
export const RELEASE_FILES = ['package.json', 'package-lock.json', 'scripts/start.mjs', 'drizzle', 'dist/server', 'dist/domain', 'dist/web'];
/** Development tools a production install must not contain. */
const DEV_ONLY = ['tsx', 'vite', 'esbuild', 'typescript', 'vitest', '@biomejs/biome', 'playwright-core', 'drizzle-kit', 'react', '@mantine/core'];

const report: Record<string, unknown> = {};

function step(name: string): void {
  console.error(`── release: ${name}`);
}

/** Every package folder under node_modules, nested ones too (`a`, `@s/b`, `a/node_modules/c`). */
function installedPackages(modules: string, found = new Set<string>()): Set<string> {
  if (!existsSync(modules)) return found;
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const dirs = name.startsWith('@') ? readdirSync(path.join(modules, name)).map((n) => `${name}/${n}`) : [name];
    for (const dir of dirs) {
      const full = path.join(modules, dir);
      if (!statSync(full).isDirectory()) continue;
      found.add(dir);
      installedPackages(path.join(full, 'node_modules'), found);
    }
  }
  return found;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number, server: ChildProcess, output: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) before ${what}:\n${output()}`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no ${what} within ${timeoutMs / 1000} s:\n${output()}`);
}

async function main(): Promise<void> {
  const target = await createEmptyPostgresDatabase();
  if (!target) throw new Error('the release check needs PostgreSQL: set TEST_DATABASE_URL');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'martillo-release-'));
  let server: ChildProcess | null = null;
  try {
    step('npm run build');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

    step(`copy ${RELEASE_FILES.join(', ')} to ${scratch}`);
    for (const file of RELEASE_FILES) cpSync(path.join(root, file), path.join(scratch, file), { recursive: true });

    step('npm ci --omit=dev');
    const installStarted = Date.now();
    execFileSync('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: scratch,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    report.installSeconds = Math.round((Date.now() - installStarted) / 100) / 10;
    const installed = installedPackages(path.join(scratch, 'node_modules'));
    const unwanted = DEV_ONLY.filter((name) => installed.has(name));
    if (unwanted.length > 0) throw new Error(`the production install contains development tools: ${unwanted.join(', ')}`);
    report.packages = installed.size;

    step('NODE_ENV=production npm start, on PostgreSQL');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const secret = randomBytes(32).toString('hex');
    let output = '';
    server = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: scratch,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        NODE_ENV: 'production',
        DATABASE_URL: target.url,
        DATA_DIR: path.join(scratch, 'data'),
        SESSION_SECRET: secret,
        PUBLIC_URL: base,
        PORT: String(port),
        HOST: '127.0.0.1',
        // Required in production; never reached here (nobody signs in through Google in this check).
        GOOGLE_CLIENT_ID: 'release-check',
        GOOGLE_CLIENT_SECRET: 'release-check',
        PAYMENTS_PROVIDER: 'sandbox',
        PAYMENTS_SANDBOX_PUBLIC_DEMO: 'true',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const running = server;
    running.stdout?.on('data', (d) => {
      output += String(d);
    });
    running.stderr?.on('data', (d) => {
      output += String(d);
    });
    await waitFor(
      async () => (await fetch(`${base}/readyz`)).status === 200,
      '/readyz answering 200',
      60_000,
      running,
      () => output,
    );
    report.idleRssMb = rssMb(running.pid as number);

    step('a page and its script');
    const page = await (await fetch(`${base}/`)).text();
    if (!page.includes('<div id="root">')) throw new Error(`/ is not the app's page:\n${page.slice(0, 500)}`);
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(page)?.[1];
    if (!script) throw new Error('the page names no script');
    const asset = await fetch(new URL(script, base));
    if (asset.status !== 200) throw new Error(`${script} answered ${asset.status}`);
    // Browsers get no source map: the script names none, and none is served beside it.
    if ((await asset.text()).includes('sourceMappingURL')) throw new Error(`${script} names a source map`);
    const map = await fetch(new URL(`${script}.map`, base));
    if (map.status !== 404) throw new Error(`${script}.map answered ${map.status}, not 404`);

    step('a bid');
    const database = await connectDatabase({ kind: 'postgresql', url: target.url }, { poolSize: 2 });
    let auctionId: string;
    let cookie: string;
    try {
      await database.db.insert(companies).values({ id: 'release-check', name: 'Revisión' }).onConflictDoNothing();
      const [auction] = await database.db
        .insert(auctions)
        .values({
          name: 'Reloj de bolsillo',
          description: 'Revisión del release',
          startingPrice: 500,
          companyId: 'release-check',
          status: 'active',
          endTime: new Date(Date.now() + 3_600_000),
        })
        .returning({ id: auctions.id });
      auctionId = (auction as { id: string }).id;
      cookie = (await seedBuyers(database, secret, 1)).cookies[0] as string;
    } finally {
      await database.close();
    }
    const bid = await fetch(`${base}/api/auctions/${auctionId}/bids`, {
      method: 'POST',
      headers: { cookie: `${SESSION_COOKIE}=${cookie}`, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 500 }),
    });
    if (bid.status !== 201) throw new Error(`the bid answered ${bid.status}: ${await bid.text()}`);
    const check = await connectDatabase({ kind: 'postgresql', url: target.url }, { poolSize: 1 });
    try {
      const [row] = await check.db
        .select({ bidCount: auctions.bidCount, currentPrice: auctions.currentPrice })
        .from(auctions)
        .where(eq(auctions.id, auctionId));
      if (row?.bidCount !== 1 || row.currentPrice !== 500) throw new Error(`the bid is not stored: ${JSON.stringify(row)}`);
    } finally {
      await check.close();
    }

    step('the server commands run from the release (db:backup sends PostgreSQL to pg_dump)');
    const backup = spawnSync(process.execPath, ['scripts/start.mjs', 'cli/db-backup', 'respaldo.tar.gz'], {
      cwd: scratch,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', DATABASE_URL: target.url },
      encoding: 'utf8',
    });
    if (backup.status !== 1 || !backup.stderr.includes('pg_dump')) throw new Error(`db:backup from the release: exit ${backup.status}\n${backup.stderr}`);

    step('SIGTERM');
    running.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => running.once('exit', (c) => resolve(c)));
    if (code !== 0) throw new Error(`the server exited ${code} on SIGTERM:\n${output}`);
    server = null;
    console.log(JSON.stringify({ release: 'ok', ...report }));
  } finally {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
    await target.drop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    console.log(JSON.stringify({ release: 'failed', ...report }));
    process.exit(1);
  },
);
