/**
 * Live video at scale, per provider (embedded SFU, Janus): one seller in headless
 * Chromium on the real Live Hub, N synthetic viewers (node-datachannel peers that complete ICE and
 * DTLS-SRTP and count RTP without decoding) and a few browser viewers on the public page. Reports,
 * per provider:
 * - serverCpu: the server's process tree (the server and its SFU child; for Janus, the Janus
 *   process too) in % of one core, before the synthetic viewers join (baseline) and while they
 *   watch (window), and that divided by N;
 * - fullRate: synthetic viewers whose VP8 payload rate over the window is at least 80 % of what
 *   the seller's browser sent (its outbound-rtp video bytes, retransmissions excluded);
 * - firstKeyframeMs: from a viewer's join request to its first VP8 keyframe packet (p50, p99, max);
 * - glassToGlassMs: the seller's canvas paints the wall clock (ms) as 32 black/white blocks over
 *   the fake camera's picture; the browser viewers read it back from the live player on every
 *   presented frame (requestVideoFrameCallback, same host clock): p50, p95, max.
 * Targets: embedded, every viewer at full rate with the server under one core; first
 * keyframe p99 under 1 s; glass-to-glass p95 under 150 ms.
 *
 * Media never leaves 127.0.0.0/8: the bench runs itself inside a fresh loopback-only network
 * namespace (scripts/video-netns.ts; needs root). The server runs as its own process
 * (`src/server/main.ts`, PGlite in a temp dir) so its CPU is measured apart from the load; the
 * synthetic viewers run in a forked child of this file.
 *
 * Recording (RECORDING=off|on|both, default off): the crowd's session has *Grabar el show* set as
 * asked, and the server's `recorder` job (every job runs, as in production) records it with ffmpeg
 * from the SFU's copy. `both` runs the embedded provider's crowd twice, without then with, and
 * prints `recordingEffect`: first keyframe and glass to glass with ÷ without (target: at most 1.1 at
 * the targets' percentiles, p99 and p95), and the server's CPU with the seller alone. A run with
 * recording on also reports the recorder's ffmpeg apart (`cpu.*.recorderPct`; the server's tree
 * then leaves it out) and checks its file grew over the run. Janus runs are always without
 * recording (Janus records on its own side). PAIRS (1) repeats the pair, the order turned each time
 * (without then with, with then without, ...) so the machine's drift falls on both sides, and
 * `recordingEffect` pools every run's viewers per side before it takes the percentiles: one pair's
 * p99 is its one or two slowest viewers, noise on a shared machine. Before this knob the session took the company's
 * setting (on), so runs since the recorder landed recorded; `off` is the runs before it.
 *
 * The record mode (MODES=record, what bench:replay runs for its `recorderCpu`): the server with the
 * embedded SFU, one live show published by a synthetic seller (a libdatachannel peer sending real
 * VP8 and Opus at RECORD_SIZE, test/support/synthetic-media.ts), no viewers; RECORD_ROUNDS rounds
 * of a window without recording then one with it (the session's `recording` switched over the API,
 * so the same publisher runs throughout), RECORD_WINDOW_S each: the recorder's ffmpeg, the SFU
 * child and the server in % of one core, each round and the median. Every recorded window's file
 * must grow and probe as VP8 + Opus of the window's length. Target: the recorder under 5 % of a core.
 *
 * The edges (PROVIDERS=janus-edges): Janus as origin and EDGES (2) edge Janus with the Streaming
 * plugin, the server with JANUS_EDGES; the seller publishes to the origin as with `janus`, and each
 * synthetic viewer asks the server for its own grant (which picks the least-loaded edge) and
 * watches the show's mountpoint there over a WebSocket of its own, as a phone does. Besides the
 * crowd's figures: per edge, its viewers, its Janus's CPU and `viewersPerEdgeCore` (its viewers ÷
 * its share of a core), their median, and the first keyframe through each edge (the origin's CPU
 * is the server's tree); `signallingLost`, the viewers' WebSockets to Janus that dropped.
 *
 * The flood mode (bench/video-flood.ts) runs after: hostile sockets from one address against one
 * show's video while a real viewer of another show joins, and the SFU's memory before and after.
 *
 *   npm run bench:video
 *   PROVIDERS=embedded VIEWERS=100 npm run bench:video
 *   RECORDING=both PROVIDERS=embedded MODES=crowd npm run bench:video
 *   MODES=record RECORD_WINDOW_S=30 npm run bench:video
 *   MODES=flood FLOOD_SOCKETS=300 npm run bench:video
 *   PROVIDERS=janus-edges EDGES=2 MODES=crowd npm run bench:video
 *
 * Knobs: MODES (crowd,flood; or record), PROVIDERS (embedded,janus; or janus-edges), EDGES (2), VIEWERS (300), GAP_MS between
 * two joins (50), WINDOW_S measured seconds (15), BASELINE_S seconds measured before the viewers
 * join (5), BROWSER_VIEWERS (2), G2G_S seconds of glass-to-glass reading before the crowd joins
 * (10), RECORDING (off), PAIRS (1, with RECORDING=both), CHROMIUM_PATH (/usr/bin/chromium); record: RECORD_WINDOW_S (30),
 * RECORD_ROUNDS (3), RECORD_SIZE (1280x720), RECORD_KBPS (1500); flood: FLOOD_SOCKETS (300), FLOOD_S (20),
 * FLOOD_SETTLE_S seconds before the memory is read again (15), FLOOD_VIEWER_ADDRESS (127.0.0.3).
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Janode, { type JanodeConnection } from 'janode';
import StreamingPlugin from 'janode/plugins/streaming';
import VideoRoomPlugin, { type VideoRoomHandle } from 'janode/plugins/videoroom';
import ndc, { type PeerConnection, type Track } from 'node-datachannel';
import { type Browser, chromium, type Page } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { VIDEO_BROWSER_ARGS } from '../e2e/support/video.js';
import { canMakeVideoNetns } from '../scripts/video-netns.js';
import { livePath } from '../src/domain/live-public.js';
import { offerAsDtlsClient, type VideoGrant, type VideoSubscribeAck } from '../src/domain/video.js';
import { findFfmpeg, probe } from '../src/server/features/replays/media/index.js';
import es from '../src/web/i18n/es-MX.json' with { type: 'json' };
import { janusMissingReason, type RunningJanus, startJanus } from '../test/support/janus.js';
import { freePort } from '../test/support/net.js';
import {
  isVp8KeyframeStart,
  NATIVE_FLAKE_ATTEMPTS,
  nativeFlakeRetryDelayMs,
  offerOf,
  pliFor,
  publishWhenUp,
  recvOnlyPeer,
  type SyntheticPublisher,
  VIEWER_PTS,
} from '../test/support/rtp-peers.js';
import { connected, connectSocket } from '../test/support/sockets.js';
import { makeSyntheticMedia } from '../test/support/synthetic-media.js';
import { exited, forkRole, median, onceMessage, percentile, round, sendToParent, sleep } from './support.js';
import { runFlood, runFloodLoad } from './video-flood.js';

type Provider = 'embedded' | 'janus' | 'janus-edges';
const MODES = (process.env.MODES ?? 'crowd,flood').split(',').map((m) => m.trim());
const FLOOD = {
  sockets: Number(process.env.FLOOD_SOCKETS ?? 300),
  seconds: Number(process.env.FLOOD_S ?? 20),
  settleSeconds: Number(process.env.FLOOD_SETTLE_S ?? 15),
  viewerAddress: process.env.FLOOD_VIEWER_ADDRESS ?? '127.0.0.3',
};
const PROVIDERS = (process.env.PROVIDERS ?? 'embedded,janus').split(',').map((p) => p.trim()) as Provider[];
const VIEWERS = Number(process.env.VIEWERS ?? 300);
/** janus-edges: how many edge Janus the viewers are spread over. */
const EDGES = Number(process.env.EDGES ?? 2);
/** janus-edges: viewers per source address asking for their grant (the route allows 30 a minute per address). */
const GRANTS_PER_ADDRESS = 20;
const GAP_MS = Number(process.env.GAP_MS ?? 50);
const WINDOW_S = Number(process.env.WINDOW_S ?? 15);
const BASELINE_S = Number(process.env.BASELINE_S ?? 5);
const BROWSER_VIEWERS = Number(process.env.BROWSER_VIEWERS ?? 2);
/** Seconds of glass-to-glass reading by the browser viewers, before the synthetic crowd joins. */
const G2G_S = Number(process.env.G2G_S ?? 10);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const RECORDING = process.env.RECORDING ?? 'off';
/** RECORDING=both: how many pairs of crowd runs (without and with recording), the order turned each pair. */
const PAIRS = Number(process.env.PAIRS ?? 1);
const RECORD = {
  windowS: Number(process.env.RECORD_WINDOW_S ?? 30),
  rounds: Number(process.env.RECORD_ROUNDS ?? 3),
  size: process.env.RECORD_SIZE ?? '1280x720',
  /** The synthetic camera's video bitrate (kb/s): what a browser sends at 720p. */
  kbps: Number(process.env.RECORD_KBPS ?? 1500),
};

