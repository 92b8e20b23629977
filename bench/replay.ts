/**
 * bench:replay — what recording a show costs while it runs, what its replay costs after it ends,
 * and what watching it costs a phone.
 *
 * - recorderCpu (measured once, in the first run): the recorder itself, by bench:video's record
 *   mode (`MODES=record`, bench/video.ts, spawned here; it runs in a loopback-only network
 *   namespace, so it needs root): the server (src/server/main.ts, PGlite in a temp dir, every job
 *   on) with the embedded SFU, one live show published by a synthetic seller (real VP8 and Opus at
 *   RECORD_SIZE, no viewers), and RECORD_ROUNDS (3) rounds of RECORD_WINDOW_S (30) s without
 *   recording then as long with it (the show's `recording` switched over the API). Per round and
 *   their median, in % of one core from /proc: the recorder's ffmpeg (target under 5 %), the SFU
 *   child's extra for the copy, the server's tree with and without. Each recorded window's WebM must
 *   have grown and probe as VP8 + Opus at least the window long, or its consistency fails.
 *
 * Then a synthetic recording stands in for a long show: MINUTES (10) of 720p VP8/Opus, as the
 * recorder writes it, in SEGMENTS (2) files (a pause between them), with LOTS (20) lot runs spread
 * over it, the even ones sold. Then, as the `replays` job does it, on this machine:
 * - transcodeSpeed: the MP4 made at 720p and at 480p (`REPLAY_HEIGHT`), as a multiple of real time
 *   (the recording's length ÷ the wall time), with ffmpeg at nice 19, and the machine's CPU while
 *   it ran (% of all cores: the job must leave a live show its share);
 * - clipCutMs: each sold lot's clip cut from the 720p replay (p50, max);
 * - serving (the server's replay video route, local disk, over HTTP on this machine): first byte of
 *   a player's first request (`Range: bytes=0-`), and a seek to a chapter (a Range at the chapter's
 *   share of the file, answered and its first 256 KB read: a phone's player asks about that much
 *   before it shows the frame). Target: a seek under 500 ms from local disk.
 * - measuredElsewhere: the live show's first keyframe and glass to glass with and without
 *   recording need a browser seller and viewers: bench:video measures them
 *   (`RECORDING=both PROVIDERS=embedded MODES=crowd npm run bench:video`, its `recordingEffect`).
 * - phone (bench/replay-phone.ts): the ended show's public page in Chromium as a 390 px phone, each open
 *   on a fresh context: the player shown, the first frame after play is pressed (from the navigation's
 *   start and from the press), and a seek to PHONE_SEEKS chapters' moments, each to its first frame
 *   shown (target: under 500 ms from local disk, the `loopback` profile); PHONE_OPENS opens per
 *   profile, `loopback` and `slow4g` (Lighthouse's mobile throttling). A desktop Chromium's decoder
 *   on this machine, not a phone's.
 * - notMeasured: what could not be measured here, with why.
 * - consistency: the MP4s are H.264/AAC at the asked height and the recording's length (±1 s),
 *   every clip is its lot's length (±1 s), every Range answer is 206 with the asked bytes, the
 *   recorder's windows were recorded, and the phone showed every first frame and seek (when measured).
 *
 * Knobs: MINUTES (10), SEGMENTS (2), LOTS (20), HEIGHTS ("720,480"), RECORD_SIZE ("1280x720", the
 * synthetic recording's and the recorder's camera), RECORD_WINDOW_S (30), RECORD_ROUNDS (3; 0 skips
 * the recorder), PHONE_OPENS (3; 0 skips the phone), PHONE_PROFILES ("loopback,slow4g"), PHONE_SEEKS (5),
 * CHROMIUM_PATH (/usr/bin/chromium), ENGINES, DATABASE_URL.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canMakeVideoNetns } from '../scripts/video-netns.js';
import { livePath } from '../src/domain/live-public.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { connectDatabase } from '../src/server/db/connect.js';
import { migrateDatabase } from '../src/server/db/migrate.js';
import { liveSessions, replays, users } from '../src/server/db/schema.js';
import { cutClip, type FfmpegTools, findFfmpeg, makeReplay, probe } from '../src/server/features/replays/media/index.js';
import { lotSpans } from '../src/server/features/replays/timeline.js';
import { measurePhone, PHONE_PROFILES, type PhoneProfile } from './replay-phone.js';
import { cpuBusy, percentile, round, runOnEngines } from './support.js';

const MINUTES = Number(process.env.MINUTES ?? 10);
const SEGMENTS = Math.max(1, Number(process.env.SEGMENTS ?? 2));
const LOTS = Math.max(1, Number(process.env.LOTS ?? 20));
const HEIGHTS = (process.env.HEIGHTS ?? '720,480').split(',').map(Number);
/** The recording's own size (the seller's camera as the SFU receives it). */
const RECORD_SIZE = process.env.RECORD_SIZE ?? '1280x720';
const RECORD_WINDOW_S = Number(process.env.RECORD_WINDOW_S ?? 30);
const RECORD_ROUNDS = Number(process.env.RECORD_ROUNDS ?? 3);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** The phone's opens per profile (0 skips the phone), its profiles, and how many chapters each open seeks to. */
const PHONE_OPENS = Number(process.env.PHONE_OPENS ?? 3);
const PHONE_PROFILE_LIST = (process.env.PHONE_PROFILES ?? PHONE_PROFILES.join(',')).split(',') as PhoneProfile[];
const PHONE_SEEKS = Number(process.env.PHONE_SEEKS ?? 5);
const SEEK_READ_BYTES = 256 * 1024;
const TARGET_SEEK_MS = 500;
const log = (msg: string) => console.error(`[replay] ${msg}`);

