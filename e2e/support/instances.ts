import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sleep } from '../../test/support/wait.js';
import { root } from './app.js';

/**
 * One production instance of the built release (`npm run build`), as an operator starts it:
 * `NODE_ENV=production node scripts/start.mjs`, its own port and data folder, everything else
 * shared with the other instances through `env` (DATABASE_URL, REDIS_URL, JANUS_URL, SESSION_SECRET…).
 * It can be killed (SIGKILL: a crash) or stopped (SIGTERM: a deploy), then started again on the same port.
 */
export class ProductionInstance {
  private child: ChildProcess | null = null;
  private output = '';

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  logTail(): string {
    return this.output.slice(-8_000);
  }

  /** Starts it and resolves once its own /readyz answers 200. */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...this.env, NODE_ENV: 'production', PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (d: unknown) => {
      this.output = (this.output + String(d)).slice(-50_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`${this.name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${this.logTail()}`);
      const ready = await fetch(`http://127.0.0.1:${this.port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return;
      await sleep(200);
    }
    throw new Error(`${this.name} was not ready within 60 s:\n${this.logTail()}`);
  }

  /** Sends the signal and resolves with the exit code (null when a signal ended it). */
  async signal(sig: 'SIGKILL' | 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    if (!child || !this.running) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(sig);
    return exited;
  }

  async stop(): Promise<void> {
    if (this.running) await this.signal('SIGKILL');
  }
}

/** Waits until `check` holds (an instance back in the balancer, say), polling every 200 ms. */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`not within ${timeoutMs / 1000} s: ${what}`);
}

/**
 * PostgreSQL as this process reaches it: inside the video suite's network namespace
 * (scripts/video-netns.ts) the machine's 127.0.0.1 is not this namespace's, but the server's Unix
 * socket (a file) is, so a loopback address is turned into the socket's folder when it is there.
 */
export function postgresReachableHere(url: string, socketDir = '/var/run/postgresql'): string {
  if (!process.env.MARTILLO_VIDEO_NETNS) return url;
  const parsed = new URL(url);
  if (!['127.0.0.1', 'localhost'].includes(parsed.hostname)) return url;
  if (!existsSync(path.join(socketDir, `.s.PGSQL.${parsed.port || '5432'}`))) return url;
  parsed.searchParams.set('host', socketDir);
  return parsed.href;
}