/** "Full rate": a viewer's VP8 payload rate is at least this share of the seller's. */
const FULL_RATE_SHARE = 0.8;
const TARGET_KEYFRAME_P99_MS = 1000;
const TARGET_G2G_P95_MS = 150;
/** % of one core: the embedded target is all viewers at full rate "using under one core". */
const TARGET_SERVER_CPU_PCT = 100;
/** % of one core for the recorder's ffmpeg. */
const TARGET_RECORDER_CPU_PCT = 5;
/** With recording ÷ without, for the first keyframe (p99) and glass to glass (p95). */
const TARGET_RECORDING_RATIO = 1.1;
/** How long the recorder may take to start writing once a show is to be recorded, or to stop. */
const RECORDER_WAIT_MS = 20_000;
const ROLE_ENV = 'MARTILLO_BENCH_VIDEO_ROLE';
const ADMIN_EMAIL = 'bench-video@bench.mx';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const PLAYER = '[data-testid="live-player"]';
/** How long the synthetic viewers may take, after the last join, to all hold a keyframe. */
const KEYFRAME_WAIT_MS = 15_000;

const log = (msg: string) => console.error(`[bench:video] ${msg}`);

// ── /proc accounting: CPU per process tree, and the machine's busy share ─────

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function procStat(pid: number): { ppid: number; ticks: number; comm: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces: fields start after the last ')'.
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), comm: text.slice(text.indexOf('(') + 1, close) };
  } catch {
    return null;
  }
}

/** Every live pid under `root` (itself included). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const st = procStat(Number(entry));
    if (!st) continue;
    const list = children.get(st.ppid) ?? [];
    list.push(Number(entry));
    children.set(st.ppid, list);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift() as number;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU ticks of whole trees; a pid in two trees counts once, in the first. */
function treeTicks(roots: Record<string, number[]>): Record<string, number> {
  const seen = new Set<number>();
  const out: Record<string, number> = {};
  for (const [name, pids] of Object.entries(roots)) {
    let ticks = 0;
    for (const root of pids) {
      for (const pid of processTree(root)) {
        if (seen.has(pid)) continue;
        seen.add(pid);
        ticks += procStat(pid)?.ticks ?? 0;
      }
    }
    out[name] = ticks;
  }
  return out;
}

function machineTicks(): { idle: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((a, b) => a + b, 0) };
}

interface CpuMark {
  at: number;
  ticks: Record<string, number>;
  machine: { idle: number; total: number };
}
/** `roots` in the order their trees are claimed: the bench's own process last (it holds all the others). */
function cpuMark(roots: () => Record<string, number[]>): CpuMark {
  return { at: performance.now(), ticks: treeTicks(roots()), machine: machineTicks() };
}
/** % of one core per tree between two marks, and the machine's busy % of all its cores. */
function cpuBetween(a: CpuMark, b: CpuMark): Record<string, number> & { machineBusyPct: number } {
  const seconds = (b.at - a.at) / 1000;
  const out: Record<string, number> = {};
  for (const name of Object.keys(b.ticks)) out[`${name}Pct`] = round((100 * ((b.ticks[name] ?? 0) - (a.ticks[name] ?? 0))) / CLOCK_TICKS / seconds, 1);
  const total = b.machine.total - a.machine.total;
  return { ...out, machineBusyPct: total ? round(100 * (1 - (b.machine.idle - a.machine.idle) / total), 1) : 0 };
}

// ── The synthetic viewers (child process) ────────────────────────────────────

interface LoadStart {
  type: 'start';
  provider: Provider;
  base: string;
  sessionId: string;
  viewers: number;
  gapMs: number;
  /** Janus only: the subscriber grant (url, room), asked once by the parent. */
  janus: { url: string; room: number } | null;
}
interface LoadAssigned {
  type: 'assigned';
  /** janus-edges: each viewer's edge (its place in JANUS_EDGES), null when its grant failed. */
  edges: (number | null)[];
}
interface LoadJoined {
  type: 'joined';
  joinSeconds: number;
  /** Per viewer: join request → first VP8 keyframe, ms; null if none came. */
  keyframeMs: (number | null)[];
  connectedMs: (number | null)[];
  failures: number;
  retries: number;
  /** Why the last retried join was retried. */
  lastRetry: string | null;
  lastError: string | null;
}
interface LoadBytes {
  type: 'bytes';
  /** Per viewer: VP8 payload bytes so far (RTP headers, padding and RTX excluded). */
  video: number[];
  /** Per viewer: every RTP byte so far (video and audio, headers included). */
  rtp: number[];
}
interface LoadDone {
  type: 'done';
  states: Record<string, number>;
  /**
   * The viewers' WebSocket connections to Janus that dropped during the run (janode closes one
   * whose ping is not answered within 5 s; Janus then ends every session on it), with when
   * (seconds since the first join) and why.
   */
  signallingLost: { url: string; atS: number; why: string }[];
}

interface ViewerStats {
  t0: number;
  /** When its peer connection reached 'connected' (ICE and DTLS done). */
  connected: number | null;
  firstKeyframe: number | null;
  videoPayload: number;
  rtpBytes: number;
  state: string;
  /** Its peer connections so far (a join can be retried). */
  attempt: number;
}

/** The payload type of VP8 in an offer (the first rtpmap naming it). */
function vp8PayloadType(sdp: string): number {
  const match = /a=rtpmap:(\d+) VP8\/90000/i.exec(sdp);
  if (!match) throw new Error('the offer has no VP8');
  return Number(match[1]);
}

/** RTP payload length: minus the header, CSRCs, the header extension and padding. */
function payloadLength(packet: Buffer): number {
  const first = packet[0] ?? 0;
  let header = 12 + 4 * (first & 0x0f);
  if (first & 0x10 && packet.length >= header + 4) header += 4 + 4 * packet.readUInt16BE(header + 2);
  const padding = first & 0x20 ? (packet[packet.length - 1] ?? 0) : 0;
  return Math.max(0, packet.length - header - padding);
}

/**
 * What a viewer's track receives, counted into `st`; like a browser without a keyframe yet, it
 * sends RR + PLI to the sender's SSRC once a second until one comes.
 */
function countMedia(track: Track, vp8: number | null, st: ViewerStats): void {
  let lastPli = 0;
  track.onMessage((message) => {
    const packet = Buffer.from(message);
    const type = packet[1] ?? 0;
    if (type >= 192 && type <= 223) return; // RTCP
    st.rtpBytes += packet.length;
    if ((type & 0x7f) !== vp8) return;
    st.videoPayload += payloadLength(packet);
    if (st.firstKeyframe !== null) return;
    if (isVp8KeyframeStart(packet)) {
      st.firstKeyframe = performance.now();
      return;
    }
    if (performance.now() - lastPli < 1000) return;
    lastPli = performance.now();
    try {
      if (track.isOpen()) track.sendMessageBinary(pliFor(packet));
    } catch {
      // closed meanwhile: the next packet (if any) asks again
    }
  });
}

/** Follows `pc`'s state into `st`; a retried join's earlier peer (closed) no longer speaks for the viewer. */
function followState(pc: PeerConnection, st: ViewerStats): void {
  const attempt = ++st.attempt;
  pc.onStateChange((state) => {
    if (st.attempt !== attempt) return;
    st.state = state;
    if (state === 'connected' && st.connected === null) st.connected = performance.now();
  });
}

/** A Janus viewer's peer: answers Janus's offer. */
function answerOffer(name: string, offerSdp: string, bind: boolean, st: ViewerStats): Promise<{ pc: PeerConnection; sdp: string; keep: Track[] }> {
  // libjuice skips 127.x unless bound; Janus (libnice) then fails to pair with 127.0.0.1, so not for Janus (VIDEO.md).
  const pc = new ndc.PeerConnection(name, bind ? { iceServers: [], bindAddress: '127.0.0.1' } : { iceServers: [] });
  followState(pc, st);
  const vp8 = vp8PayloadType(offerSdp);
  const keep: Track[] = [];
  pc.onTrack((track) => {
    // Without a JavaScript reference the track and its callback can be collected (VIDEO.md).
    keep.push(track);
    countMedia(track, vp8, st);
  });
  return new Promise((resolve, reject) => {
    // Registered before the description: the native event can fire first (VIDEO.md).
    pc.onGatheringStateChange((state) => {
      if (state === 'complete') resolve({ pc, sdp: pc.localDescription()?.sdp ?? '', keep });
    });
    try {
      pc.setRemoteDescription(offerSdp, 'offer');
    } catch (err) {
      pc.close();
      reject(err);
    }
  });
}

/** An embedded SFU viewer's peer: offers recvonly VP8 + Opus (Chrome's payload types), as the live page does. */
async function makeOffer(name: string, st: ViewerStats): Promise<{ pc: PeerConnection; sdp: string; keep: unknown[] }> {
  const { pc, tracks, keep } = recvOnlyPeer(name, VIEWER_PTS);
  followState(pc, st);
  countMedia(tracks.video, VIEWER_PTS.video, st);
  countMedia(tracks.audio, VIEWER_PTS.video, st);
  try {
    return { pc, sdp: await offerOf(pc), keep };
  } catch (err) {
    pc.close();
    throw err;
  }
}

interface Joined {
  close(): Promise<void>;
}

/**
 * The embedded SFU, as the live page does it: a Socket.IO connection, then `videoSubscribe` with
 * the viewer's offer, answered by the SFU. libdatachannel now and then closes a fresh peer before
 * it connects (see test/support/rtp-peers.ts); the browser client retries such an attempt, and so
 * does this viewer.
 */
