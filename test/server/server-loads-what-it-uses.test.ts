import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEmptyPostgresDatabase, engine } from '../support/db.js';

/**
 * A started server imports what its configuration uses and nothing else: an image library, Redis's
 * client or the other engine's driver loaded at start is memory held for nothing (bench/README.md,
 * idle memory: a server on PostgreSQL idled at 144–151 MB with all of them, 130–136 MB without).
 */
const FIXTURE = fileURLToPath(new URL('./fixtures/started-server-packages.ts', import.meta.url));

async function packagesOfAStartedServer(env: Record<string, string>): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'martillo-packages-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code, err).toBe(0);
    return JSON.parse(out) as string[];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Loaded only by what needs them: the first image, several instances, the chosen engine. */
const IMAGE = ['sharp', 'file-type'];
const REDIS = ['ioredis', '@socket.io/redis-adapter'];
const PGLITE = ['@electric-sql/pglite'];
const POSTGRES = ['pg'];

// Each test starts a whole server in a child process, from the TypeScript sources (tsx) and, on
// PGlite, with every migration: 22 s here while another test run shared the 2 cores, and a CI run
// went past the suite's 30 s. The limit is only there to end a start that hangs.
const START_LIMIT_MS = 120_000;

describe('a started server', () => {
  it.runIf(engine === 'postgresql')('on PostgreSQL loads neither PGlite, nor the image library, nor Redis', { timeout: START_LIMIT_MS }, async () => {
    const database = await createEmptyPostgresDatabase();
    if (!database) throw new Error('needs TEST_DATABASE_URL');
    try {
      const loaded = await packagesOfAStartedServer({ DATABASE_URL: database.url });
      // The fixture sees packages at all: the server's own are there.
      expect(loaded).toEqual(expect.arrayContaining(['fastify', 'socket.io', 'pg']));
      expect(loaded.filter((name) => [...PGLITE, ...IMAGE, ...REDIS].includes(name))).toEqual([]);
    } finally {
      await database.drop();
    }
  });

  it.runIf(engine === 'pglite')(
    'on the embedded database loads neither PostgreSQL’s driver, nor the image library, nor Redis',
    { timeout: START_LIMIT_MS },
    async () => {
      const loaded = await packagesOfAStartedServer({});
      expect(loaded).toEqual(expect.arrayContaining(['fastify', 'socket.io', '@electric-sql/pglite']));
      expect(loaded.filter((name) => [...POSTGRES, ...IMAGE, ...REDIS].includes(name))).toEqual([]);
    },
  );
});
