import { existsSync } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CLIP_DAYS_UNPAID, type ReplayChapter } from '../../../domain/replays.js';
import type { ReplaysConfig } from '../../config.js';
import { type Db, rows } from '../../db/connect.js';
import { type PassLoop, startPassLoop } from '../../pass-loop.js';
import type { Storage } from '../../providers/storage/types.js';
import { onBlockHereSql } from '../../reads/lot-runs.js';
import { realSale } from '../../reads/real-sale.js';
import { cutClip, type FfmpegTools, findFfmpeg, MediaError, makePoster, makeReplay, probe } from './media/index.js';
import { findJanusPpRec, type JanusStream, joinJanusStreams, PP_REC_MISSING, readMjrHeader } from './media/janus.js';
import { replayFolder } from './service.js';
import { type LotRun, lotSpans, type RecordedSegment } from './timeline.js';

/**
 * The `replays` job: a show that ended with a recording becomes its replay, one at a time per
 * instance, at the lowest priority (`nice`), so a show that is live meanwhile keeps the cores.
 *
 * 1. A recording whose show ended is marked 'processing' once none of its segments is still being
 *    written (recorder.ts closes each as its ffmpeg finishes; a server that died mid-show closes
 *    its host's leftovers when it starts again).
 * 2. One replay is taken under FOR UPDATE SKIP LOCKED with a lease that each progress report
 *    renews: a server that stops mid-way lets the lease run out and the next pass (of any instance
 *    on the machine that holds the files) starts it again. Its segments are joined into one
 *    H.264/AAC MP4 (media/transcode.ts), a poster is taken, the chapters are laid on the
 *    recording's clock (timeline.ts), and both files go to storage; then the row says 'ready'.
 * 3. Each lot sold in the show gets its clip, from its opening to its hammer (at most 2 minutes):
 *    the buyer's video receipt.
 * 4. The raw segments are deleted once the replay is made. A failure leaves them, with its reason
 *    on the row, for 'Reintentar'.
 *
 * A replay deleted while it is made is noticed at the next progress report (the work stops) or at
 * the end (what was stored is deleted again).
 */

/** A lease outlives the longest wait between two progress reports many times over. */
const LEASE_MS = 5 * 60 * 1000;
/** How long the job sleeps when nothing waits: a show's replay starts within this of its end. */
export const REPLAYS_EVERY_MS = 10_000;
/** When ffmpeg is missing the job looks again this rarely (an operator may install it without a restart). */
const NO_FFMPEG_RETRY_MS = 10 * 60 * 1000;
/** Progress is written at most this often: a row a second per replay is plenty for 'Preparando la repetición… 40 %'. */
const PROGRESS_EVERY_MS = 1000;
/** The transcode is this share of the progress; the poster, the upload and the chapters the rest. */
const TRANSCODE_SHARE = 0.9;

