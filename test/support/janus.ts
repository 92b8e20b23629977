/**
 * Real Janus servers (Debian's janus 1.1.2) for a test or a bench: the VideoRoom plugin (and, when
 * asked, the Streaming plugin) and the WebSocket transport, on a free 127.0.0.1 port, with a
 * configuration generated into a temp dir. Everything else Janus ships is disabled.
 *
 *   const janus = await startJanus();              // control plane only (room, join, tokens)
 *   const janus = await startJanus({ netns: true }); // media too: inside scripts/video-netns.ts
 *   … janus.url …                                   // ws://127.0.0.1:<port>
 *   await janus.stop();
 *
 * Several at once, e.g. an origin (VideoRoom, where the seller publishes) and two edges (Streaming
 * mountpoints the origin's `rtp_forward` feeds, created through the API; no static mountpoint):
 *
 *   const origin = await startJanus({ netns: true });
 *   const [edgeA, edgeB] = await Promise.all([1, 2].map(() => startJanus({ netns: true, plugins: ['streaming'] })));
 *   … edgeA.streamingPortRange …                     // where edgeA's mountpoints take their random ports
 *   await edgeA.kill();                              // SIGKILL, as when a machine dies; resolves once it exited
 *   await edgeA.restart();                           // the same port, range and configuration again
 *   await Promise.all([origin, edgeA, edgeB].map((j) => j.stop()));
 *
 * Each Janus binds its own UDP ports only: a block of PORT_BLOCK ports outside the kernel's
 * ephemeral range (where freePort() and every unbound socket take theirs), held for the Janus's
 * lifetime by a TCP listener on the block's first port in this process, so two Janus never share a
 * block, whether this file or another test file (another vitest worker) started them. ICE
 * (janus.jcfg's `rtp_port_range`) takes the block, or its first three quarters when Streaming is
 * loaded: the Streaming plugin's random mountpoint ports (its own `rtp_port_range`) take the rest.
 * `rtpPortRange` chooses the range instead. A suite that needs Streaming skips on
 * `janusMissingReason(['videoroom', 'streaming'])` (or `janusStreamingMissingReason()`).
 *
 * Media needs the loopback-only network namespace of scripts/video-netns.ts: Janus (libnice)
 * gathers no candidate on an interface flagged loopback, so it is told to gather only on the veth
 * `vlo0` that carries 127.0.0.2 there (`ice_enforce_list`). Run the whole test process inside it
 * (`npx tsx scripts/video-netns.ts -- npx vitest run …`) so Janus, the server and Chromium share it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { freePort } from './net.js';
import { sleep } from './wait.js';

export const JANUS_BINARY = '/usr/bin/janus';
const LIB = '/usr/lib/x86_64-linux-gnu/janus';
const VETH = 'vlo0';

/** The Janus plugins startJanus can load. */
export type JanusPlugin = 'videoroom' | 'streaming';
const PLUGIN_FILES: Record<JanusPlugin, string> = { videoroom: 'libjanus_videoroom.so', streaming: 'libjanus_streaming.so' };

/** UDP ports per Janus when startJanus picks them: ICE for a 300-viewer bench, and 250 Streaming mountpoints of two streams. */
export const PORT_BLOCK = 2000;
/** The lowest port startJanus hands out (Janus's own defaults start there too). */
const LOWEST_PORT = 10000;

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
  /** The plugins to load: ['videoroom'] by default; ['streaming'] for an edge, both for a Janus that is both. */
  plugins?: readonly JanusPlugin[];
  /** The Streaming plugin's `admin_key`: mountpoints can then be created only with it. None by default. */
  streamingAdminKey?: string;
  /**
   * The UDP ports this Janus may bind, both included (ICE, then Streaming's mountpoints in the last
   * quarter when Streaming is loaded). By default a block of PORT_BLOCK ports no other Janus
   * started by startJanus holds, in this process or another.
   */
  rtpPortRange?: readonly [number, number];
}

