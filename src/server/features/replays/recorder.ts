import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ReplaysConfig } from '../../config.js';
import { type Db, rows } from '../../db/connect.js';
import { type PassLoop, startPassLoop } from '../../pass-loop.js';
import type { MediaTap } from '../../providers/video/types.js';
import { type FfmpegTools, findFfmpeg } from './media/index.js';
import { boundUdpPorts, pickRecorderPorts } from './udp-ports.js';

/**
 * The `recorder` job: every show that is live with *Grabar el show* on, and whose seller publishes
 * through this instance's embedded SFU, is recorded. The SFU copies the seller's RTP as it
 * forwards it (sfu/recording-tap.ts) to an ffmpeg on the loopback, which writes it to a WebM
 * without re-encoding (VP8 and Opus, as the browser sent them): a few percent of one core.
 *
 * Each stretch from a start (or a resume after *Detener*, a lost camera, a reload, a restarted SFU
 * or ffmpeg) to its stop is one `recording_segments` row, its file under
 * DATA_DIR/recordings/<show>/; the replays job joins them in order. Its `started_at` is the
 * moment the SFU copied the first keyframe, the zero of the file's own clock.
 *
 * A pass compares what is recorded with what should be, each second and at once when a publisher
 * comes or goes. A recording stops as its packets do: ffmpeg ends its input 3 s after the last one
 * and finishes the file (so a server killed mid-show leaves no ffmpeg behind either); a stop
 * asked while packets still come is read at the next one (SIGINT). A segment whose ffmpeg ended
 * on its own (a fault, the camera silent for 3 s) is closed with what it wrote, and the next pass
 * starts another. A server that starts closes the segments its host left open.
 */

/** How often the recorder looks, besides the publishers' events: a show's status changes (live, ended, recording off) are seen within it. */
export const RECORDER_EVERY_MS = 1000;
/** When ffmpeg is missing the recorder looks again this rarely. */
const NO_FFMPEG_RETRY_MS = 10 * 60 * 1000;
/** How long the job sleeps where there is nothing to copy (Janus, Agora). */
const IDLE_MS = 60 * 60 * 1000;
/** How long ffmpeg may take to open its ports. */
const LISTEN_WAIT_MS = 5000;
/** Seconds without a packet after which ffmpeg ends its input and finishes the file. */
const QUIET_END_S = 3;
/** How long ffmpeg may take to finish its file once told, before SIGKILL (what it had not written is lost). */
const FINISH_WAIT_MS = QUIET_END_S * 1000 + 7000;
/** Attempts at four free ports (another process may take one between the pick and ffmpeg's bind). */
const PORT_ATTEMPTS = 3;

export interface RecorderDeps {
  db: Db;
  /** The embedded SFU's copy; null with Janus or Agora, whose recordings are made on their own side: the job then idles. */
  tap: MediaTap | null;
  config: ReplaysConfig;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Which machine this is: the segments' files are on its disk. */
  host?: string;
  /** Where ffmpeg is; found on PATH (FFMPEG_PATH) by default. */
  findTools?: () => Promise<FfmpegTools | null>;
}

interface Recording {
  sessionId: string;
  pubId: string;
  segmentId: string;
  /** Relative to the recordings folder, as the segment's row keeps it. */
  file: string;
  child: ChildProcess;
  exited: Promise<void>;
  hasExited: boolean;
  /** The SFU copied its first keyframe: the file will hold something. */
  started: boolean;
}

/** The SDP ffmpeg reads: what the SFU sends (its OUT payload types, sfu/forwarding.ts) on the loopback. */
export function recorderSdp(ports: { video: number; audio: number }): string {
  return [
    'v=0',
    'o=- 0 0 IN IP4 127.0.0.1',
    's=Martillo',
    'c=IN IP4 127.0.0.1',
    't=0 0',
    `m=video ${ports.video} RTP/AVP 96`,
    'a=rtpmap:96 VP8/90000',
    `m=audio ${ports.audio} RTP/AVP 111`,
    'a=rtpmap:111 opus/48000/2',
    '',
  ].join('\r\n');
}