async function joinEmbedded(start: LoadStart, i: number, st: ViewerStats, counters: { retries: number; lastRetry: string | null }): Promise<Joined> {
  const socket: Socket = io(start.base, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  st.t0 = performance.now();
  for (let attempt = 1; ; attempt++) {
    let peer: Awaited<ReturnType<typeof makeOffer>> | null = null;
    try {
      peer = await makeOffer(`v${i}`, st);
      const ack = (await socket.timeout(15_000).emitWithAck('videoSubscribe', { sessionId: start.sessionId, sdp: peer.sdp })) as VideoSubscribeAck;
      if (!ack.ok) {
        peer.pc.close();
        socket.disconnect();
        throw new FatalJoin(`videoSubscribe: ${ack.error}`);
      }
      peer.pc.setRemoteDescription(ack.sdp, 'answer');
      await connectedOrFailed(st);
      const { pc, keep } = peer;
      return {
        close: async () => {
          keep.length = 0;
          pc.close();
          socket.disconnect();
        },
      };
    } catch (err) {
      peer?.pc.close();
      if (err instanceof FatalJoin || attempt >= NATIVE_FLAKE_ATTEMPTS) {
        socket.disconnect();
        throw err;
      }
      counters.retries++;
      counters.lastRetry = err instanceof Error ? err.message : String(err);
      await sleep(nativeFlakeRetryDelayMs(attempt));
    }
  }
}

/** A refusal by the server: not retried. */
class FatalJoin extends Error {}

/**
 * Resolves once the viewer's peer is connected; throws if it fails or closes first, or after
 * 10 s. The live page starts over on 'failed' (src/web/video/embedded.ts), and so does this
 * viewer: libdatachannel now and then ends a fresh peer (test/support/rtp-peers.ts).
 */
async function connectedOrFailed(st: ViewerStats): Promise<void> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    if (st.state === 'connected') return;
    if (st.state === 'failed' || st.state === 'closed' || performance.now() > deadline) throw new Error(`peer ${st.state} before connecting`);
    await sleep(20);
  }
}

/** Janus, as janus.js does it: a session, a VideoRoom handle, join as subscriber to the seller's feed, answer with `start`. */
async function joinJanus(connection: JanodeConnection, room: number, feed: number, i: number, st: ViewerStats): Promise<Joined> {
  st.t0 = performance.now();
  const session = await connection.create();
  const handle = await session.attach<VideoRoomHandle>(VideoRoomPlugin);
  const joined = await handle.joinSubscriber({ room, feed });
  if (!joined.jsep) throw new Error('Janus sent no offer');
  // As the live page's Janus viewer does (src/web/video/janus.ts): Janus is made the DTLS client.
  const { pc, sdp, keep } = await answerOffer(`j${i}`, offerAsDtlsClient(joined.jsep.sdp), false, st);
  await handle.message({ request: 'start', room }, { type: 'answer', sdp });
  return {
    close: async () => {
      keep.length = 0;
      pc.close();
      await handle.detach().catch(() => {});
      await session.destroy().catch(() => {});
    },
  };
}

/**
 * A viewer through an edge, as the live page does it (src/web/video/janus.ts): its own grant from
 * the server (which picks the edge), then the Streaming plugin's `watch` on the edge, answered
 * with `start`. Grants are asked from GRANTS_PER_ADDRESS viewers per loopback address, as phones
 * behind different addresses would: the route allows 30 a minute per address.
 */