export interface RunningJanus {
  /** ws://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Whether ICE gathering is restricted to vlo0 (media works only inside the namespace). */
  netns: boolean;
  /** The plugins loaded. */
  plugins: readonly JanusPlugin[];
  /** Every UDP port this Janus may bind, both ends included. */
  rtpPortRange: readonly [number, number];
  /** The ICE ports (janus.jcfg's `media.rtp_port_range`). */
  icePortRange: readonly [number, number];
  /** The Streaming plugin's random mountpoint ports (its `rtp_port_range`); null without Streaming. */
  streamingPortRange: readonly [number, number] | null;
  /** Whether the Janus process is running (false after kill() or stop(), or when it died). */
  alive(): boolean;
  /** The running Janus process's id (setpriv execs Janus: the same process), null when it is not running. */
  pid(): number | null;
  /** The last lines Janus printed, across restarts (for a failing test's message). */
  logTail(): string;
  /**
   * Sends Janus `signal` (SIGKILL by default: a machine that dies, no goodbye to anyone) and
   * resolves once it exited; its configuration, port and ranges stay for restart(). Rejects when
   * Janus is still running 10 s later. Nothing to do when it is not running.
   */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts Janus again on the same port, ranges and configuration (stopping it first with SIGTERM
   * when it runs) and resolves once it answers. Its rooms and mountpoints are gone. Throws after stop().
   */
  restart(): Promise<void>;
  /** Kills Janus (SIGTERM, then SIGKILL) and removes its configuration, releasing its ports. Idempotent, also after kill(). */
  stop(): Promise<void>;
}

function missingFile(folder: 'plugins' | 'transports', file: string): string | null {
  return existsSync(join(LIB, folder, file)) ? null : `${LIB}/${folder}/${file} is missing`;
}

/**
 * Null when Janus can run here with these plugins (the VideoRoom by default), otherwise why not
 * (printed where a suite is skipped).
 */
export function janusMissingReason(plugins: readonly JanusPlugin[] = ['videoroom']): string | null {
  if (!existsSync(JANUS_BINARY)) return `${JANUS_BINARY} is missing (apt-get install janus)`;
  for (const plugin of plugins) {
    const missing = missingFile('plugins', PLUGIN_FILES[plugin]);
    if (missing) return missing;
  }
  return missingFile('transports', 'libjanus_websockets.so');
}

/** Null when Janus can run here with both the VideoRoom and the Streaming plugins (origin and edges), otherwise why not. */
export function janusStreamingMissingReason(): string | null {
  return janusMissingReason(['videoroom', 'streaming']);
}

/** Every .so in a folder but the ones kept: Janus loads whatever it is not told to disable. */
function disableAllBut(folder: string, keep: string[]): string {
  if (!existsSync(folder)) return '';
  return readdirSync(folder)
    .filter((f) => f.endsWith('.so') && !keep.includes(f))
    .join(',');
}

type Range = readonly [number, number];

interface JanusConfig {
  port: number;
  netns: boolean;
  adminKey?: string;
  streamingAdminKey?: string;
  sessionTimeout: number;
  plugins: readonly JanusPlugin[];
  ice: Range;
  streaming: Range | null;
}

