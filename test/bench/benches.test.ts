/**
 * Every bench, run as `npm run bench:*` runs it but at a tiny size: it must complete, print its
 * JSON, and pass its own consistency checks. No timing is asserted; the point is that a schema or
 * API change cannot break a bench unnoticed.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

/** The knobs that make each bench tiny. A new bench must add its own line here. */
const SMOKE: Record<string, Record<string, string>> = {
  'admin-list.ts': { AUCTIONS: '150', ITERATIONS: '2', WARMUP: '1' },
  'bids.ts': { BIDDERS: '2', VIEWERS: '3', USERS: '10', DURATION: '1', WARMUP: '0' },
  'live-show.ts': { VIEWERS: '5', LOTS: '2', TIMER: '5', BIDDERS: '2', USERS: '20' },
};
/** Shared helpers, not benches. */
const NOT_BENCHES = new Set(['support.ts']);

interface BenchOutput {
  bench: string;
  runs: { engine: string; consistency: { ok: boolean } }[];
}

function runBench(file: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // PGlite only: PostgreSQL is left to the full-size runs (no DATABASE_URL reaches the bench).
    const { DATABASE_URL: _url, ...parent } = process.env;
    const child = spawn(TSX, [`${BENCH_DIR}${file}`], { env: { ...parent, ENGINES: 'pglite', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const benches = readdirSync(BENCH_DIR).filter((f) => f.endsWith('.ts') && !NOT_BENCHES.has(f));

describe('benches at a tiny size', () => {
  it('has a smoke run for every bench', () => {
    expect(benches.sort()).toEqual(Object.keys(SMOKE).sort());
  });

  it.each(benches)('%s completes and its consistency checks hold', async (file) => {
    const { code, stdout, stderr } = await runBench(file, SMOKE[file] ?? {});
    expect(code, stderr.slice(-2_000)).toBe(0);
    const output = JSON.parse(stdout.slice(stdout.indexOf('{'))) as BenchOutput;
    expect(output.runs.map((r) => r.engine)).toEqual(['pglite']);
    for (const run of output.runs) expect(run.consistency, JSON.stringify(run.consistency)).toMatchObject({ ok: true });
  });
});