export interface MakerDeps {
  db: Db;
  storage: Storage;
  tools: FfmpegTools;
  config: ReplaysConfig;
  /** Which machine this is: a recording's raw files are on the disk of the one that recorded it. */
  host?: string;
  /** ffmpeg's nice (19: the lowest priority); tests pass 0 on a busy machine. */
  nice?: number;
  /** Where janus-pp-rec is (for a recording Janus made); found on PATH (JANUS_PP_REC_PATH) by default. */
  findPpRec?: () => Promise<string | null>;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export type MakeResult = { outcome: 'none' } | { outcome: 'ready' | 'failed' | 'gone' | 'empty'; sessionId: string };

/** Recordings whose show ended, now to be made. */
export async function noteEndedRecordings(db: Db): Promise<void> {
  await db.execute(sql`
    update replays r set status = 'processing', progress = 0, updated_at = now()
    from live_sessions s
    where s.id = r.session_id and r.status = 'recording' and s.status = 'ended'
      -- A recorder still finishing its file (the show ended a moment ago) closes its segment first.
      and not exists (select 1 from recording_segments g where g.session_id = r.session_id and g.ended_at is null)`);
}

async function claim(db: Db, host: string): Promise<string | null> {
  const [taken] = rows<{ session_id: string }>(
    await db.execute(sql`
      update replays set leased_until = now() + ${LEASE_MS}::int * interval '1 millisecond', attempts = attempts + 1, updated_at = now()
      where session_id = (
        select r.session_id from replays r
        where r.status = 'processing' and (r.leased_until is null or r.leased_until < now())
          -- The SFU's files are on the disk of the instance that recorded them; Janus's are in JANUS_REC_DIR, which every instance reads.
          and not exists (select 1 from recording_segments g where g.session_id = r.session_id and g.source = 'embedded' and g.host <> ${host})
        order by r.updated_at
        limit 1
        for update skip locked)
      returning session_id`),
  );
  return taken?.session_id ?? null;
}

/** Writes the progress and renews the lease; false when the replay is no longer being made (deleted meanwhile). */
async function report(db: Db, sessionId: string, progress: number): Promise<boolean> {
  const updated = rows<{ session_id: string }>(
    await db.execute(sql`
      update replays set progress = ${Math.min(99, Math.max(0, Math.round(progress)))}, leased_until = now() + ${LEASE_MS}::int * interval '1 millisecond', updated_at = now()
      where session_id = ${sessionId}::uuid and status = 'processing'
      returning session_id`),
  );
  return updated.length > 0;
}

interface SegmentRow {
  id: string;
  source: 'embedded' | 'janus';
  files: string[] | string;
  started_at: string | Date;
}

type Segment = Omit<SegmentRow, 'files'> & { files: string[] };

interface RunRow {
  auction_id: string;
  opened_at: string | Date;
  closed_at: string | Date | null;
  name: string;
  image_url: string | null;
  sold: boolean;
  price: number | null;
}

const epoch = (d: string | Date) => new Date(d).getTime();

/** The show's lot runs with each lot's name, first photo and result (sold in this show, to a real buyer, at its price). */
async function runsOf(db: Db, sessionId: string): Promise<RunRow[]> {
  return rows<RunRow>(
    await db.execute(sql`
      -- A lot's run closes when the next one opens; the show's last lot, sold or not, ends at its hammer.
      select r.auction_id, r.opened_at, coalesce(r.closed_at, case when a.status = 'ended' then least(a.end_time, now()) end) as closed_at, a.name, a.images[1] as image_url, a.current_price as price,
        (a.status = 'ended' and a.current_winner_id is not null
          and ${onBlockHereSql({ id: sql`r.lot_id`, sessionId: sql`r.session_id`, auctionId: sql`r.auction_id` })}
          and ${realSale({ auctionId: sql`a.id`, winnerId: sql`a.current_winner_id` })}) as sold
      from live_lot_runs r join auctions a on a.id = r.auction_id
      where r.session_id = ${sessionId}::uuid
      order by r.opened_at`),
  );
}

/** Makes the next waiting replay, if any: one per call. */
export async function makeNextReplay(deps: MakerDeps): Promise<MakeResult> {
  const { db, storage, tools, config } = deps;
  const host = deps.host ?? os.hostname();
  await noteEndedRecordings(db);
  const sessionId = await claim(db, host);
  if (!sessionId) return { outcome: 'none' };
  const work = path.join(config.workDir, sessionId);
  const abort = new AbortController();
  try {
    const segments = rows<SegmentRow>(
      await db.execute(sql`select id, source, files, started_at from recording_segments where session_id = ${sessionId}::uuid order by started_at, created_at`),
    ).map((s): Segment => ({ ...s, files: typeof s.files === 'string' ? (JSON.parse(s.files) as string[]) : s.files }));
    const raw = segments.flatMap((s) => rawFilesOf(config, s));
    if (raw.length === 0) {
      // Recording was on, but nothing was ever broadcast: there is nothing to replay.
      await db.execute(sql`delete from replays where session_id = ${sessionId}::uuid and status = 'processing'`);
      return { outcome: 'empty', sessionId };
    }
    for (const file of raw) {
      if (!existsSync(file)) throw new MediaError(`falta un archivo de la grabación (${path.basename(file)})`);
    }
    await mkdir(work, { recursive: true });
    const inputs = await segmentInputs(deps, segments, work, abort.signal);
    const probed: RecordedSegment[] = [];
    for (const input of inputs) probed.push({ startedAt: input.startedAt, durationMs: (await probe(tools, input.file, { signal: abort.signal })).durationMs });

    const videoFile = path.join(work, 'replay.mp4');
    const posterFile = path.join(work, 'poster.jpg');
    let lastReport = 0;
    let reporting: Promise<unknown> = Promise.resolve();
    const made = await makeReplay(tools, {
      inputs: inputs.map((i) => i.file),
      output: videoFile,
      height: config.height,
      ...(deps.nice === undefined ? {} : { nice: deps.nice }),
      signal: abort.signal,
      onProgress: (fraction) => {
        const now = Date.now();
        if (now - lastReport < PROGRESS_EVERY_MS) return;
        lastReport = now;
        reporting = reporting.then(async () => {
          if (!(await report(db, sessionId, fraction * TRANSCODE_SHARE * 100))) abort.abort(new Error('the replay was deleted'));
        });
      },
    });
    await reporting;
    if (abort.signal.aborted) return { outcome: 'gone', sessionId };

    const runs = await runsOf(db, sessionId);
    const spans = lotSpans(
      probed,
      runs.map((r): LotRun => ({ auctionId: r.auction_id, openedAt: epoch(r.opened_at), closedAt: r.closed_at ? epoch(r.closed_at) : null })),
    );
    const byAuction = new Map(runs.map((r) => [r.auction_id, r]));
    const chapters: ReplayChapter[] = spans.map((span) => {
      const run = byAuction.get(span.auctionId) as RunRow;
      return { ...span, name: run.name, imageUrl: run.image_url, result: run.sold ? 'sold' : 'unsold', price: run.sold ? run.price : null };
    });
    // The poster: a moment into the first lot, when the seller is showing something, else a few seconds in.
    const posterAt = Math.min(made.durationMs - 1, (chapters[0]?.startMs ?? 0) + 3000);
    await makePoster(tools, {
      input: videoFile,
      output: posterFile,
      atMs: Math.max(0, posterAt),
      signal: abort.signal,
      ...(deps.nice === undefined ? {} : { nice: deps.nice }),
    });

    const folder = replayFolder(sessionId);
    const videoKey = `${folder}replay.mp4`;
    const posterKey = `${folder}poster.jpg`;
    await storage.putFile(videoKey, videoFile, 'video/mp4');
    await storage.putFile(posterKey, posterFile, 'image/jpeg');
    const ready = rows<{ session_id: string }>(
      await db.execute(sql`
        update replays set status = 'ready', progress = 100, video_key = ${videoKey}, poster_key = ${posterKey},
          duration_ms = ${made.durationMs}, height = ${config.height}, chapters = ${JSON.stringify(chapters)}::jsonb,
          timeline = ${JSON.stringify(probed.map(({ startedAt, durationMs }) => ({ startedAt, durationMs })))}::jsonb,
          ready_at = now(), expires_at = now() + ${config.retentionDays}::int * interval '1 day',
          error = null, leased_until = null, updated_at = now()
        where session_id = ${sessionId}::uuid and status = 'processing'
        returning session_id`),
    );
    if (ready.length === 0) {
      // Deleted while it was made: what was just stored goes too.
      await storage.deletePrefix(folder);
      return { outcome: 'gone', sessionId };
    }
    await makeClips(deps, { sessionId, videoFile, chapters, work });
    // The replay is what is kept now: the raw segments go.
    for (const file of raw) await rm(file, { force: true });
    // Their folders too, once empty (a folder that still holds something is left as it is).
    for (const dir of [config.recordingsDir, config.janusRecDir]) await rmdir(path.join(dir, sessionId)).catch(() => {});
    await db.execute(sql`delete from recording_segments where session_id = ${sessionId}::uuid`);
    deps.log?.info({ sessionId, durationMs: made.durationMs, chapters: chapters.length }, 'replay ready');
    return { outcome: 'ready', sessionId };
  } catch (err) {
    // The seller reads it beside 'Reintentar'; ffmpeg's own words (English) follow for whoever helps them.
    const reason = `No se pudo preparar la repetición: ${err instanceof Error ? err.message : String(err)}`;
    deps.log?.warn({ err, sessionId }, 'replay failed');
    await db.execute(sql`
      update replays set status = 'failed', error = ${reason.slice(0, 500)}, leased_until = null, updated_at = now()
      where session_id = ${sessionId}::uuid and status = 'processing'`);
    return { outcome: 'failed', sessionId };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A segment's raw files, absolute, each checked to be inside its recorder's folder (the SFU's or Janus's). */
function rawFilesOf(config: ReplaysConfig, segment: Segment): string[] {
  const root = path.resolve(segment.source === 'janus' ? config.janusRecDir : config.recordingsDir);
  const files = segment.source === 'janus' ? segment.files : segment.files.slice(0, 1);
  return files.map((file) => {
    const full = path.resolve(root, file);
    if (!full.startsWith(root + path.sep)) throw new MediaError('un archivo de la grabación está fuera de su carpeta');
    return full;
  });
}

/**
 * Each segment as one file with audio and video, and its start on the show's clock: the SFU's WebM
 * as it is, Janus's streams of one join converted and put together first (media/janus.ts).
 */
async function segmentInputs(deps: MakerDeps, segments: Segment[], work: string, signal: AbortSignal): Promise<{ file: string; startedAt: number }[]> {
  const inputs: { file: string; startedAt: number }[] = [];
  let ppRec: string | null | undefined;
  for (const [i, segment] of segments.entries()) {
    const files = rawFilesOf(deps.config, segment);
    if (files.length === 0) continue;
    if (segment.source === 'embedded') {
      inputs.push({ file: files[0] as string, startedAt: epoch(segment.started_at) });
      continue;
    }
    ppRec ??= await (deps.findPpRec ?? findJanusPpRec)();
    if (!ppRec) throw new MediaError(PP_REC_MISSING);
    const streams: JanusStream[] = [];
    for (const file of files) {
      const header = await readMjrHeader(file);
      if (header) streams.push({ file, header });
    }
    if (streams.length === 0) continue;
    const output = path.join(work, `segment-${i}.webm`);
    const joined = await joinJanusStreams(deps.tools, {
      ppRec,
      streams,
      output,
      workDir: work,
      signal,
      ...(deps.nice === undefined ? {} : { nice: deps.nice }),
    });
    inputs.push({ file: output, startedAt: joined.startedAt });
  }
  if (inputs.length === 0) throw new MediaError('la grabación no tiene audio ni video');
  return inputs;
}

/**
 * A clip per lot sold in the show, cut from the replay just made. A clip that fails is marked so
 * (with its reason) and the others go on: the replay is ready either way.
 */
async function makeClips(deps: MakerDeps, show: { sessionId: string; videoFile: string; chapters: ReplayChapter[]; work: string }): Promise<void> {
  const { db, storage, tools } = deps;
  for (const chapter of show.chapters.filter((c) => c.result === 'sold')) {
    const key = `clips/${chapter.auctionId}.mp4`;
    const file = path.join(show.work, `clip-${chapter.auctionId}.mp4`);
    await db.execute(sql`
      insert into replay_clips (auction_id, session_id, status, start_ms, end_ms, expires_at)
      values (${chapter.auctionId}::uuid, ${show.sessionId}::uuid, 'pending', ${chapter.startMs}, ${chapter.endMs},
        now() + ${CLIP_DAYS_UNPAID}::int * interval '1 day')
      on conflict (auction_id) do update set session_id = excluded.session_id, status = 'pending', start_ms = excluded.start_ms,
        end_ms = excluded.end_ms, error = null`);
    try {
      const cut = await cutClip(tools, {
        input: show.videoFile,
        output: file,
        startMs: chapter.startMs,
        endMs: chapter.endMs,
        ...(deps.nice === undefined ? {} : { nice: deps.nice }),
      });
      await storage.putFile(key, file, 'video/mp4');
      await db.execute(sql`
        update replay_clips set status = 'ready', video_key = ${key}, start_ms = ${cut.startMs}, end_ms = ${cut.endMs}, duration_ms = ${cut.durationMs}
        where auction_id = ${chapter.auctionId}::uuid`);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      deps.log?.warn({ err, auctionId: chapter.auctionId }, 'clip failed');
      await db.execute(sql`update replay_clips set status = 'failed', error = ${reason.slice(0, 500)} where auction_id = ${chapter.auctionId}::uuid`);
    } finally {
      await rm(file, { force: true });
    }
  }
}

/** The `replays` job: a replay at a time, at once again while more wait; without ffmpeg, it says so and looks again later. */
export function startReplayMaker(deps: {
  db: Db;
  storage: Storage;
  config: ReplaysConfig;
  log: FastifyBaseLogger;
  /** Where ffmpeg is looked for (the process's PATH, FFMPEG_PATH and FFPROBE_PATH by default). */
  env?: NodeJS.ProcessEnv;
}): PassLoop {
  let tools: FfmpegTools | null = null;
  let toldMissing = false;
  return startPassLoop({
    name: 'replays',
    log: deps.log,
    retryMs: REPLAYS_EVERY_MS,
    unref: true,
    async pass(isStopped) {
      tools ??= await findFfmpeg(deps.env);
      if (!tools) {
        if (!toldMissing) deps.log.warn('replays are off: ffmpeg not found (apt-get install ffmpeg)');
        toldMissing = true;
        return NO_FFMPEG_RETRY_MS;
      }
      const made = await makeNextReplay({ db: deps.db, storage: deps.storage, tools, config: deps.config, log: deps.log });
      return made.outcome === 'none' || isStopped() ? REPLAYS_EVERY_MS : 0;
    },
  });
}
