import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { asc, eq, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../../../src/server/db/connect.js';
import { liveSessions, recordingSegments, replays } from '../../../../src/server/db/schema.js';
import { makeNextReplay } from '../../../../src/server/features/replays/index.js';
import { type FfmpegTools, probe } from '../../../../src/server/features/replays/media/index.js';
import type { SfuStats } from '../../../../src/server/providers/video/sfu/protocol.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession } from '../../../support/factories.js';
import { publishSynthetic, type SyntheticPublisher } from '../../../support/rtp-peers.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { connected, connectSocket } from '../../../support/sockets.js';
import { makeSyntheticMedia, type SyntheticMedia } from '../../../support/synthetic-media.js';
import { eventually, sleep } from '../../../support/wait.js';
import { makeTempDir, nice, requireTools } from './media/fixtures.js';

/**
 * The recorder on the embedded SFU: a seller's camera (a real VP8 and Opus stream from a
 * libdatachannel peer) published into a live show is written by ffmpeg as it came, one segment
 * per start or resume, each starting on a keyframe; a show with recording off, or not live, is
 * not recorded; and the ended show's segments become its replay.
 */

const COMPANY = 'remates-grabados';
const run = promisify(execFile);

let server: TestServer;
let tools: FfmpegTools;
let temp: { dir: string; cleanup: () => Promise<void> };
let seller: Actor;
let media: SyntheticMedia;
const sockets: Socket[] = [];
const peers: { close(): void }[] = [];
const call = caller(() => server);

beforeAll(async () => {
  tools = await requireTools();
  temp = await makeTempDir();
  media = await makeSyntheticMedia({ seconds: 4, width: 320, height: 180 });
  server = await startTestServer({ env: { VIDEO_BIND_ADDRESS: '127.0.0.1', DATA_DIR: temp.dir }, jobs: ['recorder'] });
  // The SFU's process starts on first use, and a publish waits 5 s for it: longer than tsx takes on a machine busy with other suites.
  expect(await server.ctx.video.debug?.ready(60_000)).toBe(true);
  seller = await buildActor(server, { email: 'graba@remates.mx', name: 'Gabriela Graba', roles: ['seller'], companyId: COMPANY });
}, 120_000);
afterEach(() => {
  for (const p of peers.splice(0)) p.close();
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

async function socketOf(actor: Actor): Promise<Socket> {
  const s = connectSocket(server.url, { cookie: actor.cookie });
  sockets.push(s);
  await connected(s);
  return s;
}

async function publish(s: Socket, sessionId: string): Promise<SyntheticPublisher> {
  const { ack, publisher } = await publishSynthetic(s, sessionId, { media });
  expect(ack).toMatchObject({ ok: true });
  if (!publisher) throw new Error('no publisher');
  peers.push(publisher);
  return publisher;
}

const segmentsOf = (sessionId: string) =>
  server.ctx.db.select().from(recordingSegments).where(eq(recordingSegments.sessionId, sessionId)).orderBy(asc(recordingSegments.startedAt));
const fileOf = (relative: string) => path.join(server.ctx.config.replays.recordingsDir, relative);
const stats = async () => (await server.ctx.video.debug?.stats()) as SfuStats;

/** What `get` answers once it answers something: it is polled until then (at most 20 s). */
async function found<T>(what: string, get: () => Promise<T | null>): Promise<T> {
  let value: T | null = null;
  await eventually(
    async () => {
      value = await get();
      return value !== null;
    },
    { timeoutMs: 20_000, what },
  );
  return value as T;
}

/** A segment's one file, on disk. */
const segmentFile = (segment: { files: string[] } | undefined) => fileOf(segment?.files[0] ?? 'missing');

/** ffmpeg decodes the whole file: any error it prints fails the check. */
async function decodeErrors(file: string): Promise<string> {
  const { stderr } = await run(tools.ffmpeg, ['-v', 'error', '-i', file, '-f', 'null', '-'], { timeout: 60_000 });
  return stderr.trim();
}

describe('recording a show from the embedded SFU', () => {
  it('writes each broadcast of a live show to its own segment, from a keyframe, as the camera sent it', async () => {
    const session = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'live' });
    const s = await socketOf(seller);
    // The SFU's child starts with the first publish: its counters are read once it is up.
    const camera = await publish(s, session.id);
    // The recorder asked for a keyframe of its own when it started, and its first packet was one.
    const [first] = await found('the first segment to record', async () => {
      const rows = await segmentsOf(session.id);
      return rows.length === 1 && (await stats()).rtpRecorded > 0 ? rows : null;
    });
    expect(camera.keyframeRequests).toBeGreaterThan(0);
    expect(first).toMatchObject({ source: 'embedded', host: os.hostname(), endedAt: null });
    expect(first?.files).toEqual([`${session.id}/${first?.id}.webm`]);
    const [replay] = await server.ctx.db.select().from(replays).where(eq(replays.sessionId, session.id));
    expect(replay).toMatchObject({ status: 'recording', visibility: 'public' });
    await sleep(3000);

    // Detener: the page leaves; ffmpeg finishes the file, and the segment is closed.
    expect(await s.timeout(10_000).emitWithAck('videoLeave', { sessionId: session.id })).toEqual({ ok: true });
    camera.close();
    const [closed] = await found('the segment to close', async () => {
      const rows = await segmentsOf(session.id);
      return rows[0]?.endedAt ? rows : null;
    });
    const file = segmentFile(closed);
    const info = await probe(tools, file);
    expect(info.video).toMatchObject({ codec: 'vp8', width: 320, height: 180 });
    expect(info.audio).toMatchObject({ codec: 'opus' });
    expect(info.durationMs).toBeGreaterThan(2000);
    expect(info.durationMs).toBeLessThan(15_000);
    expect(await decodeErrors(file)).toBe('');

    // Iniciar again: a second segment, after the first on the show's clock.
    const again = await publish(s, session.id);
    const both = await found('the second segment', async () => {
      const rows = await segmentsOf(session.id);
      return rows.length === 2 ? rows : null;
    });
    expect(both[1]?.startedAt.getTime()).toBeGreaterThan(closed?.endedAt?.getTime() ?? Number.POSITIVE_INFINITY);
    await sleep(2000);

    // A lot goes on the block: the camera is asked for a keyframe, so its clip starts on a whole picture.
    const auction = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, name: 'Reloj Seiko', startingPrice: 500 });
    const lot = await buildLot(server.ctx.db, { sessionId: session.id, auctionId: auction.id });
    const asked = again.keyframeRequests;
    expect((await call(seller, 'POST', `/api/live-sessions/${session.id}/current`, { lotId: lot.id })).statusCode).toBe(200);
    expect((await call(seller, 'POST', `/api/live-sessions/${session.id}/timer`, { seconds: 60 })).statusCode).toBe(200);
    await eventually(() => again.keyframeRequests > asked, { timeoutMs: 10_000, what: "the lot's keyframe request" });
    await sleep(1000);

    // The show ends while the camera is still on: the recording stops with it.
    await server.ctx.db.update(liveSessions).set({ status: 'ended' }).where(eq(liveSessions.id, session.id));
    const ended = await found('the last segment to close', async () => {
      const rows = await segmentsOf(session.id);
      return rows.every((r) => r.endedAt) ? rows : null;
    });
    for (const segment of ended) expect(await decodeErrors(segmentFile(segment))).toBe('');

    // The replays job joins them: one video about as long as both.
    const lengths = await Promise.all(ended.map(async (g) => (await probe(tools, segmentFile(g))).durationMs));
    const config = { ...server.ctx.config.replays, height: 180 };
    const outcome = await makeNextReplay({ db: server.ctx.db, storage: server.ctx.storage, tools, config, nice, host: os.hostname() });
    const [made] = await server.ctx.db.select().from(replays).where(eq(replays.sessionId, session.id));
    expect({ outcome, error: made?.error }).toEqual({ outcome: { outcome: 'ready', sessionId: session.id }, error: null });
    expect(made?.status).toBe('ready');
    const total = lengths.reduce((a, b) => a + b, 0);
    expect(Math.abs((made?.durationMs ?? 0) - total)).toBeLessThan(1000);
    // Its chapter is the lot that ran in the second segment.
    expect(made?.chapters).toEqual([expect.objectContaining({ auctionId: auction.id, name: 'Reloj Seiko', result: 'unsold' })]);
    // The raw segments are gone once the replay is made.
    expect(await segmentsOf(session.id)).toEqual([]);
    for (const g of ended) expect(existsSync(segmentFile(g))).toBe(false);
  });

  it('records nothing of a show whose seller turned recording off, nor of a show that is not live', async () => {
    const off = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'live' });
    await server.ctx.db.update(liveSessions).set({ recording: false }).where(eq(liveSessions.id, off.id));
    const preview = await buildSession(server.ctx.db, { sellerId: seller.id, companyId: COMPANY, status: 'scheduled' });
    const s = await socketOf(seller);
    await publish(s, off.id);
    await publish(s, preview.id);
    await eventually(async () => (await server.ctx.video.hasPublisher(preview.id)) === true, { what: 'both cameras on' });
    // Several of the recorder's passes.
    await sleep(3000);
    expect(await segmentsOf(off.id)).toEqual([]);
    expect(await segmentsOf(preview.id)).toEqual([]);
    expect(rows(await server.ctx.db.execute(sql`select session_id from replays where session_id in (${off.id}::uuid, ${preview.id}::uuid)`))).toEqual([]);

    // 'Iniciar' on the previewed show: recorded from then on.
    await server.ctx.db.update(liveSessions).set({ status: 'live' }).where(eq(liveSessions.id, preview.id));
    await eventually(async () => (await segmentsOf(preview.id)).length === 1, { timeoutMs: 20_000, what: 'the recording to start' });
  });
});