/** Why the phone cannot be measured here, or null. */
function phoneMissing(): string | null {
  if (PHONE_OPENS === 0) return 'PHONE_OPENS=0';
  return existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (CHROMIUM_PATH)`;
}

async function ffmpeg(tools: FfmpegTools, args: string[]): Promise<void> {
  const { spawn } = await import('node:child_process');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(tools.ffmpeg, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${err.slice(-500)}`))));
  });
}

/** A recorded segment as the embedded SFU's recorder writes it: VP8 (720p) and Opus in WebM. */
function recordSegment(tools: FfmpegTools, file: string, seconds: number) {
  return ffmpeg(tools, [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${RECORD_SIZE}:rate=30`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    String(seconds),
    '-c:v',
    'libvpx',
    '-deadline',
    'realtime',
    '-cpu-used',
    '16',
    '-b:v',
    '1500k',
    '-c:a',
    'libopus',
    file,
  ]);
}

/** bench:video's record run, as it prints it (bench/video.ts, runRecordMode). */
interface RecordRun {
  mode: 'record';
  recorderPct: { runs: number[]; median: number | null };
  targets: { met: boolean };
  consistency: { ok: boolean };
}

/**
 * The recorder's CPU, by bench:video's record mode in a process (and network namespace) of its own;
 * `why` when it cannot be measured here.
 */
async function measureRecorder(): Promise<{ run: RecordRun | null; why: string | null }> {
  if (RECORD_ROUNDS === 0) return { run: null, why: 'RECORD_ROUNDS=0' };
  const netns = canMakeVideoNetns();
  if (netns) return { run: null, why: `needs a loopback-only network namespace (scripts/video-netns.ts): ${netns}` };
  const child = spawn(TSX, [path.join(ROOT, 'bench/video.ts')], {
    cwd: ROOT,
    env: { ...process.env, MODES: 'record', RECORD_WINDOW_S: String(RECORD_WINDOW_S), RECORD_ROUNDS: String(RECORD_ROUNDS), RECORD_SIZE },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`bench:video's record mode exited ${code}`);
  const output = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { runs: { mode?: string }[] };
  const run = output.runs.find((r) => r.mode === 'record') as RecordRun | undefined;
  if (!run) throw new Error("bench:video's record mode printed no record run");
  return { run, why: null };
}

/** Measured once: the first run carries it. */
let recorder: Promise<{ run: RecordRun | null; why: string | null }> | null = null;

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; cpuPct: number }> {
  const before = os.cpus();
  const started = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - started, cpuPct: round(cpuBusy(before, os.cpus()) * 100, 1) };
}