function writeConfig(dir: string, o: JanusConfig): void {
  const q = (s: string) => JSON.stringify(s);
  const range = (r: Range) => q(`${r[0]}-${r[1]}`);
  const kept = o.plugins.map((p) => PLUGIN_FILES[p]);
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
  rtp_port_range = ${range(o.ice)}
}
nat: {
${o.netns ? `  ice_enforce_list = ${q(VETH)}\n` : ''}  ignore_mdns = true
}
plugins: {
  disable = ${q(disableAllBut(join(LIB, 'plugins'), kept))}
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
  if (o.plugins.includes('videoroom')) {
    writeFileSync(join(dir, 'janus.plugin.videoroom.jcfg'), `general: {\n${o.adminKey ? `  admin_key = ${q(o.adminKey)}\n` : ''}}\n`);
  }
  if (o.streaming) {
    // No mountpoint category: the server creates them through the API (type rtp), none is permanent.
    writeFileSync(
      join(dir, 'janus.plugin.streaming.jcfg'),
      `general: {
  rtp_port_range = ${range(o.streaming)}
${o.streamingAdminKey ? `  admin_key = ${q(o.streamingAdminKey)}\n` : ''}}
`,
    );
  }
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

/** The kernel's ephemeral ports (net.ipv4.ip_local_port_range), where no Janus range goes. */
function ephemeralRange(): Range {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low as number, high as number];
  } catch {
    // Not Linux, or no /proc: Linux's default.
  }
  return [32768, 60999];
}

/** The first port of every block startJanus may hand out: PORT_BLOCK ports each, even starts, none in the ephemeral range. */
function blockStarts(): number[] {
  const [ephLow, ephHigh] = ephemeralRange();
  const tile = (low: number, high: number) => {
    const starts: number[] = [];
    for (let s = low + (low % 2); s + PORT_BLOCK - 1 <= high; s += PORT_BLOCK) starts.push(s);
    return starts;
  };
  const outside = [...tile(LOWEST_PORT, Math.min(ephLow - 1, 65535)), ...tile(Math.max(ephHigh + 1, LOWEST_PORT), 65535)];
  // An ephemeral range that leaves (almost) nothing outside it: share with it rather than fail.
  return outside.length >= 4 ? outside : tile(LOWEST_PORT, 65535);
}

/** A TCP listener on 127.0.0.1:port, or null when another holds it. Unref'd: it never keeps the process alive. */
function hold(port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.unref();
      resolve(server);
    });
  });
}

/** A block of UDP ports no other Janus started by startJanus (here or in another process) uses until release(). */
async function claimPortBlock(): Promise<{ range: Range; release: () => Promise<void> }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    for (const start of blockStarts()) {
      const server = await hold(start);
      if (server) {
        return { range: [start, start + PORT_BLOCK - 1], release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
      }
    }
    if (Date.now() > deadline) throw new Error(`startJanus: every block of ${PORT_BLOCK} UDP ports is taken by another Janus (pass rtpPortRange)`);
    await sleep(250);
  }
}

/** ICE takes the range, or its first three quarters when Streaming is loaded; Streaming the rest (from an even port: RTP). */
function splitRange([low, high]: Range, streaming: boolean): { ice: Range; streaming: Range | null } {
  if (!streaming) return { ice: [low, high], streaming: null };
  let cut = low + Math.floor(((high - low + 1) * 3) / 4);
  if (cut % 2) cut++;
  return { ice: [low, cut - 1], streaming: [cut, high] };
}