export function startRecorder(deps: RecorderDeps): PassLoop {
  const { db, tap, config, log } = deps;
  const host = deps.host ?? os.hostname();
  const active = new Map<string, Recording>();
  let tools: FfmpegTools | null | undefined;
  let toolsCheckedAt = 0;
  let closedLeftovers = false;
  let stopped = false;

  /** One reconcile at a time; a wake while one runs asks for one more after it. */
  let running: Promise<void> | null = null;
  let again = false;
  function reconcileNow(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await reconcile();
        } while (again && !stopped);
      } finally {
        running = null;
      }
    })();
    return running;
  }
  const wake = () => {
    if (!stopped) reconcileNow().catch((err: unknown) => log.error({ err }, 'recorder pass failed'));
  };

  const unsubscribe =
    tap?.subscribe((event) => {
      if (event.type === 'started') void markStarted(event.sessionId, event.pubId, event.at);
      else wake();
    }) ?? (() => {});

  async function ffmpegTools(): Promise<FfmpegTools | null> {
    if (tools === undefined || (tools === null && Date.now() - toolsCheckedAt > NO_FFMPEG_RETRY_MS)) {
      toolsCheckedAt = Date.now();
      tools = await (deps.findTools ?? findFfmpeg)();
      if (!tools) log.warn({}, 'shows are not recorded: ffmpeg was not found (apt-get install ffmpeg)');
    }
    return tools;
  }

  async function reconcile(): Promise<void> {
    if (!closedLeftovers) {
      // This host's segments left open by a server that stopped without closing them: their ffmpeg is gone.
      await db.execute(sql`update recording_segments set ended_at = now() where host = ${host} and source = 'embedded' and ended_at is null`);
      closedLeftovers = true;
    }
    const publishing = tap?.publishing() ?? new Map<string, string>();
    const wanted = new Set<string>();
    if (publishing.size > 0 && !stopped && (await ffmpegTools())) {
      const ids = [...publishing.keys()];
      const found = rows<{ id: string }>(
        await db.execute(sql`
          select id from live_sessions
          where id in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )}) and status = 'live' and recording and not rehearsal`),
      );
      for (const { id } of found) wanted.add(id);
    }
    for (const rec of [...active.values()]) {
      if (!wanted.has(rec.sessionId) || publishing.get(rec.sessionId) !== rec.pubId || rec.hasExited) finishSoon(rec);
    }
    for (const sessionId of wanted) {
      const pubId = publishing.get(sessionId);
      if (pubId && !active.has(sessionId) && !stopped) await begin(sessionId, pubId);
    }
  }

  async function begin(sessionId: string, pubId: string): Promise<void> {
    const ffmpeg = (tools as FfmpegTools).ffmpeg;
    const segmentId = randomUUID();
    const file = path.join(sessionId, `${segmentId}.webm`);
    const dir = path.join(config.recordingsDir, sessionId);
    const sdpFile = path.join(dir, `${segmentId}.sdp`);
    await mkdir(dir, { recursive: true });
    let child: ChildProcess | null = null;
    let ports: { video: number; audio: number } | null = null;
    for (let attempt = 1; attempt <= PORT_ATTEMPTS && !child; attempt++) {
      ports = await pickRecorderPorts();
      await writeFile(sdpFile, recorderSdp(ports));
      const spawned = spawnFfmpeg(ffmpeg, sdpFile, path.join(config.recordingsDir, file));
      if (await listening(spawned, ports)) child = spawned;
      else {
        spawned.kill('SIGKILL');
        log.warn({ sessionId, ports, attempt }, 'the recorder did not open its ports');
      }
    }
    if (!child || !ports) {
      await rm(sdpFile, { force: true });
      log.error({ sessionId }, 'the show could not be recorded: ffmpeg did not start');
      return;
    }
    let markExited = () => {};
    const exited = new Promise<void>((resolve) => {
      markExited = resolve;
    });
    const rec: Recording = { sessionId, pubId, segmentId, file, child, exited, hasExited: false, started: false };
    child.once('exit', (code, signal) => {
      rec.hasExited = true;
      markExited();
      void rm(sdpFile, { force: true });
      if (active.get(sessionId) === rec) {
        // ffmpeg ended on its own (10 s without packets, or a fault): the next pass closes the segment and starts another.
        log.warn({ sessionId, code, signal }, 'the recorder stopped during the show');
        wake();
      }
    });
    active.set(sessionId, rec);
    // The show's replay-to-be, and this stretch of it; its start moves to the first keyframe's moment.
    await db.execute(sql`insert into replays (session_id) values (${sessionId}::uuid) on conflict (session_id) do nothing`);
    await db.execute(sql`
      insert into recording_segments (id, session_id, source, files, host, started_at)
      values (${segmentId}::uuid, ${sessionId}::uuid, 'embedded', ${JSON.stringify([file])}::jsonb, ${host}, now())`);
    if (!(await (tap as MediaTap).record(sessionId, pubId, ports))) finishSoon(rec);
  }

  /** Finishes `rec` without holding up the next pass: a resume starts its own segment meanwhile. */
  const finishing = new Set<Promise<void>>();
  function finishSoon(rec: Recording): void {
    if (active.get(rec.sessionId) === rec) active.delete(rec.sessionId);
    const done = finish(rec)
      .catch((err: unknown) => log.error({ err, sessionId: rec.sessionId }, 'could not finish a recording'))
      .finally(() => finishing.delete(done));
    finishing.add(done);
  }

  async function markStarted(sessionId: string, pubId: string, at: number): Promise<void> {
    const rec = active.get(sessionId);
    if (!rec || rec.pubId !== pubId || rec.started) return;
    rec.started = true;
    try {
      await db.execute(sql`update recording_segments set started_at = ${new Date(at).toISOString()}::timestamptz where id = ${rec.segmentId}::uuid`);
    } catch (err) {
      log.error({ err, sessionId }, "could not write a recording's start");
    }
  }

  /** Stops ffmpeg (which finishes its file) and the copy, then closes the segment, or drops it when nothing was recorded. */
  async function finish(rec: Recording): Promise<void> {
    if (!rec.hasExited) {
      rec.child.kill('SIGINT');
      const timer = setTimeout(() => rec.child.kill('SIGKILL'), FINISH_WAIT_MS);
      await rec.exited;
      clearTimeout(timer);
    }
    // The room's copy, unless a resume has made it its own since.
    if (!active.has(rec.sessionId)) await tap?.stop(rec.sessionId).catch(() => {});
    const full = path.join(config.recordingsDir, rec.file);
    const size = await stat(full).then(
      (s) => s.size,
      () => 0,
    );
    if (!rec.started || size === 0) {
      await rm(full, { force: true });
      await db.execute(sql`delete from recording_segments where id = ${rec.segmentId}::uuid`);
      return;
    }
    await db.execute(sql`update recording_segments set ended_at = now() where id = ${rec.segmentId}::uuid`);
  }

  const loop = startPassLoop({
    name: 'recorder',
    log,
    retryMs: RECORDER_EVERY_MS,
    async pass() {
      if (!tap) return IDLE_MS;
      await reconcileNow();
      return tools === null ? NO_FFMPEG_RETRY_MS : RECORDER_EVERY_MS;
    },
  });
  return {
    status: () => loop.status(),
    async stop() {
      stopped = true;
      unsubscribe();
      await loop.stop();
      await running?.catch(() => {});
      // Each recording's file is finished before the server goes: a replay can be made of it.
      for (const rec of [...active.values()]) finishSoon(rec);
      await Promise.all([...finishing]);
    },
  };
}

