/**
 * A Redis server of the test's own (Debian's redis-server), on a free 127.0.0.1 port, keeping
 * nothing on disk: for a suite that runs inside a network namespace of its own
 * (scripts/video-netns.ts), where the machine's Redis on 127.0.0.1:6379 cannot be reached.
 *
 *   const redis = await startRedis();   // redis.url = redis://127.0.0.1:<port>
 *   await redis.stop();
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { killAndWait } from './child-process.js';
import { freePort } from './net.js';
import { sleep } from './wait.js';

export const REDIS_BINARY = 'redis-server';

/** Null when redis-server can be started here, otherwise why not (printed where a suite is skipped). */
export function redisMissingReason(): string | null {
  const found = spawnSync(REDIS_BINARY, ['--version'], { encoding: 'utf8' });
  return found.error ? `${REDIS_BINARY} is missing (apt-get install redis-server)` : null;
}

export interface RunningRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(REDIS_BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  child.stderr?.on('data', (d) => {
    output += String(d);
  });
  const url = `redis://127.0.0.1:${port}`;
  const stop = () => killAndWait(child);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}):\n${output}`);
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    // Refused while it starts: the failed connect() answers that, the event needs no report.
    client.on('error', () => {});
    const pong = await client
      .connect()
      .then(() => client.ping())
      .catch(() => null);
    client.disconnect();
    if (pong === 'PONG') return { url, stop };
    await sleep(100);
  }
  await stop();
  throw new Error(`redis-server did not answer on ${url} within 10 s:\n${output}`);
}
