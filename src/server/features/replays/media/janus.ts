import { open } from 'node:fs/promises';
import path from 'node:path';
import { FFMPEG_COMMON } from './encoding.js';
import { MediaError, mediaPath, runMedia, writeAtomically } from './run.js';
import { type FfmpegTools, findOnPath } from './tools.js';

/**
 * Janus's recordings (`.mjr`): one file per stream of a publisher's join, each starting with a
 * header that says what it holds and when its first packet was written. janus-pp-rec (Debian's
 * janus-tools) turns each into a playable file without re-encoding; ffmpeg then puts a join's
 * audio and video side by side, each at its own start, in one WebM the replay is made from.
 */

/** Why a Janus recording cannot be made into a replay here. */
export const PP_REC_MISSING = 'falta janus-pp-rec para leer la grabación de Janus (apt-get install janus-tools)';

export interface MjrHeader {
  kind: 'video' | 'audio' | 'data';
  codec: string;
  /** When Janus wrote its first packet (epoch ms): the file's zero. */
  firstPacketAt: number;
}

const MAGIC = 'MJR00002';
/** The header's JSON is a few dozen bytes; anything bigger is not a header Janus wrote. */
const HEADER_MAX_BYTES = 4096;

/**
 * A `.mjr` file's header, or null when the file is not one (empty, truncated before its first
 * packet, an older format, or something else). Janus writes it with the first packet, so a file
 * without one holds nothing.
 */
export async function readMjrHeader(file: string): Promise<MjrHeader | null> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(MAGIC.length + 2 + HEADER_MAX_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead < MAGIC.length + 2 || head.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
    const length = head.readUInt16BE(MAGIC.length);
    const start = MAGIC.length + 2;
    if (length === 0 || start + length > bytesRead) return null;
    const info = JSON.parse(head.toString('utf8', start, start + length)) as { t?: unknown; c?: unknown; u?: unknown };
    const kind = info.t === 'v' ? 'video' : info.t === 'a' ? 'audio' : info.t === 'd' ? 'data' : null;
    if (!kind || typeof info.c !== 'string' || typeof info.u !== 'number' || !Number.isFinite(info.u)) return null;
    return { kind, codec: info.c, firstPacketAt: Math.round(info.u / 1000) };
  } catch (err) {
    if (err instanceof SyntaxError) return null;
    throw err;
  } finally {
    await handle.close();
  }
}

/** Streams created further apart than this belong to different joins. */
const JOIN_SPREAD_US = 5_000_000;

/**
 * The files of each publisher's join: Janus names them
 * `videoroom-<room>-user-<feed>-<created µs>-<video|audio>[-<stream>].mjr`, each stream created a
 * moment after the other, so a join is a feed's streams created together, one of each kind; a
 * feed that publishes again (a resume without reloading) starts a new join. Joins come in the
 * order they were created; other files are ignored.
 */
export function groupJanusFiles(names: string[]): string[][] {
  const parsed = names
    .map((name) => {
      const match = /^videoroom-.+-user-(.+)-(\d+)-(video|audio)(?:-\d+)?\.mjr$/.exec(name);
      return match ? { name, feed: match[1] as string, created: Number(match[2]), kind: match[3] as string } : null;
    })
    .filter((f) => f !== null)
    .sort((a, b) => a.created - b.created || a.name.localeCompare(b.name));
  const joins: { feed: string; first: number; kinds: Set<string>; names: string[] }[] = [];
  const open = new Map<string, (typeof joins)[number]>();
  for (const file of parsed) {
    let join = open.get(file.feed);
    if (!join || join.kinds.has(file.kind) || file.created - join.first > JOIN_SPREAD_US) {
      join = { feed: file.feed, first: file.created, kinds: new Set(), names: [] };
      joins.push(join);
      open.set(file.feed, join);
    }
    join.kinds.add(file.kind);
    join.names.push(file.name);
  }
  return joins.map((j) => j.names);
}

/** janus-pp-rec: JANUS_PP_REC_PATH when set, else the first on PATH; null when missing. */
export async function findJanusPpRec(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  if (env.JANUS_PP_REC_PATH) return path.resolve(env.JANUS_PP_REC_PATH);
  return findOnPath('janus-pp-rec', env);
}

export interface JanusStream {
  file: string;
  header: MjrHeader;
}

export interface JoinJanusOptions {
  ppRec: string;
  /** A join's streams (at most one video and one audio are used). */
  streams: JanusStream[];
  /** The WebM to write. */
  output: string;
  /** Where the converted streams wait (removed after). */
  workDir: string;
  nice?: number;
  signal?: AbortSignal;
}

/**
 * One join's audio and video as one WebM whose zero is the earlier stream's first packet, the
 * later one starting at its own offset: what the SFU's recorder writes directly. Returns that zero
 * (epoch ms): the segment's start on the show's clock.
 */
export async function joinJanusStreams(tools: FfmpegTools, opts: JoinJanusOptions): Promise<{ startedAt: number }> {
  const video = opts.streams.find((s) => s.header.kind === 'video');
  const audio = opts.streams.find((s) => s.header.kind === 'audio');
  const used = [video, audio].filter((s): s is JanusStream => s !== undefined);
  if (used.length === 0) throw new MediaError('la grabación de Janus no tiene audio ni video');
  const startedAt = Math.min(...used.map((s) => s.header.firstPacketAt));
  const run = { nice: opts.nice ?? null, ...(opts.signal ? { signal: opts.signal } : {}) };
  const base = path.basename(opts.output, path.extname(opts.output));
  const converted: { file: string; offsetMs: number }[] = [];
  for (const stream of used) {
    // janus-pp-rec picks the container from the extension: WebM for VP8, Ogg for Opus.
    const out = path.join(opts.workDir, `${base}-${stream.header.kind}.${stream.header.kind === 'video' ? 'webm' : 'opus'}`);
    await runMedia(opts.ppRec, ['-d', '2', '-o', stream.file, out], { ...run, paths: [stream.file, out] });
    converted.push({ file: out, offsetMs: stream.header.firstPacketAt - startedAt });
  }
  const args = [...FFMPEG_COMMON];
  for (const c of converted) args.push('-itsoffset', `${c.offsetMs}ms`, '-i', mediaPath(c.file, 'input'));
  for (const [i] of converted.entries()) args.push('-map', `${i}`);
  await writeAtomically(opts.output, (temp) =>
    runMedia(tools.ffmpeg, [...args, '-c', 'copy', '-f', 'webm', mediaPath(temp, 'output')], { ...run, paths: [...converted.map((c) => c.file), temp] }),
  );
  return { startedAt };
}