/** ffmpeg reading the SFU's copy on the loopback only, writing it as it came (no re-encoding) to a WebM. */
function spawnFfmpeg(ffmpeg: string, sdpFile: string, output: string): ChildProcess {
  const child = spawn(
    ffmpeg,
    [
      '-hide_banner',
      '-nostats',
      '-nostdin',
      '-loglevel',
      'error',
      '-protocol_whitelist',
      'file,udp,rtp',
      '-localaddr',
      '127.0.0.1',
      // A burst (a keyframe is dozens of packets) must not overflow the socket's default buffer.
      '-buffer_size',
      String(4 * 1024 * 1024),
      // The codecs are the SDP's and the first packet is a keyframe (the picture's size): a second of
      // probing is plenty (at the default 5 s, a stop in the first seconds found nothing written).
      '-analyzeduration',
      '1000000',
      // The input ends this many seconds after its last packet, and ffmpeg finishes the file: how a
      // recording stops (SIGINT alone is only read between packets, and a second one abandons the file).
      '-listen_timeout',
      String(QUIET_END_S),
      '-i',
      `file:${sdpFile}`,
      '-map',
      '0',
      '-c',
      'copy',
      '-f',
      'webm',
      '-y',
      `file:${output}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // Its few error lines are read so the pipe never fills; a fault shows in the exit.
  child.stderr?.resume();
  child.on('error', () => {});
  return child;
}

/** Whether ffmpeg bound both ports before it exited or the wait ran out. */
async function listening(child: ChildProcess, ports: { video: number; audio: number }): Promise<boolean> {
  const deadline = Date.now() + LISTEN_WAIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    const bound = await boundUdpPorts();
    if (bound.has(ports.video) && bound.has(ports.audio)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
