/**
 * A real Janus (Debian's janus 1.1.2) for a test or a bench: only the VideoRoom plugin and
 * the WebSocket transport, on a free 127.0.0.1 port, with a configuration generated into a temp dir.
 *
 *   const janus = await startJanus();              // control plane only (room, join, tokens)
 *   const janus = await startJanus({ netns: true }); // media too: inside scripts/video-netns.ts
 *   … janus.url …                                   // ws://127.0.0.1:<port>
 *   await janus.stop();
 *
 * Media needs the loopback-only network namespace of scripts/video-netns.ts: Janus (libnice)
 * gathers no candidate on an interface flagged loopback, so it is told to gather only on the veth
 * `vlo0` that carries 127.0.0.2 there (`ice_enforce_list`). Run the whole test process inside it
 * (`npx tsx scripts/video-netns.ts -- npx vitest run …`) so Janus, the server and Chromium share it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { freePort } from './net.js';
import { sleep } from './wait.js';

export const JANUS_BINARY = '/usr/bin/janus';
const LIB = '/usr/lib/x86_64-linux-gnu/janus';
const VETH = 'vlo0';

export interface StartJanusOptions {
  /**
   * true: gather ICE candidates only on `vlo0` (throws when this process is not inside a namespace
   * of scripts/video-netns.ts); false: never; unset: when `vlo0` exists here.
   */
  netns?: boolean;
  /** The VideoRoom's `admin_key`: rooms can then be created only with it (JANUS_ADMIN_KEY). */
  adminKey?: string;
  /** Janus's session_timeout in seconds (60 by default, as in production). */
  sessionTimeout?: number;
  /** A fixed WebSocket port (a restart on the same address); a free one by default. */
  port?: number;
}

export interface RunningJanus {
  /** ws://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Whether ICE gathering is restricted to vlo0 (media works only inside the namespace). */
  netns: boolean;
  /** The last lines Janus printed (for a failing test's message). */
  logTail(): string;
  /** Kills Janus (SIGTERM, then SIGKILL) and removes its configuration. Idempotent. */
  stop(): Promise<void>;
}

/** Null when Janus can run here, otherwise why not (printed where a suite is skipped). */
export function janusMissingReason(): string | null {
  if (!existsSync(JANUS_BINARY)) return `${JANUS_BINARY} is missing (apt-get install janus)`;
  if (!existsSync(join(LIB, 'plugins', 'libjanus_videoroom.so'))) return `${LIB}/plugins/libjanus_videoroom.so is missing`;
  if (!existsSync(join(LIB, 'transports', 'libjanus_websockets.so'))) return `${LIB}/transports/libjanus_websockets.so is missing`;
  return null;
}

/** Every .so in a folder but the ones kept: Janus loads whatever it is not told to disable. */
function disableAllBut(folder: string, keep: string[]): string {
  if (!existsSync(folder)) return '';
  return readdirSync(folder)
    .filter((f) => f.endsWith('.so') && !keep.includes(f))
    .join(',');
}

function writeConfig(dir: string, o: { port: number; netns: boolean; adminKey?: string; sessionTimeout: number }): void {
  const q = (s: string) => JSON.stringify(s);
  writeFileSync(
    join(dir, 'janus.jcfg'),
    `general: {
  configs_folder = ${q(dir)}
  plugins_folder = ${q(join(LIB, 'plugins'))}
  transports_folder = ${q(join(LIB, 'transports'))}
  events_folder = ${q(join(LIB, 'events'))}
  loggers_folder = ${q(join(LIB, 'loggers'))}
  debug_level = 4
  session_timeout = ${o.sessionTimeout}
  # A fixed pool of loops instead of a thread per handle: half the CPU with 300 viewers (docs/live-video.md).
  event_loops = 2
  server_name = "martillo-test"
}
certificates: {
}
media: {
  rtp_port_range = "20000-40000"
}
nat: {
${o.netns ? `  ice_enforce_list = ${q(VETH)}\n` : ''}  ignore_mdns = true
}
plugins: {
  disable = ${q(disableAllBut(join(LIB, 'plugins'), ['libjanus_videoroom.so']))}
}
transports: {
  disable = ${q(disableAllBut(join(LIB, 'transports'), ['libjanus_websockets.so']))}
}
loggers: {
  disable = ${q(disableAllBut(join(LIB, 'loggers'), []))}
}
events: {
  broadcast = false
  disable = ${q(disableAllBut(join(LIB, 'events'), []))}
}
`,
  );
  writeFileSync(join(dir, 'janus.plugin.videoroom.jcfg'), `general: {\n${o.adminKey ? `  admin_key = ${q(o.adminKey)}\n` : ''}}\n`);
  writeFileSync(
    join(dir, 'janus.transport.websockets.jcfg'),
    `general: {
  json = "compact"
  ws = true
  ws_port = ${o.port}
  ws_ip = "127.0.0.1"
  wss = false
}
admin: {
  admin_ws = false
  admin_wss = false
}
`,
  );
}

/** One Janus API `info` round trip: true when Janus answers on the WebSocket. */
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, 'janus-protocol');
    const done = (ok: boolean) => {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.terminate();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 2000);
    ws.on('open', () => ws.send(JSON.stringify({ janus: 'info', transaction: 'ready' })));
    ws.on('message', (data) => {
      try {
        done((JSON.parse(String(data)) as { janus?: string }).janus === 'server_info');
      } catch {
        done(false);
      }
    });
    ws.on('error', () => done(false));
  });
}

const running = new Set<ChildProcess>();
// A test process that exits without stop() must not leave Janus behind (setpriv covers a crash).
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startJanus(opts: StartJanusOptions = {}): Promise<RunningJanus> {
  const missing = janusMissingReason();
  if (missing) throw new Error(`cannot start Janus: ${missing}`);
  const hasVeth = existsSync(`/sys/class/net/${VETH}`);
  if (opts.netns === true && !hasVeth) {
    throw new Error(`startJanus({ netns: true }): no ${VETH} here; run the test inside scripts/video-netns.ts (npx tsx scripts/video-netns.ts -- <command>)`);
  }
  const netns = opts.netns ?? hasVeth;
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'martillo-janus-'));
  writeConfig(dir, { port, netns, adminKey: opts.adminKey, sessionTimeout: opts.sessionTimeout ?? 60 });

  const args = ['-F', dir, '-C', join(dir, 'janus.jcfg'), '-o'];
  // setpriv's parent-death signal: Janus dies with the process that started it, even on a crash.
  const child = existsSync('/usr/bin/setpriv')
    ? spawn('/usr/bin/setpriv', ['--pdeathsig', 'KILL', '--', JANUS_BINARY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(JANUS_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let exited: string | null = null;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = `exited (${signal ?? code})`;
      running.delete(child);
      resolve();
    }),
  );
  const logTail = () => lines.slice(-40).join('\n');

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (exited === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exitedPromise;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const url = `ws://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited !== null) {
      await stop();
      throw new Error(`Janus ${exited} before answering on ${url}:\n${logTail()}`);
    }
    if (await answers(url)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Janus did not answer on ${url} within 30 s:\n${logTail()}`);
    }
    await sleep(100);
  }
  return { url, port, netns, logTail, stop };
}