async function runOn(engine: 'pglite' | 'postgresql', databaseUrl?: string) {
  const tools = await findFfmpeg();
  if (!tools) throw new Error('ffmpeg not found: apt-get install ffmpeg');
  const firstRun = recorder === null;
  if (firstRun) recorder = measureRecorder();
  const { run: recorderCpu, why: recorderNotMeasured } = await (recorder as NonNullable<typeof recorder>);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'martillo-bench-replay-'));
  const work = path.join(dataDir, 'work');
  mkdirSync(work, { recursive: true });
  const database = await connectDatabase(databaseUrl ? { kind: 'postgresql', url: databaseUrl } : { kind: 'embedded', dir: path.join(dataDir, 'db') });
  try {
    await migrateDatabase(database);
    const totalS = MINUTES * 60;
    const segmentS = totalS / SEGMENTS;
    const recordedStarted = performance.now();
    const segments: { file: string; startedAt: number; durationMs: number }[] = [];
    const showStart = Date.now() - 3_600_000;
    for (let i = 0; i < SEGMENTS; i++) {
      const file = path.join(work, `segment-${i}.webm`);
      await recordSegment(tools, file, segmentS);
      // A minute's pause between segments, which the replay leaves out.
      segments.push({ file, startedAt: showStart + i * (segmentS * 1000 + 60_000), durationMs: (await probe(tools, file)).durationMs });
    }
    const recordingSeconds = round((performance.now() - recordedStarted) / 1000, 1);
    const recordedMs = segments.reduce((sum, s) => sum + s.durationMs, 0);

    // LOTS runs, back to back within each segment.
    const perSegment = Math.ceil(LOTS / SEGMENTS);
    const runs = Array.from({ length: LOTS }, (_, i) => {
      const seg = segments[Math.floor(i / perSegment)] as (typeof segments)[number];
      const slot = seg.durationMs / perSegment;
      const openedAt = seg.startedAt + (i % perSegment) * slot;
      return { auctionId: randomUUID(), openedAt, closedAt: openedAt + slot * 0.9 };
    });
    const spans = lotSpans(segments, runs);

    const transcodes: Record<string, { speedX: number; wallS: number; machineCpuPct: number; durationMs: number; ok: boolean }> = {};
    let replayFile = '';
    for (const height of HEIGHTS) {
      const output = path.join(work, `replay-${height}.mp4`);
      const made = await timed(() => makeReplay(tools, { inputs: segments.map((s) => s.file), output, height }));
      const media = await probe(tools, output);
      transcodes[`${height}p`] = {
        speedX: round(recordedMs / made.ms, 2),
        wallS: round(made.ms / 1000, 1),
        machineCpuPct: made.cpuPct,
        durationMs: made.result.durationMs,
        ok: media.video?.codec === 'h264' && media.video.height === height && media.audio?.codec === 'aac' && Math.abs(media.durationMs - recordedMs) <= 1000,
      };
      if (height === HEIGHTS[0]) replayFile = output;
    }

    const clipMs: number[] = [];
    let clipsOk = true;
    for (const [i, span] of spans.entries()) {
      if (i % 2 === 1) continue;
      const output = path.join(work, `clip-${i}.mp4`);
      const cut = await timed(() => cutClip(tools, { input: replayFile, output, startMs: span.startMs, endMs: span.endMs }));
      clipMs.push(cut.ms);
      const expected = Math.min(span.endMs - span.startMs, 120_000);
      clipsOk &&= Math.abs(cut.result.durationMs - expected) <= 1000;
    }
    clipMs.sort((a, b) => a - b);

    // Serving: the replay through the server's own route, from local disk.
    const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '0' }, { persistSecret: false });
    const phoneWhyNot = phoneMissing();
    // The phone opens the public page: the web app, built as `npm start` builds it.
    if (!phoneWhyNot) await (await import('../src/server/web/bundle.js')).ensureWebBundle(ROOT, log);
    const { app, ctx } = await buildApp({ config, database, logger: false, jobs: [], ...(phoneWhyNot ? {} : { webDir: path.join(ROOT, 'dist/web') }) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    let serving: Record<string, unknown> = {};
    let rangesOk = true;
    let phone: Awaited<ReturnType<typeof measurePhone>> | null = null;
    try {
      const [seller] = await database.db
        .insert(users)
        .values({ email: `vende-${randomUUID()}@bench.mx` })
        .returning({ id: users.id });
      const [session] = await database.db
        .insert(liveSessions)
        .values({ title: 'Replay bench', sellerId: seller?.id as string, companyId: 'bench', scheduledAt: new Date(showStart), status: 'ended' })
        .returning({ id: liveSessions.id });
      const sessionId = session?.id as string;
      const videoKey = `replays/${sessionId}/replay.mp4`;
      await ctx.storage.putFile(videoKey, replayFile, 'video/mp4');
      await database.db.insert(replays).values({ sessionId, status: 'ready', progress: 100, videoKey, durationMs: recordedMs, readyAt: new Date() });
      const url = `${base}/api/live-sessions/${sessionId}/replay/video`;
      const bytes = readFileSync(replayFile);
      const size = bytes.length;

      /** A Range request: ms to its first byte, and to `read` bytes of it, checked against the file. */
      async function ranged(start: number, read: number) {
        const t0 = performance.now();
        const res = await fetch(url, { headers: { range: `bytes=${start}-` } });
        const reader = res.body?.getReader();
        let got = 0;
        let firstByteMs: number | null = null;
        const chunks: Buffer[] = [];
        while (reader && got < read) {
          const { done, value } = await reader.read();
          if (done) break;
          firstByteMs ??= performance.now() - t0;
          got += value.length;
          chunks.push(Buffer.from(value));
        }
        const readMs = performance.now() - t0;
        await reader?.cancel();
        const head = Buffer.concat(chunks).subarray(0, Math.min(read, got));
        rangesOk &&= res.status === 206 && head.equals(bytes.subarray(start, start + head.length));
        return { firstByteMs: firstByteMs ?? readMs, readMs };
      }

      const first = await ranged(0, SEEK_READ_BYTES);
      const seeks: number[] = [];
      for (const span of spans) {
        const at = Math.floor((span.startMs / recordedMs) * (size - 1));
        seeks.push((await ranged(at, SEEK_READ_BYTES)).readMs);
      }
      seeks.sort((a, b) => a - b);
      const past = await fetch(url, { headers: { range: `bytes=${size + 10}-` } });
      rangesOk &&= past.status === 416;
      serving = {
        fileMb: round(size / 1024 / 1024, 1),
        firstRequest: { firstByteMs: round(first.firstByteMs, 1), first256KbMs: round(first.readMs, 1) },
        seekToChapterMs: { p50: round(percentile(seeks, 50) ?? 0, 1), max: round(seeks.at(-1) ?? 0, 1), target: TARGET_SEEK_MS },
      };
      if (!phoneWhyNot) {
        // PHONE_SEEKS chapters spread over the show, the last first: a jump ahead, then back.
        const step = Math.max(1, Math.floor(spans.length / PHONE_SEEKS));
        const targets = spans
          .filter((_, i) => i % step === 0)
          .slice(0, PHONE_SEEKS)
          .map((span) => span.startMs)
          .reverse();
        phone = await measurePhone({
          chromium: CHROMIUM,
          url: `${base}${livePath({ id: sessionId, sellerSlug: null })}`,
          seekToMs: targets,
          profiles: PHONE_PROFILE_LIST,
          opens: PHONE_OPENS,
          log,
        });
      }
    } finally {
      await app.close();
    }

    const consistency = {
      transcodes: Object.values(transcodes).every((t) => t.ok),
      clipsLastTheirLots: clipsOk,
      chapters: spans.length === LOTS,
      ranges: rangesOk,
      /** The recorder's windows were recorded (a figure from a run that recorded nothing is none); true when not measured. */
      recorderRecorded: !firstRun || recorderCpu === null || recorderCpu.consistency.ok,
      /** Every phone open showed a first frame, and every seek a frame at its moment; true when not measured. */
      phoneFramesShown: phone === null || phone.ok,
    };
    return {
      engine,
      recorderCpu: firstRun ? recorderCpu : 'measured once, in the first run',
      recording: { minutes: MINUTES, size: RECORD_SIZE, segments: SEGMENTS, lots: LOTS, recordedMs, madeInS: recordingSeconds },
      transcodeSpeed: transcodes,
      clipCutMs: { count: clipMs.length, p50: round(percentile(clipMs, 50) ?? 0, 0), max: round(clipMs.at(-1) ?? 0, 0) },
      serving,
      phone: phone ?? 'not measured (notMeasured.phone)',
      measuredElsewhere: {
        liveFirstKeyframeAndGlassToGlass:
          'with and without recording, by bench:video (a browser seller and viewers): RECORDING=both PROVIDERS=embedded MODES=crowd npm run bench:video, its recordingEffect',
      },
      notMeasured: {
        ...(firstRun && recorderNotMeasured ? { recorderCpu: recorderNotMeasured } : {}),
        ...(phone === null ? { phone: phoneMissing() } : {}),
      },
      ffmpeg: tools.version,
      consistency: { ok: Object.values(consistency).every(Boolean), ...consistency },
    };
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const unknown = PHONE_PROFILE_LIST.filter((p) => !PHONE_PROFILES.includes(p));
  if (unknown.length > 0) throw new Error(`PHONE_PROFILES: ${unknown.join(', ')} (known: ${PHONE_PROFILES.join(', ')})`);
  if (!(Number.isInteger(PHONE_OPENS) && PHONE_OPENS >= 0 && Number.isInteger(PHONE_SEEKS) && PHONE_SEEKS >= 0)) {
    throw new Error('PHONE_OPENS and PHONE_SEEKS must be whole numbers of at least 0');
  }
  await runOnEngines('replay', runOn);
}
