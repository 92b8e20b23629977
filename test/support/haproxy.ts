/**
 * HAProxy from Debian in front of several server instances, with the configuration an operator
 * uses (deploy/haproxy.cfg), its addresses given through the environment as that file says.
 *
 *   const lb = await startHaproxy({ app1: 41001, app2: 41002 });   // lb.url = http://127.0.0.1:<port>
 *   await lb.stop();
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAndWait } from './child-process.js';
import { freePort } from './net.js';
import { sleep } from './wait.js';

export const HAPROXY_BINARY = '/usr/sbin/haproxy';
export const HAPROXY_CONFIG = fileURLToPath(new URL('../../deploy/haproxy.cfg', import.meta.url));

/** Null when HAProxy can run here, otherwise why not (printed where a suite is skipped). */
export function haproxyMissingReason(): string | null {
  const found = spawnSync(HAPROXY_BINARY, ['-v'], { encoding: 'utf8' });
  return found.error || found.status !== 0 ? `${HAPROXY_BINARY} is missing (apt-get install haproxy)` : null;
}

export interface LoggedRequest {
  backend: string;
  /** The server that answered, or `<NOSRV>`. */
  server: string;
  status: number;
  method: string;
  path: string;
}

export interface RunningHaproxy {
  /** http://127.0.0.1:<port>, the product's public address. */
  url: string;
  port: number;
  logTail(): string;
  /** HAProxy's log lines for requests that did not end normally (cut, 5xx), and servers going DOWN or UP. */
  unusual(): string[];
  /** Every request HAProxy logged so far (the latest 100,000): which backend and server took it. */
  requests(): LoggedRequest[];
  stop(): Promise<void>;
}

/** Starts HAProxy on a free port for the two instances' ports; resolves once it accepts connections. */
export async function startHaproxy(instances: { app1: number; app2: number }, port?: number): Promise<RunningHaproxy> {
  const bindPort = port ?? (await freePort());
  let output = '';
  const child: ChildProcess = spawn(HAPROXY_BINARY, ['-db', '-f', HAPROXY_CONFIG], {
    cwd: path.dirname(HAPROXY_CONFIG),
    env: {
      PATH: process.env.PATH ?? '',
      MARTILLO_BIND: `127.0.0.1:${bindPort}`,
      MARTILLO_APP1: `127.0.0.1:${instances.app1}`,
      MARTILLO_APP2: `127.0.0.1:${instances.app2}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const unusual: string[] = [];
  const requests: LoggedRequest[] = [];
  let partial = '';
  const keep = (d: unknown) => {
    output = (output + String(d)).slice(-20_000);
    const lines = (partial + String(d)).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (isUnusual(line)) unusual.push(line);
      const request = loggedRequest(line);
      if (request && requests.push(request) > 100_000) requests.shift();
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${bindPort}`;
  const stop = () => killAndWait(child);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${output}`);
    // Any answer (even a 503 while no instance is up yet) means it listens.
    if (
      await fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      )
    )
      return { url, port: bindPort, logTail: () => output, unusual: () => [...unusual], requests: () => [...requests], stop };
    await sleep(100);
  }
  await stop();
  throw new Error(`haproxy did not listen on ${url} within 10 s:\n${output}`);
}

/** In deploy/haproxy.cfg's httplog format: `... Tq/Tw/Tc/Tr/Ta status bytes - - TERM ...`. */
const REQUEST_LINE = /\s(-?\d+)\s+\d+\s+\S+\s+\S+\s+([A-Za-z-]{4})\s/;

/** `... frontend backend/server Tq/Tw/Tc/Tr/Ta status ... "METHOD /path HTTP/1.1"`. */
const ROUTED_LINE = /\s(\S+)\/(\S+)\s+-?\d+\/-?\d+\/-?\d+\/-?\d+\/-?\d+\s+(-?\d+)\s.*"([A-Z]+) ([^ ?"]+)/;

function loggedRequest(line: string): LoggedRequest | null {
  const m = ROUTED_LINE.exec(line);
  if (!m) return null;
  const [, backend, server, status, method, pathname] = m;
  return { backend: backend as string, server: server as string, status: Number(status), method: method as string, path: pathname as string };
}

function isUnusual(line: string): boolean {
  if (/ is (DOWN|UP)\b/.test(line)) return true;
  const request = REQUEST_LINE.exec(line);
  if (!request) return false;
  const [, status, termination] = request;
  return Number(status) < 0 || Number(status) >= 500 || !(termination as string).startsWith('-');
}
