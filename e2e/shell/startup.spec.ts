import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmptyPostgresDatabase } from '../../test/support/db.js';
import { root } from '../support/app.js';

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Every server this file starts: one a failed test left running is stopped after the file. */
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `npm start`'s command, as a child process with its own environment. */
function start(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  children.push(child);
  return { child, output: () => out, exited };
}

/** The banner's address, as soon as it is printed; the test's timeout bounds the wait. */
function waitForBanner(run: Running): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = run.output().match(/Martillo is running at (http:\/\/\S+)/);
      if (match) {
        run.child.stdout?.off('data', check);
        run.child.stderr?.off('data', check);
        resolve(match[1] as string);
      }
    };
    run.child.stdout?.on('data', check);
    run.child.stderr?.on('data', check);
    run.exited.then(() => reject(new Error(`exited early:\n${run.output()}`)));
    check();
  });
}

async function stop(run: Running): Promise<number | null> {
  run.child.kill('SIGTERM');
  return run.exited;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'martillo-start-'));
/**
 * Three loopback ports the kernel handed out a moment ago, all held open at once so they differ. A random port
 * could be one another file's server, running at the same time (vitest.e2e.config.ts), already listens on.
 */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}
const [port, otherPort, intruderPort] = (await freePorts(3)).map(String) as [string, string, string];
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm start', () => {
  it('serves everything on PGlite, prints one banner, keeps data across restarts and stops cleanly on SIGTERM', async () => {
    const first = start({ PORT: port, DATA_DIR: dataDir });
    const url = await waitForBanner(first);
    expect(url).toBe(`http://localhost:${port}`);
    const banner = first.output();
    expect(banner).toMatch(/database\s+embedded/);
    expect(banner).toMatch(/sign-in\s+development/);
    expect(banner).toMatch(/payments\s+sandbox/);
    expect(banner).toMatch(/video\s+embedded SFU/);
    expect(banner).toMatch(/images\s+local disk/);
    // CI installs ffmpeg (.ci/run); without it the line says `replays  off (ffmpeg not found: apt-get install ffmpeg)`.
    expect(banner).toMatch(/replays {2}on \(ffmpeg \S+\)/);
    expect(banner.match(/Martillo is running at/g)).toHaveLength(1);

    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${base}/admin`)).text()).toContain('<div id="root">');
    const signIn = await fetch(`${base}/auth/dev`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'persiste@ejemplo.mx', name: 'Persiste' }),
    });
    expect(signIn.status).toBe(200);

    // A second server on the same embedded database would corrupt it: it refuses to start.
    const intruder = start({ PORT: intruderPort, DATA_DIR: dataDir });
    expect(await intruder.exited).toBe(1);
    expect(intruder.output()).toContain('is in use by another Martillo process');
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    expect(await stop(first)).toBe(0);

    const second = start({ PORT: port, DATA_DIR: dataDir });
    await waitForBanner(second);
    // The account from the first run is still there: the form lists it.
    expect(await (await fetch(`${base}/auth/dev`)).text()).toContain('persiste@ejemplo.mx');
    expect(await stop(second)).toBe(0);
  });

  it('runs the same code and migrations on PostgreSQL when DATABASE_URL is set', async () => {
    const target = await createEmptyPostgresDatabase();
    if (!target) {
      // Without TEST_DATABASE_URL there is no server to point at; the server suites cover PGlite.
      expect(process.env.TEST_DATABASE_URL).toBeUndefined();
      return;
    }
    try {
      const [a, b] = [
        start({ PORT: port, DATA_DIR: dataDir, DATABASE_URL: target.url }),
        start({ PORT: otherPort, DATA_DIR: dataDir, DATABASE_URL: target.url }),
      ];
      await Promise.all([waitForBanner(a), waitForBanner(b)]);
      expect(a.output()).toMatch(/database\s+postgresql/);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${otherPort}/readyz`)).status).toBe(200);
      expect(await Promise.all([stop(a), stop(b)])).toEqual([0, 0]);
    } finally {
      await target.drop();
    }
  });

  it('stops with one message naming a bad variable', async () => {
    const run = start({ PORT: 'tres-mil', DATA_DIR: dataDir });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('PORT must be a port number');
    expect(run.output()).not.toMatch(/at .*\.ts:\d+/);
  });
});