async function joinEdge(
  start: LoadStart,
  i: number,
  st: ViewerStats,
  connections: Map<string, Promise<JanodeConnection>>,
  assigned: (number | null)[],
): Promise<Joined> {
  st.t0 = performance.now();
  const localAddress = `127.1.${Math.floor(i / GRANTS_PER_ADDRESS) % 250}.${1 + Math.floor(i / GRANTS_PER_ADDRESS / 250)}`;
  const grant = await new Promise<VideoGrant>((resolve, reject) => {
    const req = http.get(`${start.base}/api/live-sessions/${start.sessionId}/video?role=subscriber`, { localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`grant from ${localAddress}: ${res.statusCode} ${text.slice(0, 200)}`));
        else resolve(JSON.parse(text) as VideoGrant);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  if (grant.provider !== 'janus' || !grant.stream) throw new Error(`the grant names no edge: ${JSON.stringify(grant)}`);
  assigned[i] = grant.stream.edge;
  // Each viewer its own WebSocket to its edge, as each phone has: one connection shared by an
  // edge's every viewer took them all with it when it dropped on a saturated machine.
  const key = `${grant.url} ${i}`;
  let connecting = connections.get(key);
  if (!connecting) {
    connecting = Janode.connect({ address: { url: grant.url } });
    connections.set(key, connecting);
    void connecting.then((c) => watchSignalling(c, grant.url, () => connections.delete(key))).catch(() => {});
  }
  const session = await (await connecting).create();
  const handle = await session.attach(StreamingPlugin);
  const watched = (await handle.message({ request: 'watch', id: grant.stream.id })) as { jsep?: { sdp: string } };
  if (!watched.jsep) throw new Error('the edge sent no offer');
  const { pc, sdp, keep } = await answerOffer(`e${i}`, offerAsDtlsClient(watched.jsep.sdp), false, st);
  await handle.message({ request: 'start' }, { type: 'answer', sdp });
  return {
    close: async () => {
      keep.length = 0;
      pc.close();
      await handle.detach().catch(() => {});
      await session.destroy().catch(() => {});
    },
  };
}

/** The newest publishing feed of a room (the seller's page puts its join time in `display`). */
async function sellerFeed(connection: JanodeConnection, room: number): Promise<number> {
  const session = await connection.create();
  const handle = await session.attach<VideoRoomHandle>(VideoRoomPlugin);
  try {
    const { participants } = await handle.listParticipants({ room });
    const live = participants.filter((p) => p.publisher).sort((a, b) => Number(b.display ?? 0) - Number(a.display ?? 0));
    if (!live[0]) throw new Error(`no publisher in Janus room ${room}`);
    return live[0].feed;
  } finally {
    await handle.detach().catch(() => {});
    await session.destroy().catch(() => {});
  }
}

/** The load's own WebSocket connections to Janus that dropped, for LoadDone. */
const signallingLost: LoadDone['signallingLost'] = [];
let loadBegan = 0;
let loadStopping = false;
function watchSignalling(connection: JanodeConnection, url: string, onLost: () => void = () => {}): void {
  let gone = false;
  const lost = (why: string) => () => {
    if (gone) return;
    gone = true;
    onLost();
    if (!loadStopping) signallingLost.push({ url, atS: Math.round((performance.now() - loadBegan) / 100) / 10, why });
  };
  connection.once(Janode.EVENT.CONNECTION_CLOSED, lost('closed'));
  connection.once(Janode.EVENT.CONNECTION_ERROR, lost('error'));
}

async function runLoad(): Promise<void> {
  ndc.initLogger('Error', () => {});
  const start = await onceMessage<LoadStart>(process, 'start');
  const stats: ViewerStats[] = [];
  const joined: Joined[] = [];
  const counters: { retries: number; lastRetry: string | null } = { retries: 0, lastRetry: null };
  let failures = 0;
  let lastError: string | null = null;
  let connection: JanodeConnection | null = null;
  let feed = 0;
  if (start.provider === 'janus') {
    if (!start.janus) throw new Error('janus: no grant');
    Janode.Logger.setLevel('none');
    connection = await Janode.connect({ address: { url: start.janus.url } });
    watchSignalling(connection, start.janus.url);
    feed = await sellerFeed(connection, start.janus.room);
  }
  if (start.provider === 'janus-edges') Janode.Logger.setLevel('none');
  const edgeConnections = new Map<string, Promise<JanodeConnection>>();
  const assigned: (number | null)[] = Array.from({ length: start.viewers }, () => null);
  const began = performance.now();
  loadBegan = began;
  const pending: Promise<void>[] = [];
  for (let i = 0; i < start.viewers; i++) {
    const st: ViewerStats = { t0: performance.now(), connected: null, firstKeyframe: null, videoPayload: 0, rtpBytes: 0, state: 'new', attempt: 0 };
    stats.push(st);
    // Joins overlap as a crowd's do: the next one starts after GAP_MS whether or not this one is done.
    const join =
      start.provider === 'janus'
        ? joinJanus(connection as JanodeConnection, start.janus?.room ?? 0, feed, i, st)
        : start.provider === 'janus-edges'
          ? joinEdge(start, i, st, edgeConnections, assigned)
          : joinEmbedded(start, i, st, counters);
    pending.push(
      join.then(
        (j) => {
          joined.push(j);
        },
        (err: unknown) => {
          failures++;
          st.state = 'join-failed';
          lastError = err instanceof Error ? err.message : String(err);
        },
      ),
    );
    await sleep(start.gapMs);
  }
  await Promise.all(pending);
  const joinSeconds = round((performance.now() - began) / 1000, 1);
  const deadline = performance.now() + KEYFRAME_WAIT_MS;
  while (performance.now() < deadline && stats.some((s) => s.firstKeyframe === null && s.state !== 'join-failed')) await sleep(50);
  const result: LoadJoined = {
    type: 'joined',
    joinSeconds,
    keyframeMs: stats.map((s) => (s.firstKeyframe === null ? null : round(s.firstKeyframe - s.t0, 1))),
    connectedMs: stats.map((s) => (s.connected === null ? null : round(s.connected - s.t0, 1))),
    failures,
    retries: counters.retries,
    lastRetry: counters.lastRetry,
    lastError,
  };
  await sendToParent(result);
  if (start.provider === 'janus-edges') await sendToParent({ type: 'assigned', edges: assigned } satisfies LoadAssigned);

  for (;;) {
    const message = await Promise.race([onceMessage<{ type: 'snapshot' }>(process, 'snapshot'), onceMessage<{ type: 'stop' }>(process, 'stop')]);
    if (message.type === 'snapshot') {
      const bytes: LoadBytes = { type: 'bytes', video: stats.map((s) => s.videoPayload), rtp: stats.map((s) => s.rtpBytes) };
      await sendToParent(bytes);
      continue;
    }
    const states: Record<string, number> = {};
    for (const s of stats) states[s.state] = (states[s.state] ?? 0) + 1;
    loadStopping = true;
    await Promise.all(joined.map((j) => j.close().catch(() => {})));
    await connection?.close().catch(() => {});
    for (const c of edgeConnections.values()) await (await c.catch(() => null))?.close().catch(() => {});
    const done: LoadDone = { type: 'done', states, signallingLost };
    await sendToParent(done);
    ndc.cleanup();
    process.exit(0);
  }
}

// ── The browser: the seller's canvas camera and the viewers' clock reader ────

/**
 * The seller page's camera: Chromium's fake camera drawn into a canvas with the wall clock (ms,
 * 32 bits) painted over its top row as black/white blocks, sent as the camera track. Also keeps
 * every RTCPeerConnection, to read what the seller sends. Instrumentation of the bench's browser,
 * not product code.
 */
function sellerInitScript(): void {
  const w = window as unknown as { __pcs: RTCPeerConnection[] };
  w.__pcs = [];
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      w.__pcs.push(this);
    }
  };
  const media = navigator.mediaDevices;
  const original = media.getUserMedia.bind(media);
  media.getUserMedia = (constraints?: MediaStreamConstraints) =>
    canvasCamera(constraints).catch((err: unknown) => {
      // The Hub shows only its own message: the cause goes to the console, which the bench prints on failure.
      console.error(`bench canvas camera: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
      throw err;
    });
  const canvasCamera = async (constraints?: MediaStreamConstraints) => {
    const real = await original(constraints);
    const camera = real.getVideoTracks()[0];
    if (!camera) return real;
    // 640x480 whatever the Hub asks the camera for: VIDEO.md's reference picture, and what two
    // cores can encode beside the server under test and two decoding viewers.
    const width = 640;
    const height = 480;
    const source = document.createElement('video');
    source.muted = true;
    source.srcObject = new MediaStream([camera]);
    await source.play();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const g = canvas.getContext('2d') as CanvasRenderingContext2D;
    const block = width / 32;
    const paint = () => {
      g.drawImage(source, 0, 0, width, height);
      const now = Date.now() >>> 0;
      for (let i = 0; i < 32; i++) {
        g.fillStyle = (now >>> (31 - i)) & 1 ? '#fff' : '#000';
        g.fillRect(Math.round(i * block), 0, Math.ceil(block), Math.ceil(block));
      }
    };
    paint();
    const timer = setInterval(paint, 1000 / 30);
    const track = canvas.captureStream(30).getVideoTracks()[0] as MediaStreamTrack;
    const stop = track.stop.bind(track);
    track.stop = () => {
      clearInterval(timer);
      camera.stop();
      stop();
    };
    return new MediaStream([track, ...real.getAudioTracks()]);
  };
}

/**
 * The viewer page's reader: on every frame the live player presents, the painted clock is read
 * back from the frame's top row and compared with when the frame is expected on screen.
 */
function viewerInitScript(selector: string): void {
  const w = window as unknown as { __g2g: number[]; __g2gBad: number; __frames: number };
  w.__g2g = [];
  w.__g2gBad = 0;
  w.__frames = 0;
  const reader = document.createElement('canvas');
  const g = reader.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
  const hook = (video: HTMLVideoElement) => {
    const onFrame = (_now: number, meta: VideoFrameCallbackMetadata) => {
      w.__frames++;
      const width = meta.width;
      const block = width / 32;
      if (width >= 64) {
        const rows = Math.max(1, Math.floor(block));
        if (reader.width !== width || reader.height !== rows) {
          reader.width = width;
          reader.height = rows;
        }
        g.drawImage(video, 0, 0, width, rows, 0, 0, width, rows);
        const px = g.getImageData(0, 0, width, rows).data;
        const y = Math.floor(rows / 2);
        let painted = 0;
        for (let i = 0; i < 32; i++) {
          const o = (y * width + Math.floor(i * block + block / 2)) * 4;
          painted = painted * 2 + ((px[o] ?? 0) + (px[o + 1] ?? 0) + (px[o + 2] ?? 0) > 384 ? 1 : 0);
        }
        const shown = Math.floor(performance.timeOrigin + meta.expectedDisplayTime) >>> 0;
        const delay = (shown - painted) >>> 0;
        // A misread clock lands anywhere in 2^32 ms: anything past 5 s is counted as unreadable.
        if (delay < 5000) w.__g2g.push(delay);
        else w.__g2gBad++;
      }
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  };
  // The player may be replaced (a resubscription): hook each element once.
  const hooked = new WeakSet<HTMLVideoElement>();
  setInterval(() => {
    const video = document.querySelector<HTMLVideoElement>(selector);
    if (video && !hooked.has(video)) {
      hooked.add(video);
      hook(video);
    }
  }, 200);
}

/**
 * A function of this file as a page's init script. tsx (esbuild, keepNames) wraps named functions
 * in a `__name` helper that exists only in Node: the page gets a stand-in.
 */
function pageScript(fn: (arg: string) => void, arg = ''): string {
  return `var __name = (target) => target;\n(${fn.toString()})(${JSON.stringify(arg)});`;
}

async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: VIDEO_BROWSER_ARGS });
}

/** The seller's video bytes sent so far (outbound-rtp, retransmissions excluded), and how it sends. */
function sellerSent(page: Page) {
  return page.evaluate(async () => {
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs;
    let bytes = 0;
    let fps: number | null = null;
    let size: string | null = null;
    let limitation: string | null = null;
    for (const pc of pcs) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((s: Record<string, unknown>) => {
        if (s.type !== 'outbound-rtp' || s.kind !== 'video') return;
        bytes += Number(s.bytesSent ?? 0) - Number(s.retransmittedBytesSent ?? 0);
        fps = (s.framesPerSecond as number | undefined) ?? fps;
        if (s.frameWidth) size = `${s.frameWidth}x${s.frameHeight}`;
        limitation = (s.qualityLimitationReason as string | undefined) ?? limitation;
      });
    }
    return { bytes, at: performance.now(), fps, size, limitation };
  });
}

// ── The server (its own process) and one provider's run ──────────────────────

interface Server {
  base: string;
  pid: number;
  /** Its DATA_DIR (the recorder writes under DATA_DIR/recordings). */
  dataDir: string;
  tail(): string;
  stop(): Promise<void>;
}

/** The SFU child of the server (its worker file under tsx), or null. */
function sfuPid(serverPid: number): number | null {
  for (const pid of processTree(serverPid)) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sfu/worker')) return pid;
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** The recorder's ffmpeg processes under the server (their command line names a WebM under its recordings folder): pid → that file. */
function recorderProcesses(server: Server): Map<number, string> {
  const prefix = `file:${path.join(server.dataDir, 'recordings')}${path.sep}`;
  const out = new Map<number, string>();
  for (const pid of processTree(server.pid)) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    const output = args.find((a) => a.startsWith(prefix) && a.endsWith('.webm'));
    if (output && args.some((a) => a.includes('ffmpeg'))) out.set(pid, output.slice('file:'.length));
  }
  return out;
}

const fileSize = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/** Polls `check` every 100 ms until it answers something, failing after `ms` with `what`. */
async function waitFor<T>(what: string, ms: number, check: () => T | null | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(100);
  }
}

/** The show's recorder once it writes: its pid and file, which has bytes in it. */
function recorderWriting(server: Server): Promise<{ pid: number; file: string }> {
  return waitFor('the recorder to write the show', RECORDER_WAIT_MS, () => {
    const [found] = [...recorderProcesses(server)].filter(([, file]) => fileSize(file) > 0);
    return found ? { pid: found[0], file: found[1] } : null;
  });
}

/** The flood mode: the server with the embedded SFU at its defaults, and bench/video-flood.ts against it. */
async function runFloodMode() {
  log(`flood: starting`);
  const server = await startServer('embedded', null);
  try {
    return await runFlood(server, {
      ...FLOOD,
      adminEmail: ADMIN_EMAIL,
      sfuPid: () => sfuPid(server.pid),
      forkLoad: () => forkRole(THIS_FILE, ROLE_ENV, 'flood'),
    });
  } catch (err) {
    log(`flood: server log tail:\n${server.tail()}`);
    throw err;
  } finally {
    await server.stop();
  }
}

// ── The record mode: what recording a show costs ─────────────────────────────

/** The development sign-in as the admin of ADMIN_EMAILS, its profile completed: the session cookie. */
async function devSignIn(base: string): Promise<string> {
  const res = await fetch(`${base}/auth/dev`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: ADMIN_EMAIL, name: 'Banco Grabación', returnTo: '/admin' }),
    redirect: 'manual',
  });
  const cookie = (res.headers.getSetCookie?.() ?? []).find((c) => c.startsWith('martillo_session='))?.split(';')[0];
  if (!cookie) throw new Error(`dev sign-in: ${res.status} ${await res.text()}`);
  await api(base, cookie, 'PUT', '/api/profile', {
    lastName: 'Video',
    companyName: 'Banco',
    whatsappCountryCode: '+52',
    whatsappLocal: '3312345678',
    whatsappConsentGiven: true,
  });
  return cookie;
}

/** A JSON request as the signed-in seller; throws unless it succeeds. */
async function api(base: string, cookie: string, method: string, route: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${base}${route}`, { method, headers: { origin: base, cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * MODES=record: one live show on the embedded SFU, published by a synthetic seller at RECORD_SIZE,
 * no viewers; RECORD_ROUNDS rounds of RECORD_WINDOW_S without recording, then as long with it.
 */
async function runRecordMode() {
  const [width, height] = RECORD.size.split('x').map(Number) as [number, number];
  const tools = await findFfmpeg();
  if (!tools) throw new Error('record: ffmpeg not found (apt-get install ffmpeg)');
  log(`record: encoding the synthetic camera (${RECORD.size})`);
  const media = await makeSyntheticMedia({ seconds: 4, width, height, videoKbps: RECORD.kbps });
  const mediaSeconds = media.video.length / 25;
  const videoKbps = round((8 * media.video.reduce((sum, f) => sum + f.data.length, 0)) / mediaSeconds / 1000, 0);
  ndc.initLogger('Error', () => {});
  const server = await startServer('embedded', null);
  const { base } = server;
  let socket: Socket | null = null;
  let publisher: SyntheticPublisher | null = null;
  try {
    const cookie = await devSignIn(base);
    const created = (await api(base, cookie, 'POST', '/api/live-sessions', {
      title: 'Banco de grabación',
      scheduledAt: Date.now() + 3_600_000,
      sellerSlug: 'banco-grabacion',
      recording: false,
    })) as { session: { id: string } };
    const sessionId = created.session.id;
    socket = connectSocket(base, { cookie });
    await connected(socket);
    // As the Hub does: the camera is accepted by the SFU, then 'Iniciar' sets the show live.
    const published = await publishWhenUp(socket, sessionId, { media });
    if (!published.publisher) throw new Error(`publish: ${JSON.stringify(published.ack)}`);
    publisher = published.publisher;
    await api(base, cookie, 'POST', `/api/live-sessions/${sessionId}/stream/start`, {});
    const setRecording = (on: boolean) => api(base, cookie, 'PUT', `/api/live-sessions/${sessionId}`, { recording: on });
    const sfu = await waitFor('the SFU child', RECORDER_WAIT_MS, () => sfuPid(server.pid));
    log(`record: the show is live; ${RECORD.rounds} rounds of ${RECORD.windowS} s without recording, then with it`);

    // Claimed in this order: the recorder's ffmpeg, the SFU child, and the rest of the server (its Node process).
    let recorderPids: number[] = [];
    const roots = () => ({ recorder: recorderPids, sfu: [sfu], server: [server.pid] });
    type Window = { recorderPct: number; sfuPct: number; serverPct: number; serverTreePct: number; machineBusyPct: number };
    const window = async (): Promise<Window> => {
      const a = cpuMark(roots);
      await sleep(RECORD.windowS * 1000);
      const cpu = cpuBetween(a, cpuMark(roots));
      const [recorderPct, sfuPct, serverPct] = [cpu.recorderPct ?? 0, cpu.sfuPct ?? 0, cpu.serverPct ?? 0];
      return { recorderPct, sfuPct, serverPct, serverTreePct: round(recorderPct + sfuPct + serverPct, 1), machineBusyPct: cpu.machineBusyPct };
    };
    const rounds: { off: Window; on: Window }[] = [];
    const files: { file: string; atWindowStart: number; sameRecorder: boolean }[] = [];
    let offWithoutRecorder = true;
    for (let r = 0; r < RECORD.rounds; r++) {
      await setRecording(false);
      await waitFor('the recorder to stop', RECORDER_WAIT_MS, () => (recorderProcesses(server).size === 0 ? true : null));
      await sleep(1000);
      recorderPids = [];
      const off = await window();
      offWithoutRecorder &&= recorderProcesses(server).size === 0;

      await setRecording(true);
      const recorder = await recorderWriting(server);
      // Past its start (probing the first second, the file's header): the steady state is measured.
      await sleep(1000);
      recorderPids = [recorder.pid];
      const atWindowStart = fileSize(recorder.file);
      const on = await window();
      files.push({ file: recorder.file, atWindowStart, sameRecorder: recorderProcesses(server).has(recorder.pid) });
      rounds.push({ off, on });
      log(`record: round ${r + 1}: recorder ${on.recorderPct} % of a core; server tree ${off.serverTreePct} → ${on.serverTreePct} %`);
    }
    await setRecording(false);
    await waitFor('the recorder to finish its file', RECORDER_WAIT_MS, () => (recorderProcesses(server).size === 0 ? true : null));
    // What each file gained from its window's start to its end (the muxer writes a cluster every few seconds, so not within a short window).
    const grown = files.map((f) => ({ ...f, grewBytes: fileSize(f.file) - f.atWindowStart }));

    // What was recorded plays: each window's file, finished, is VP8 at the camera's size and Opus, at least the window long.
    const probed = await Promise.all(files.map((f) => probe(tools, f.file).catch(() => null)));
    const filesPlay = probed.every(
      (m) =>
        m?.video?.codec === 'vp8' && m.video.width === width && m.video.height === height && m.audio?.codec === 'opus' && m.durationMs >= RECORD.windowS * 1000,
    );
    const recorderPct = rounds.map((r) => r.on.recorderPct);
    const sfuExtraPct = rounds.map((r) => round(r.on.sfuPct - r.off.sfuPct, 1));
    const serverTreeExtraPct = rounds.map((r) => round(r.on.serverTreePct - r.off.serverTreePct, 1));
    const recorderMedian = median(recorderPct);
    const consistency = {
      everyWindowRecorded: grown.length === RECORD.rounds && grown.every((f) => f.grewBytes > 0 && f.sameRecorder),
      filesPlay,
      offWindowsWithoutRecorder: offWithoutRecorder,
      publisherConnected: publisher.state === 'connected',
      ok: false,
    };
    consistency.ok = consistency.everyWindowRecorded && consistency.filesPlay && consistency.offWindowsWithoutRecorder && consistency.publisherConnected;
    const met = recorderMedian !== null && recorderMedian < TARGET_RECORDER_CPU_PCT;
    return {
      mode: 'record' as const,
      provider: 'embedded' as const,
      engine: 'pglite',
      publisher: {
        size: RECORD.size,
        fps: 25,
        videoKbps,
        note: `synthetic: VP8 (libvpx held at RECORD_KBPS, ${RECORD.kbps} kb/s, a keyframe a second) and Opus from a libdatachannel peer, as a browser camera sends at 720p`,
      },
      windowS: RECORD.windowS,
      rounds,
      recorderPct: { runs: recorderPct, median: recorderMedian },
      sfuExtraPct: { runs: sfuExtraPct, median: median(sfuExtraPct) },
      serverTreeExtraPct: { runs: serverTreeExtraPct, median: median(serverTreeExtraPct) },
      serverTreePct: { off: median(rounds.map((r) => r.off.serverTreePct)), on: median(rounds.map((r) => r.on.serverTreePct)) },
      recorded: grown.map((f, i) => ({ file: path.basename(f.file), grewBytes: f.grewBytes, durationMs: probed[i]?.durationMs ?? null })),
      cpuNote:
        '% of one core; recorder = its ffmpeg; sfu = the SFU child (its copy to the recorder is the difference); server = the server process; serverTree = the three; extra = with − without, per round',
      targets: { recorderPctUnder: TARGET_RECORDER_CPU_PCT, met },
      consistency,
    };
  } catch (err) {
    log(`record: server log tail:\n${server.tail()}`);
    throw err;
  } finally {
    publisher?.close();
    socket?.disconnect();
    await server.stop();
    // libdatachannel's threads would otherwise keep this process after its result.
    ndc.cleanup();
  }
}

async function startServer(provider: Provider, janusUrl: string | null, extraEnv: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'martillo-bench-video-'));
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Empty counts as unset for the server, and a checkout's .env does not override a set variable: PGlite, no Redis.
    DATABASE_URL: '',
    REDIS_URL: '',
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SESSION_SECRET: randomBytes(24).toString('hex'),
    ADMIN_EMAILS: ADMIN_EMAIL,
    VIDEO_PROVIDER: provider,
    VIDEO_BIND_ADDRESS: '127.0.0.1',
    ...(janusUrl ? { JANUS_URL: janusUrl } : {}),
    ...extraEnv,
  };
  delete env[ROLE_ENV];
  const args = ['--import', 'tsx', path.join(ROOT, 'src/server/main.ts')];
  // setpriv's parent-death signal: the server goes with the bench, even on a crash.
  const child: ChildProcess = existsSync('/usr/bin/setpriv')
    ? spawn('/usr/bin/setpriv', ['--pdeathsig', 'KILL', '--', process.execPath, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    if (lines.length > 100) lines.splice(0, lines.length - 100);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const tail = () => lines.slice(-30).join('\n');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(killer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the server exited (${child.exitCode}):\n${tail()}`);
    }
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer on ${base} within 120 s:\n${tail()}`);
    }
    await sleep(200);
  }
  return { base, pid: child.pid as number, dataDir, tail, stop };
}

interface Percentiles {
  p50: number | null;
  p95?: number | null;
  p99?: number | null;
  max: number | null;
  count: number;
}

async function runProvider(provider: Provider, browser: Browser, recording: boolean) {
  log(`${provider}: starting${recording ? ', recording the show' : ''}`);
  let janus: RunningJanus | null = null;
  /** janus-edges: the edges, EDGES of them (`janus` is then the origin). */
  const edges: RunningJanus[] = [];
  let server: Server | null = null;
  let load: ChildProcess | null = null;
  const pages: Page[] = [];
  /** The pages' errors, printed when the run fails. */
  const pageErrors: string[] = [];
  try {
    if (provider !== 'embedded') janus = await startJanus({ netns: true });
    if (provider === 'janus-edges') for (let e = 0; e < EDGES; e++) edges.push(await startJanus({ netns: true, plugins: ['streaming'] }));
    const janusPid = janus ? (janus.pid() ?? undefined) : undefined;
    if (janus && !janusPid) throw new Error('Janus runs but its process was not found under the bench');
    const edgePids = edges.map((e) => e.pid() ?? 0);
    // The synthetic viewers all come from 127.0.0.1: the crowd lifts the per-address cap (VIEWERS_PER_ADDRESS,
    // 20 by default) that the flood mode measures against, so every one of them may join.
    server = await startServer(provider === 'janus-edges' ? 'janus' : provider, janus?.url ?? null, {
      VIEWERS_PER_ADDRESS: String(VIEWERS + BROWSER_VIEWERS + 10),
      ...(edges.length ? { JANUS_EDGES: edges.map((e) => e.url).join(',') } : {}),
    });
    const { base } = server;

    // The seller: the admin of ADMIN_EMAILS, signed in through the development form, creates the session over the API.
    const sellerContext = await browser.newContext({ locale: 'es-MX', timezoneId: 'America/Mexico_City', viewport: { width: 1280, height: 900 } });
    await sellerContext.addInitScript({ content: pageScript(sellerInitScript) });
    const signIn = await sellerContext.request.post(`${base}/auth/dev`, {
      form: { email: ADMIN_EMAIL, name: 'Banco Video', returnTo: '/admin' },
      headers: { origin: base },
      maxRedirects: 0,
    });
    if (signIn.status() >= 400) throw new Error(`dev sign-in: ${signIn.status()} ${await signIn.text()}`);
    // A complete profile, as a seller's is: the Hub otherwise opens the profile form over everything.
    const profile = await sellerContext.request.put(`${base}/api/profile`, {
      data: { lastName: 'Video', companyName: 'Banco', whatsappCountryCode: '+52', whatsappLocal: '3312345678', whatsappConsentGiven: true },
      headers: { origin: base },
    });
    if (!profile.ok()) throw new Error(`profile: ${profile.status()} ${await profile.text()}`);
    const created = await sellerContext.request.post(`${base}/api/live-sessions`, {
      data: { title: `Banco de video ${provider}`, scheduledAt: Date.now() + 3_600_000, sellerSlug: 'banco-video', recording },
      headers: { origin: base },
    });
    if (created.status() !== 201) throw new Error(`create session: ${created.status()} ${await created.text()}`);
    const session = ((await created.json()) as { session: { id: string; sellerSlug: string | null } }).session;

    const hub = await sellerContext.newPage();
    pages.push(hub);
    hub.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') pageErrors.push(`seller: ${m.text()}`);
    });
    hub.on('pageerror', (e) => pageErrors.push(`seller: ${e.message}`));
    hub.setDefaultTimeout(30_000);
    await hub.goto(`${base}/admin/livehub?session=${session.id}`);
    await hub.getByTestId('transmission-panel').waitFor();
    await hub.getByRole('button', { name: es.livehub.broadcast.start, exact: true }).click();
    await hub.getByTestId('player-badge').getByText(es.livehub.broadcast.liveBadge).waitFor();
    log(`${provider}: the seller is live`);
    // The recorder (its own ffmpeg, a child of the server) writes from the SFU's copy within a few seconds.
    const recorder = recording ? await recorderWriting(server) : null;
    if (recorder) log(`${provider}: the recorder writes ${path.basename(recorder.file)}`);
    // Its muxer writes a cluster every few seconds: the file is read again at the end of the run.
    const recordedAtStart = recorder ? fileSize(recorder.file) : 0;

    for (let i = 0; i < BROWSER_VIEWERS; i++) {
      const context = await browser.newContext({ locale: 'es-MX', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      await context.addInitScript({ content: pageScript(viewerInitScript, PLAYER) });
      const page = await context.newPage();
      pages.push(page);
      await page.goto(`${base}${livePath({ id: session.id, sellerSlug: session.sellerSlug })}`);
      await page.getByTestId('live-session').waitFor({ timeout: 30_000 });
    }
    const viewerPages = pages.slice(1);
    const g2gCount = () => Promise.all(viewerPages.map((p) => p.evaluate(() => (window as unknown as { __g2g: number[] }).__g2g.length)));
    const readyBy = Date.now() + 30_000;
    while ((await g2gCount()).some((n) => n === 0)) {
      if (Date.now() > readyBy) throw new Error(`a browser viewer read no painted clock within 30 s (samples: ${await g2gCount()})`);
      await sleep(250);
    }

    // Phase 1, glass to glass: the seller and the browser viewers alone. On 2 cores their decoders
    // and the synthetic crowd cannot share the machine without starving each other (VIDEO.md measured
    // the two apart too), so the crowd comes after the browser viewers leave.
    for (const p of viewerPages) await p.evaluate(() => ((window as unknown as { __g2g: number[] }).__g2g.length = 0));
    await sleep(G2G_S * 1000);
    const g2g = (await Promise.all(viewerPages.map((p) => p.evaluate(() => (window as unknown as { __g2g: number[] }).__g2g.slice())))).flat();
    const g2gBad = (await Promise.all(viewerPages.map((p) => p.evaluate(() => (window as unknown as { __g2gBad: number }).__g2gBad)))).reduce(
      (a, b) => a + b,
      0,
    );
    for (const p of viewerPages) await p.context().close();
    pages.splice(1);
    // Their renderer processes leave the tree: let them go before the baseline reads it.
    await sleep(2000);
    log(`${provider}: glass to glass read on ${g2g.length} frames; the browser viewers leave`);

    // The recorder's ffmpeg first, so that the server's tree leaves it out: each is read apart.
    const roots = () => ({
      recorder: recorder ? [recorder.pid] : [],
      server: [server?.pid ?? 0, ...(janusPid ? [janusPid] : [])],
      load: load?.pid ? [load.pid] : [],
      ...Object.fromEntries(edgePids.map((pid, e) => [`edge${e}`, [pid]])),
      // The bench's own process holds Chromium (and nothing else once the others are claimed).
      benchAndBrowser: [process.pid],
    });
    // Phase 2, the crowd: first the seller alone (baseline), then N synthetic viewers.
    const baseline0 = cpuMark(roots);
    await sleep(BASELINE_S * 1000);
    const baseline = cpuBetween(baseline0, cpuMark(roots));

    // The synthetic viewers.
    let grant: { url: string; room: number } | null = null;
    if (provider === 'janus') {
      // One grant for all: the room is the session's, and the grant route is rate-limited per address (30 a minute).
      const res = await fetch(`${base}/api/live-sessions/${session.id}/video?role=subscriber`);
      const body = (await res.json()) as VideoGrant;
      if (body.provider !== 'janus') throw new Error(`subscriber grant: ${res.status} ${JSON.stringify(body)}`);
      grant = { url: body.url, room: body.room };
    }
    load = forkRole(THIS_FILE, ROLE_ENV, 'load');
    const loadChild = load;
    const start: LoadStart = { type: 'start', provider, base, sessionId: session.id, viewers: VIEWERS, gapMs: GAP_MS, janus: grant };
    loadChild.send(start);
    log(`${provider}: ${VIEWERS} synthetic viewers joining, ${GAP_MS} ms apart`);
    const assignedNext = provider === 'janus-edges' ? onceMessage<LoadAssigned>(loadChild, 'assigned') : null;
    const joined = await onceMessage<LoadJoined>(loadChild, 'joined');
    const assigned = (await assignedNext)?.edges ?? null;
    log(`${provider}: joined in ${joined.joinSeconds} s (${joined.failures} failed); measuring ${WINDOW_S} s`);

    const snapshot = async () => {
      loadChild.send({ type: 'snapshot' });
      return onceMessage<LoadBytes>(loadChild, 'bytes');
    };
    const sent0 = await sellerSent(hub);
    const bytes0 = await snapshot();
    const window0 = cpuMark(roots);
    await sleep(WINDOW_S * 1000);
    const window1 = cpuMark(roots);
    const bytes1 = await snapshot();
    const sent1 = await sellerSent(hub);
    // The same ffmpeg wrote throughout (its CPU is its own), and its file grew.
    const recorded = recorder
      ? { file: path.basename(recorder.file), grewBytes: fileSize(recorder.file) - recordedAtStart, sameRecorder: recorderProcesses(server).has(recorder.pid) }
      : null;
    const cpu = cpuBetween(window0, window1);
    const windowS = (window1.at - window0.at) / 1000;
    loadChild.send({ type: 'stop' });
    const done = await onceMessage<LoadDone>(loadChild, 'done');
    await exited(loadChild);

    const sellerKbps = round((8 * (sent1.bytes - sent0.bytes)) / ((sent1.at - sent0.at) / 1000) / 1000, 0);
    const viewerKbps = bytes1.video.map((b, i) => (8 * (b - (bytes0.video[i] ?? 0))) / windowS / 1000);
    const rtpKbps = bytes1.rtp.map((b, i) => (8 * (b - (bytes0.rtp[i] ?? 0))) / windowS / 1000);
    const sortedKbps = [...viewerKbps].sort((a, b) => a - b);
    const medianKbps = percentile(sortedKbps, 50) ?? 0;
    const fullRate = viewerKbps.filter((k) => k >= FULL_RATE_SHARE * sellerKbps).length;
    const keyframes = joined.keyframeMs.filter((k): k is number => k !== null).sort((a, b) => a - b);
    const sortedG2g = [...g2g].sort((a, b) => a - b);
    const serverPct = cpu.serverPct ?? 0;

    const connections = joined.connectedMs.filter((k): k is number => k !== null).sort((a, b) => a - b);
    // The share of the first keyframe's wait spent connecting (ICE + DTLS), the rest waiting for the picture.
    const connectedMs: Percentiles = {
      p50: percentile(connections, 50),
      p99: percentile(connections, 99),
      max: percentile(connections, 100),
      count: connections.length,
    };
    const firstKeyframeMs: Percentiles = {
      p50: percentile(keyframes, 50),
      p99: percentile(keyframes, 99),
      max: percentile(keyframes, 100),
      count: keyframes.length,
    };
    const glassToGlassMs: Percentiles = { p50: percentile(sortedG2g, 50), p95: percentile(sortedG2g, 95), max: percentile(sortedG2g, 100), count: g2g.length };
    // janus-edges: each edge's viewers and CPU, and how many viewers one of its cores would hold at this rate.
    const edgeFigures = edges.map((_, e) => {
      const viewers = assigned?.filter((a) => a === e).length ?? 0;
      const cpuPct = cpu[`edge${e}Pct`] ?? 0;
      // With the seller alone the edge already receives the show and relays it to nobody.
      const baselinePct = baseline[`edge${e}Pct`] ?? 0;
      const keyframesHere = joined.keyframeMs.filter((k, i): k is number => k !== null && assigned?.[i] === e).sort((a, b) => a - b);
      return {
        edge: e,
        viewers,
        cpuPct,
        baselinePct,
        viewersPerEdgeCore: cpuPct > 0 ? round((viewers * 100) / cpuPct, 0) : null,
        firstKeyframeMs: {
          p50: percentile(keyframesHere, 50),
          p99: percentile(keyframesHere, 99),
          max: percentile(keyframesHere, 100),
          count: keyframesHere.length,
        },
      };
    });
    const keyframeOk = (firstKeyframeMs.p99 ?? Number.POSITIVE_INFINITY) < TARGET_KEYFRAME_P99_MS;
    const g2gOk = (glassToGlassMs.p95 ?? Number.POSITIVE_INFINITY) < TARGET_G2G_P95_MS;
    const rateOk = fullRate === VIEWERS && serverPct < TARGET_SERVER_CPU_PCT;
    const targets = {
      ...(provider === 'embedded' ? { allAtFullRateUnderOneCore: rateOk } : {}),
      firstKeyframeP99Under1s: keyframeOk,
      glassToGlassP95Under150ms: g2gOk,
      met: keyframeOk && g2gOk && (provider !== 'embedded' || rateOk),
    };
    const consistency = {
      joined: VIEWERS - joined.failures,
      everyViewerGotAKeyframe: keyframes.length === VIEWERS,
      bytesFlowedToEveryViewer: viewerKbps.every((k) => k > 0),
      sellerSent: sellerKbps > 0,
      browserViewersReadTheClock: g2g.length > 0,
      /** With recording on: the recorder's file grew over the run, written by the one ffmpeg. */
      recorded: recorded ? recorded.grewBytes > 0 && recorded.sameRecorder : null,
      /** janus-edges: every viewer was sent to an edge, and the server used every edge (the least loaded takes the next viewer). */
      everyEdgeTookViewers: provider === 'janus-edges' ? edgeFigures.every((e) => e.viewers > 0) : null,
      ok: false,
    };
    consistency.ok =
      consistency.joined === VIEWERS &&
      consistency.everyEdgeTookViewers !== false &&
      consistency.everyViewerGotAKeyframe &&
      consistency.bytesFlowedToEveryViewer &&
      consistency.sellerSent &&
      consistency.browserViewersReadTheClock &&
      consistency.recorded !== false;
    if (!consistency.ok) {
      // What the processes said, so that a run that lost viewers says why.
      log(`${provider}: inconsistent run; server log tail:\n${server.tail()}`);
      if (janus) log(`${provider}: ${edges.length ? 'origin' : 'Janus'} log tail:\n${janus.logTail()}`);
      for (const [e, edge] of edges.entries()) log(`${provider}: edge ${e} log tail:\n${edge.logTail()}`);
    }

    return {
      provider,
      engine: 'pglite',
      recording,
      recorded,
      viewers: VIEWERS,
      browserViewers: BROWSER_VIEWERS,
      gapMs: GAP_MS,
      windowS: round(windowS, 1),
      joinSeconds: joined.joinSeconds,
      joinFailures: joined.failures,
      joinRetries: joined.retries,
      lastJoinRetry: joined.lastRetry,
      lastJoinError: joined.lastError,
      peerStates: done.states,
      signallingLost: done.signallingLost,
      seller: { videoKbps: sellerKbps, fps: sent1.fps, size: sent1.size, qualityLimitation: sent1.limitation },
      fullRate: {
        viewers: fullRate,
        rule: `VP8 payload rate ≥ ${FULL_RATE_SHARE * 100} % of the seller's sent video (outbound-rtp bytesSent − retransmittedBytesSent)`,
        ofMedianViewer: viewerKbps.filter((k) => k >= FULL_RATE_SHARE * medianKbps).length,
        videoKbps: { min: round(sortedKbps[0] ?? 0, 0), p50: round(medianKbps, 0), max: round(sortedKbps[sortedKbps.length - 1] ?? 0, 0) },
        rtpKbpsMean: round(rtpKbps.reduce((a, b) => a + b, 0) / Math.max(1, rtpKbps.length), 0),
      },
      firstKeyframeMs,
      connectedMs,
      glassToGlassMs: { ...glassToGlassMs, unreadableFrames: g2gBad },
      ...(provider === 'janus-edges'
        ? {
            /** Per edge: the viewers the server sent there, its Janus's CPU (% of one core) and viewers per edge-core; the origin's CPU is in cpu.window.serverPct. */
            edges: edgeFigures,
            viewersPerEdgeCore: median(edgeFigures.flatMap((e) => (e.viewersPerEdgeCore === null ? [] : [e.viewersPerEdgeCore]))),
            edgesSpread: edgeFigures.map((e) => e.viewers),
          }
        : {}),
      cpu: {
        note: "% of one core; server = the server process tree (with the SFU child, or the Janus process), without the recorder; recorder = the recorder's ffmpeg (0 without recording); load = the synthetic viewers; benchAndBrowser = this process and Chromium (the seller's page; the browser viewers left after phase 1)",
        baseline,
        window: cpu,
        serverPerViewerPct: round(serverPct / VIEWERS, 3),
        serverPerViewerAboveBaselinePct: round((serverPct - (baseline.serverPct ?? 0)) / VIEWERS, 3),
      },
      targets,
      consistency,
      /** Every viewer's figure, for recordingEffect's pooling: taken off before the run is printed. */
      samples: { firstKeyframeMs: keyframes, glassToGlassMs: sortedG2g },
    };
  } catch (err) {
    if (server) log(`${provider}: server log tail:\n${server.tail()}`);
    if (janus) log(`${provider}: Janus log tail:\n${janus.logTail()}`);
    if (pageErrors.length) log(`${provider}: browser errors:\n${pageErrors.slice(-20).join('\n')}`);
    const panel = await pages[0]
      ?.getByTestId('transmission-panel')
      .innerText({ timeout: 1000 })
      .catch(() => null);
    if (panel) log(`${provider}: the Hub's transmission panel says:\n${panel}`);
    throw err;
  } finally {
    if (load && load.exitCode === null) load.kill('SIGKILL');
    for (const page of pages)
      await page
        .context()
        .close()
        .catch(() => {});
    await server?.stop();
    await janus?.stop();
    for (const edge of edges) await edge.stop();
  }
}

interface CrowdRunFigures {
  provider: Provider;
  recording: boolean;
  firstKeyframeMs: Percentiles;
  glassToGlassMs: Percentiles;
  cpu: { baseline: Record<string, number> };
  samples: { firstKeyframeMs: number[]; glassToGlassMs: number[] };
}

/**
 * RECORDING=both: the embedded crowd with recording ÷ without, measured in the same bench. Each
 * side's viewers are pooled over its PAIRS runs before the percentiles are taken; `met` reads the
 * live targets' percentiles (first keyframe p99, glass to glass p95) of the pools. Each pair's own
 * ratios are printed too, and their median: a ratio that only one pair shows is the machine.
 */
function compareRecording(runs: CrowdRunFigures[]) {
  const embedded = runs.filter((r) => r.provider === 'embedded');
  const offRuns = embedded.filter((r) => !r.recording);
  const onRuns = embedded.filter((r) => r.recording);
  if (offRuns.length === 0 || onRuns.length === 0) return null;
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b !== null && b !== undefined ? round(b / a, 2) : null);
  const pair = (a: number | null | undefined, b: number | null | undefined) => ({ off: a ?? null, on: b ?? null, ratio: ratio(a, b) });
  const pooled = (side: CrowdRunFigures[], key: keyof CrowdRunFigures['samples'], p: number) =>
    percentile(
      side.flatMap((r) => r.samples[key]).sort((a, b) => a - b),
      p,
    );
  const firstKeyframeMs = {
    p50: pair(pooled(offRuns, 'firstKeyframeMs', 50), pooled(onRuns, 'firstKeyframeMs', 50)),
    p99: pair(pooled(offRuns, 'firstKeyframeMs', 99), pooled(onRuns, 'firstKeyframeMs', 99)),
  };
  const glassToGlassMs = {
    p50: pair(pooled(offRuns, 'glassToGlassMs', 50), pooled(onRuns, 'glassToGlassMs', 50)),
    p95: pair(pooled(offRuns, 'glassToGlassMs', 95), pooled(onRuns, 'glassToGlassMs', 95)),
  };
  const pairs = offRuns.slice(0, onRuns.length).map((off, i) => {
    const on = onRuns[i] as CrowdRunFigures;
    return {
      firstKeyframeP99: pair(off.firstKeyframeMs.p99, on.firstKeyframeMs.p99),
      glassToGlassP95: pair(off.glassToGlassMs.p95, on.glassToGlassMs.p95),
    };
  });
  const medianOf = (values: (number | null)[]) =>
    percentile(
      values.filter((v): v is number => v !== null).sort((a, b) => a - b),
      50,
    );
  const baseline = (side: CrowdRunFigures[], key: string) =>
    percentile(
      side.map((r) => r.cpu.baseline[key] ?? 0).sort((a, b) => a - b),
      50,
    );
  const within = (value: number | null) => value !== null && value <= TARGET_RECORDING_RATIO;
  return {
    provider: 'embedded' as const,
    note:
      offRuns.length === 1
        ? 'with recording ÷ without, one crowd run each, one after the other: on a shared machine repeat the pair (PAIRS) before reading a ratio'
        : `with recording ÷ without, each side's ${offRuns.length} runs' viewers pooled; the pairs ran in turned order`,
    runsPerSide: offRuns.length,
    samples: {
      firstKeyframe: {
        off: offRuns.reduce((n, r) => n + r.samples.firstKeyframeMs.length, 0),
        on: onRuns.reduce((n, r) => n + r.samples.firstKeyframeMs.length, 0),
      },
      glassToGlass: {
        off: offRuns.reduce((n, r) => n + r.samples.glassToGlassMs.length, 0),
        on: onRuns.reduce((n, r) => n + r.samples.glassToGlassMs.length, 0),
      },
    },
    firstKeyframeMs,
    glassToGlassMs,
    pairs,
    medianPairRatio: {
      firstKeyframeP99: medianOf(pairs.map((p) => p.firstKeyframeP99.ratio)),
      glassToGlassP95: medianOf(pairs.map((p) => p.glassToGlassP95.ratio)),
    },
    sellerAloneCpuPct: {
      server: pair(baseline(offRuns, 'serverPct'), baseline(onRuns, 'serverPct')),
      recorder: baseline(onRuns, 'recorderPct'),
    },
    met: within(firstKeyframeMs.p99.ratio) && within(glassToGlassMs.p95.ratio),
  };
}

async function main(): Promise<void> {
  if (!process.env.MARTILLO_VIDEO_NETNS) {
    // Re-run inside a fresh loopback-only namespace: media must never leave 127.0.0.0/8.
    const reason = canMakeVideoNetns();
    if (reason) {
      console.error(`bench:video needs a network namespace (scripts/video-netns.ts): ${reason}`);
      process.exit(2);
    }
    const res = spawnSync(TSX, [path.join(ROOT, 'scripts/video-netns.ts'), '--', TSX, THIS_FILE], { stdio: 'inherit', cwd: ROOT });
    process.exit(res.status ?? 1);
  }
  for (const mode of MODES)
    if (mode !== 'crowd' && mode !== 'flood' && mode !== 'record') throw new Error(`MODES: unknown mode '${mode}' (crowd, flood, record)`);
  const crowd = MODES.includes('crowd');
  if (RECORDING !== 'off' && RECORDING !== 'on' && RECORDING !== 'both') throw new Error(`RECORDING: '${RECORDING}' is not off, on or both`);
  if (!(RECORD.windowS > 0 && RECORD.rounds >= 1 && Number.isInteger(RECORD.rounds) && /^\d+x\d+$/.test(RECORD.size)))
    throw new Error('RECORD_WINDOW_S must be > 0, RECORD_ROUNDS a whole number of at least 1, RECORD_SIZE as 1280x720');
  if ((MODES.includes('record') || (crowd && RECORDING !== 'off')) && !(await findFfmpeg())) throw new Error('recording needs ffmpeg (apt-get install ffmpeg)');
  for (const provider of PROVIDERS) {
    if (provider !== 'embedded' && provider !== 'janus' && provider !== 'janus-edges')
      throw new Error(`PROVIDERS: unknown provider '${provider}' (embedded, janus, janus-edges)`);
  }
  if (!(FLOOD.sockets >= 1 && Number.isInteger(FLOOD.sockets) && FLOOD.seconds > 0 && FLOOD.settleSeconds >= 0))
    throw new Error('FLOOD_SOCKETS must be a whole number of at least 1, FLOOD_S > 0, FLOOD_SETTLE_S ≥ 0');
  if (!(VIEWERS >= 1 && Number.isInteger(VIEWERS))) throw new Error('VIEWERS must be a whole number of at least 1');
  if (!(PAIRS >= 1 && Number.isInteger(PAIRS))) throw new Error('PAIRS must be a whole number of at least 1');
  if (!(WINDOW_S > 0 && BASELINE_S > 0 && GAP_MS >= 0 && BROWSER_VIEWERS >= 1))
    throw new Error('WINDOW_S and BASELINE_S must be > 0, GAP_MS ≥ 0, BROWSER_VIEWERS ≥ 1');
  if (crowd && PROVIDERS.includes('janus')) {
    const missing = janusMissingReason();
    if (missing) throw new Error(`PROVIDERS includes janus, but ${missing}`);
  }
  if (crowd && PROVIDERS.includes('janus-edges')) {
    const missing = janusMissingReason(['videoroom', 'streaming']);
    if (missing) throw new Error(`PROVIDERS includes janus-edges, but ${missing}`);
    if (!(EDGES >= 1 && Number.isInteger(EDGES))) throw new Error('EDGES must be a whole number of at least 1');
  }
  if (crowd && !existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (CHROMIUM_PATH)`);

  // Built once here, so no server start spends its first minute in Vite.
  const { ensureWebBundle } = await import('../src/server/web/bundle.js');
  await ensureWebBundle(ROOT, log);
  const runs = [];
  if (crowd) {
    const browser = await launchBrowser();
    try {
      for (const provider of PROVIDERS) {
        // Janus records on its own side: its runs are without recording whatever RECORDING says.
        // RECORDING=both: PAIRS pairs, without then with, then with then without, and so on.
        const pairs = Array.from({ length: PAIRS }, (_, i) => (i % 2 === 0 ? [false, true] : [true, false])).flat();
        const settings = provider !== 'embedded' || RECORDING === 'off' ? [false] : RECORDING === 'on' ? [true] : pairs;
        for (const recording of settings) runs.push({ mode: 'crowd' as const, ...(await runProvider(provider, browser, recording)) });
      }
    } finally {
      await browser.close();
    }
  }
  const recordingEffect = RECORDING === 'both' ? compareRecording(runs) : null;
  const record = MODES.includes('record') ? await runRecordMode() : null;
  const flood = MODES.includes('flood') ? await runFloodMode() : null;
  const targets = {
    firstKeyframeP99Ms: TARGET_KEYFRAME_P99_MS,
    glassToGlassP95Ms: TARGET_G2G_P95_MS,
    embedded: { viewers: 300, allAtFullRate: true, serverCpuPctUnder: TARGET_SERVER_CPU_PCT },
    recording: { recorderCpuPctUnder: TARGET_RECORDER_CPU_PCT, withOverWithoutAtMost: TARGET_RECORDING_RATIO },
    flood: { realViewerWatches: true, sfuRssAfterOverBeforeAtMost: 1.2 },
  };
  console.log(
    JSON.stringify(
      {
        bench: 'video',
        at: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        targets,
        meetsTargets:
          runs.every((r) => r.targets.met) &&
          (!crowd || !PROVIDERS.includes('embedded') || VIEWERS >= 300) &&
          (recordingEffect === null || recordingEffect.met) &&
          (record === null || record.targets.met) &&
          (flood === null || flood.targets.met),
        ...(recordingEffect ? { recordingEffect } : {}),
        runs: [...runs.map(({ samples: _samples, ...run }) => run), ...(record ? [record] : []), ...(flood ? [flood] : [])],
      },
      null,
      2,
    ),
  );
}

const role = process.env[ROLE_ENV];
(role === 'load' ? runLoad() : role === 'flood' ? runFloodLoad() : main()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