function checkRange(range: Range, streaming: boolean): Range {
  const [low, high] = range;
  const valid = Number.isInteger(low) && Number.isInteger(high) && low >= 1024 && high <= 65535 && high - low + 1 >= (streaming ? 8 : 2);
  if (!valid) throw new Error(`startJanus: rtpPortRange ${low}-${high} is not a range of ${streaming ? 8 : 2} or more ports within 1024-65535`);
  return [low, high];
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

/** One Janus process: the child, and how it ended once it did. */
interface Launch {
  child: ChildProcess;
  exited: string | null;
  exit: Promise<void>;
}

export async function startJanus(opts: StartJanusOptions = {}): Promise<RunningJanus> {
  const plugins = [...new Set<JanusPlugin>(opts.plugins ?? ['videoroom'])];
  if (plugins.length === 0) throw new Error('startJanus: plugins is empty (a Janus needs the VideoRoom or the Streaming plugin)');
  const missing = janusMissingReason(plugins);
  if (missing) throw new Error(`cannot start Janus: ${missing}`);
  const hasVeth = existsSync(`/sys/class/net/${VETH}`);
  if (opts.netns === true && !hasVeth) {
    throw new Error(`startJanus({ netns: true }): no ${VETH} here; run the test inside scripts/video-netns.ts (npx tsx scripts/video-netns.ts -- <command>)`);
  }
  const netns = opts.netns ?? hasVeth;
  const withStreaming = plugins.includes('streaming');
  const port = opts.port ?? (await freePort());
  const block = opts.rtpPortRange ? { range: checkRange(opts.rtpPortRange, withStreaming), release: async () => {} } : await claimPortBlock();
  const ranges = splitRange(block.range, withStreaming);
  const dir = mkdtempSync(join(tmpdir(), 'martillo-janus-'));
  writeConfig(dir, {
    port,
    netns,
    adminKey: opts.adminKey,
    streamingAdminKey: opts.streamingAdminKey,
    sessionTimeout: opts.sessionTimeout ?? 60,
    plugins,
    ice: ranges.ice,
    streaming: ranges.streaming,
  });

  const url = `ws://127.0.0.1:${port}`;
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  const logTail = () => lines.slice(-40).join('\n');

  let current: Launch | null = null;
  const alive = () => current !== null && current.exited === null;
  const pid = () => (current !== null && current.exited === null ? (current.child.pid ?? null) : null);

  /** Sends `signal`; after `graceMs` SIGKILL (escalate) or a rejection; resolves once Janus exited. */
  const end = async (signal: NodeJS.Signals, graceMs: number, escalate: boolean) => {
    const proc = current;
    if (!proc || proc.exited !== null) return;
    proc.child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => {
        if (escalate) {
          proc.child.kill('SIGKILL');
          resolve(proc.exit);
        } else {
          reject(new Error(`Janus on ${url} still runs ${graceMs} ms after ${signal}:\n${logTail()}`));
        }
      }, graceMs);
    });
    try {
      await Promise.race([proc.exit, late]);
    } finally {
      clearTimeout(timer);
    }
  };

  /** Spawns Janus and resolves once it answers on its WebSocket; kills it and throws when it does not. */
  const launch = async () => {
    const args = ['-F', dir, '-C', join(dir, 'janus.jcfg'), '-o'];
    // setpriv's parent-death signal: Janus dies with the process that started it, even on a crash.
    // setpriv execs Janus: a signal to the child is a signal to Janus.
    const child = existsSync('/usr/bin/setpriv')
      ? spawn('/usr/bin/setpriv', ['--pdeathsig', 'KILL', '--', JANUS_BINARY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(JANUS_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const launched: Launch = {
      child,
      exited: null,
      exit: new Promise<void>((resolve) =>
        child.once('exit', (code, signal) => {
          launched.exited = `exited (${signal ?? code})`;
          running.delete(child);
          resolve();
        }),
      ),
    };
    current = launched;

    const deadline = Date.now() + 30_000;
    for (;;) {
      if (launched.exited !== null) throw new Error(`Janus ${launched.exited} before answering on ${url}:\n${logTail()}`);
      if (await answers(url)) return;
      if (Date.now() > deadline) {
        await end('SIGKILL', 5000, true);
        throw new Error(`Janus did not answer on ${url} within 30 s:\n${logTail()}`);
      }
      await sleep(100);
    }
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await end('SIGTERM', 5000, true);
    rmSync(dir, { recursive: true, force: true });
    await block.release();
  };
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    await end(signal, 10_000, false);
  };
  const restart = async () => {
    if (stopped) throw new Error(`restart(): Janus on ${url} was stopped`);
    await end('SIGTERM', 5000, true);
    lines.push(`--- martillo: restarting Janus on ${url} ---`);
    await launch();
  };

  try {
    await launch();
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    port,
    netns,
    plugins,
    rtpPortRange: block.range,
    icePortRange: ranges.ice,
    streamingPortRange: ranges.streaming,
    alive,
    pid,
    logTail,
    kill,
    restart,
    stop,
  };
}
