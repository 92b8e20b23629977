import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BidAnswer } from '../../../src/domain/bidding.js';
import { buildApp } from '../../../src/server/app.js';
import type { AppContext } from '../../../src/server/context.js';
import { backupSocketPath } from '../../../src/server/db/backup.js';
import { connectDatabase, type Database } from '../../../src/server/db/connect.js';
import { auctions, bids } from '../../../src/server/db/schema.js';
import { type Bidder, buildBidder } from '../../support/actors.js';
import { buildAuction, buildUser } from '../../support/factories.js';
import { placeBid, testConfig } from '../../support/server.js';
import { runServerCommand } from '../../support/server-command.js';
import { eventually, sleep } from '../../support/wait.js';

/**
 * `npm run db:backup` and `npm run db:restore` on the embedded database, as an operator runs them
 * (the commands in child processes): a backup taken from the running server during a stream of
 * bids holds every bid accepted before it began, restores into an empty folder only, and opens as
 * the same database. Embedded only: PostgreSQL is backed up with pg_dump.
 */

const COMPANY = 'remates-respaldo';

let work: string;
let database: Database;
let app: FastifyInstance;
let ctx: AppContext;
let auctionId: string;
let bidders: Bidder[];
const dataDir = () => path.join(work, 'data');

/** Runs `npm run db:backup` or `db:restore`'s command with `env` (no .env: the test's folder has none). */
function run(script: 'db-backup' | 'db-restore', args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _url, NODE_ENV: _env, ...parent } = process.env;
  return runServerCommand(script, args, { cwd: work, env: { ...parent, ...env } });
}

interface Accepted {
  seq: number;
  amount: number;
}

/** Bids from the bidders in turn, each a step above the last accepted, until `stop` is called. */
function bidStream(): { accepted: Accepted[]; stop(): Promise<void> } {
  const accepted: Accepted[] = [];
  let stopped = false;
  let price = 1_000;
  let turn = 0;
  const loop = (async () => {
    while (!stopped) {
      const bidder = bidders[turn++ % bidders.length] as Bidder;
      const res = await placeBid({ app }, bidder, auctionId, { amount: price + 50 });
      if (res.statusCode === 201) {
        const answer = res.json() as BidAnswer;
        for (const line of answer.bids) accepted.push({ seq: line.seq, amount: line.amount });
        price = answer.state.currentPrice ?? price;
      }
      // A person's pace, under the per-bidder limit of bids in 10 s.
      await sleep(30);
    }
  })();
  return {
    accepted,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

async function openFolder(dir: string) {
  const restored = await connectDatabase({ kind: 'embedded', dir });
  const lines = await restored.db.select({ seq: bids.seq, amount: bids.amount }).from(bids).where(eq(bids.auctionId, auctionId)).orderBy(asc(bids.seq));
  const [auction] = await restored.db.select().from(auctions).where(eq(auctions.id, auctionId));
  await restored.close();
  return { lines, auction };
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'martillo-backup-'));
  database = await connectDatabase({ kind: 'embedded', dir: path.join(dataDir(), 'db') });
  ({ app, ctx } = await buildApp({ config: testConfig({ DATA_DIR: dataDir() }), database, logger: false }));
  const seller = await buildUser(ctx.db, { email: 'vende@respaldo.mx', roles: ['seller'], companyId: COMPANY });
  bidders = await Promise.all(Array.from({ length: 8 }, () => buildBidder({ ctx })));
  const auction = await buildAuction(ctx.db, {
    status: 'active',
    endTime: new Date(Date.now() + 3_600_000),
    startingPrice: 1_000,
    companyId: COMPANY,
    sellerId: seller.id,
  });
  auctionId = auction.id;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('backing up the embedded database', () => {
  it('from the running server during a stream of bids: the restored database holds every bid accepted before the backup began', async () => {
    expect(existsSync(backupSocketPath(path.join(dataDir(), 'db')))).toBe(true);
    const stream = bidStream();
    await eventually(() => stream.accepted.length >= 10);
    const beforeBackup = stream.accepted.slice();
    const backup = await run('db-backup', ['respaldo.tar.gz'], { DATA_DIR: dataDir() });
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain('from the running server');
    // The server kept taking bids while it was copied and after.
    const atEnd = stream.accepted.length;
    await eventually(() => stream.accepted.length >= atEnd + 5);
    await stream.stop();

    const restore = await run('db-restore', ['respaldo.tar.gz'], { DATA_DIR: path.join(work, 'restaurado') });
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/Restored .* \d+ auctions, \d+ bids, \d+ users/);
    const { lines, auction } = await openFolder(path.join(work, 'restaurado', 'db'));

    const restored = new Map(lines.map((l) => [l.seq, l.amount]));
    for (const bid of beforeBackup) expect(restored.get(bid.seq), `bid #${bid.seq}`).toBe(bid.amount);
    // Nothing the server did not accept, and the auction as its last bid left it.
    const accepted = new Map(stream.accepted.map((b) => [b.seq, b.amount]));
    for (const line of lines) expect(accepted.get(line.seq), `restored bid #${line.seq}`).toBe(line.amount);
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(auction?.bidCount).toBe(lines.length);
    expect(auction?.currentPrice).toBe(lines.at(-1)?.amount);
  });

  it('never overwrites a file, and never restores into a folder that holds something', async () => {
    const again = await run('db-backup', ['respaldo.tar.gz'], { DATA_DIR: dataDir() });
    expect(again.code).toBe(1);
    expect(again.out).toContain('already exists');

    const busy = path.join(work, 'ocupado');
    mkdirSync(path.join(busy, 'db'), { recursive: true });
    writeFileSync(path.join(busy, 'db', 'algo.txt'), 'datos de otra instalación');
    const refused = await run('db-restore', ['respaldo.tar.gz'], { DATA_DIR: busy });
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('is not empty');
    expect(readdirSync(path.join(busy, 'db'))).toEqual(['algo.txt']);
  });

  it('refuses a file that is not a backup, and leaves no folder behind', async () => {
    writeFileSync(path.join(work, 'notas.txt'), 'no es un respaldo');
    const target = path.join(work, 'vacio');
    const refused = await run('db-restore', ['notas.txt'], { DATA_DIR: target });
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('is not a Martillo backup');
    expect(existsSync(path.join(target, 'db'))).toBe(false);
  });

  it('sends PostgreSQL to pg_dump', async () => {
    const refused = await run('db-backup', ['pg.tar.gz'], { DATA_DIR: dataDir(), DATABASE_URL: 'postgres://127.0.0.1:5432/martillo' });
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('pg_dump');
    expect(existsSync(path.join(work, 'pg.tar.gz'))).toBe(false);
  });

  it('with no server running, opens the folder itself; the restore has every bid', async () => {
    const { lines: live } = await openFolderWhileServing();
    await app.close();
    await database.close();
    const backup = await run('db-backup', ['apagado.tar.gz'], { DATA_DIR: dataDir() });
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain('with no server running');
    const restore = await run('db-restore', ['apagado.tar.gz'], { DATA_DIR: path.join(work, 'restaurado-2') });
    expect(restore.code, restore.out).toBe(0);
    const { lines } = await openFolder(path.join(work, 'restaurado-2', 'db'));
    expect(lines).toEqual(live);
  });
});

/** The bids as the running server has them. */
async function openFolderWhileServing() {
  const lines = await ctx.db.select({ seq: bids.seq, amount: bids.amount }).from(bids).where(eq(bids.auctionId, auctionId)).orderBy(asc(bids.seq));
  return { lines };
}
