import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplaysConfig } from '../../../../src/server/config.js';
import { chatMessages, liveLotRuns, liveSessions, recordingSegments, replayClips, replays } from '../../../../src/server/db/schema.js';
import { makeNextReplay, startReplayMaker } from '../../../../src/server/features/replays/index.js';
import { type FfmpegTools, probe } from '../../../../src/server/features/replays/media/index.js';
import { type Actor, buildActor } from '../../../support/actors.js';
import { buildAuction, buildLot, buildSession, buildWonAuction } from '../../../support/factories.js';
import { caller, startTestServer, type TestServer } from '../../../support/server.js';
import { eventually } from '../../../support/wait.js';
import { makeSegment, makeTempDir, nice, requireTools } from './media/fixtures.js';

/**
 * The replays job on a recorded show: its segments joined into one MP4 in storage with its poster,
 * a chapter per lot on the recording's own clock, a clip per sold lot, the raw segments gone; a
 * failure kept with its reason until 'Reintentar'; a replay another instance holds left alone.
 * Real ffmpeg on synthetic segments (test pattern and tone), as the recorder would write them.
 */

const COMPANY = 'graba-y-repite';
let server: TestServer;
let tools: FfmpegTools;
let temp: { dir: string; cleanup: () => Promise<void> };
let config: ReplaysConfig;
let seller: Actor;
let winner: Actor;
const call = caller(() => server);

beforeAll(async () => {
  tools = await requireTools();
  temp = await makeTempDir();
  // A small picture: the job's work is the same at any size, and the suite runs on a busy machine.
  config = {
    recordingsDir: path.join(temp.dir, 'recordings'),
    workDir: path.join(temp.dir, 'work'),
    height: 180,
    retentionDays: 90,
    janusRecDir: path.join(temp.dir, 'janus'),
  };
  await mkdir(config.recordingsDir, { recursive: true });
  server = await startTestServer({ listen: false });
  seller = await buildActor(server, { email: 'vende@graba.mx', name: 'Regina Vendedora', roles: ['seller'], companyId: COMPANY });
  winner = await buildActor(server, { email: 'gana@compra.mx', name: 'Germán Ganador', roles: ['buyer'], completeProfile: true });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

const maker = () => makeNextReplay({ db: server.ctx.db, storage: server.ctx.storage, tools, config, nice, host: os.hostname() });
const replayRow = async (sessionId: string) => (await server.ctx.db.select().from(replays).where(eq(replays.sessionId, sessionId)))[0];

/**
 * An ended show recorded in two 3-second segments with a pause between them: lot A ran from 0.5 s
 * to 2 s of the first and sold; lot B from 0.5 s to 2.5 s of the second and did not.
 */
async function recordedShow() {
  const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'ended' });
  const first = Date.now() - 600_000;
  const second = first + 60_000;
  const files: string[] = [];
  for (const [i, startedAt] of [first, second].entries()) {
    const file = `${session.id}-${i}.webm`;
    await makeSegment(tools, { file: path.join(config.recordingsDir, file), seconds: 3, kind: 'webm', size: '320x180' });
    await server.ctx.db.insert(recordingSegments).values({
      sessionId: session.id,
      source: 'embedded',
      files: [file],
      host: os.hostname(),
      startedAt: new Date(startedAt),
      endedAt: new Date(startedAt + 3000),
    });
    files.push(file);
  }
  const sold = await buildWonAuction(server.ctx.db, {
    companyId: COMPANY,
    sellerId: seller.id,
    price: 1250,
    winnerId: winner.id,
    name: 'Reloj Seiko',
    images: ['/uploads/images/seiko.jpg'],
  });
  const unsold = await buildAuction(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, name: 'Cámara Zenit', status: 'ended' });
  const lotA = await buildLot(server.ctx.db, { sessionId: session.id, auctionId: sold.id, onBlock: false });
  const lotB = await buildLot(server.ctx.db, { sessionId: session.id, auctionId: unsold.id, onBlock: false });
  await server.ctx.db.insert(liveLotRuns).values([
    { sessionId: session.id, lotId: lotA.id, auctionId: sold.id, openedAt: new Date(first + 500), closedAt: new Date(first + 2000) },
    { sessionId: session.id, lotId: lotB.id, auctionId: unsold.id, openedAt: new Date(second + 500), closedAt: new Date(second + 2500) },
  ]);
  await server.ctx.db.insert(replays).values({ sessionId: session.id, status: 'recording' });
  return { session, sold, unsold, files };
}

describe('making a replay', () => {
  it('joins the segments into one H.264/AAC MP4 with its poster, a chapter per lot on the recording’s clock and a clip of the sold lot', async () => {
    const { session, sold, unsold, files } = await recordedShow();
    const recorded = await server.ctx.db
      .select()
      .from(recordingSegments)
      .where(eq(recordingSegments.sessionId, session.id))
      .orderBy(recordingSegments.startedAt);
    const startedAt = recorded.map((s) => s.startedAt.getTime());
    // A line a second into each segment, and one in the pause between them (nothing was recorded then).
    await server.ctx.db.insert(chatMessages).values(
      [
        ['¡Qué bonito!', (startedAt[0] ?? 0) + 1000],
        ['¿se fue?', (startedAt[0] ?? 0) + 30_000],
        ['¿Cuánto cuesta?', (startedAt[1] ?? 0) + 1000],
      ].map(([text, at]) => ({ sessionId: session.id, authorName: 'Sofía R.', text: text as string, createdAt: new Date(at as number) })),
    );
    expect(await maker()).toEqual({ outcome: 'ready', sessionId: session.id });

    const replay = (await call(null, 'GET', `/api/live-sessions/${session.id}/replay`)).json();
    expect(replay).toMatchObject({ status: 'ready', progress: 100 });
    expect(replay.durationMs).toBeGreaterThan(5500);
    expect(replay.durationMs).toBeLessThan(6500);
    expect(replay.chapters).toHaveLength(2);
    const [a, b] = replay.chapters;
    expect(a).toMatchObject({ auctionId: sold.id, name: 'Reloj Seiko', imageUrl: '/uploads/images/seiko.jpg', result: 'sold', price: 1250 });
    expect(b).toMatchObject({ auctionId: unsold.id, name: 'Cámara Zenit', result: 'unsold', price: null });
    // On the recording's clock: the pause between the segments is not in it.
    expect(Math.abs(a.startMs - 500)).toBeLessThan(100);
    expect(Math.abs(a.endMs - 2000)).toBeLessThan(100);
    expect(Math.abs(b.startMs - 3500)).toBeLessThan(200);
    expect(Math.abs(b.endMs - 5500)).toBeLessThan(200);

    const row = await replayRow(session.id);
    // The segments' moments and lengths are kept: the chat's lines are placed on the replay with them.
    expect(row?.timeline?.map((s) => s.startedAt)).toEqual(startedAt);
    const [firstSegment, secondSegment] = row?.timeline ?? [];
    expect(Math.abs((firstSegment?.durationMs ?? 0) - 3000)).toBeLessThan(100);
    const chat = (await call(null, 'GET', `/api/live-sessions/${session.id}/replay/chat`)).json();
    expect(chat.lines.map((l: { text: string }) => l.text)).toEqual(['¡Qué bonito!', '¿Cuánto cuesta?']);
    expect(chat.lines[0].atMs).toBe(1000);
    expect(chat.lines[1].atMs).toBe((firstSegment?.durationMs ?? 0) + 1000);
    expect(secondSegment?.startedAt).toBe(startedAt[1]);
    expect(row?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 89 * 86_400_000);
    const stored = path.join(temp.dir, 'replay.mp4');
    const read = await server.ctx.storage.readRange(row?.videoKey as string, null);
    await writeFile(stored, read?.body as NodeJS.ReadableStream);
    const media = await probe(tools, stored);
    expect(media.video).toMatchObject({ codec: 'h264', height: 180 });
    expect(media.audio?.codec).toBe('aac');
    const poster = await server.ctx.storage.stat(row?.posterKey as string);
    expect(poster?.size).toBeGreaterThan(0);

    const [clip] = await server.ctx.db.select().from(replayClips).where(eq(replayClips.auctionId, sold.id));
    expect(clip).toMatchObject({ status: 'ready', sessionId: session.id });
    expect(Math.abs((clip?.durationMs ?? 0) - 1500)).toBeLessThan(200);
    const receipt = (await call(winner, 'GET', `/api/auctions/${sold.id}/clip`)).json();
    expect(receipt.durationMs).toBe(clip?.durationMs);
    expect((await server.ctx.db.select().from(replayClips).where(eq(replayClips.auctionId, unsold.id))).length).toBe(0);

    // The raw segments are gone once the replay is made.
    for (const file of files) expect(existsSync(path.join(config.recordingsDir, file))).toBe(false);
    expect(await server.ctx.db.select().from(recordingSegments).where(eq(recordingSegments.sessionId, session.id))).toEqual([]);
    expect(await maker()).toEqual({ outcome: 'none' });
  }, 120_000);

  it('waits while the show is live, and starts once it ended', async () => {
    const { session } = await recordedShow();
    await server.ctx.db.update(liveSessions).set({ status: 'live' }).where(eq(liveSessions.id, session.id));
    expect(await maker()).toEqual({ outcome: 'none' });
    expect((await replayRow(session.id))?.status).toBe('recording');
    await server.ctx.db.update(liveSessions).set({ status: 'ended' }).where(eq(liveSessions.id, session.id));
    expect(await maker()).toEqual({ outcome: 'ready', sessionId: session.id });
  }, 120_000);

  it('keeps a failure’s reason and the recording, and makes it on Reintentar once the cause is gone', async () => {
    const { session, files } = await recordedShow();
    const missing = path.join(config.recordingsDir, files[1] as string);
    await rename(missing, `${missing}.aside`);
    expect(await maker()).toEqual({ outcome: 'failed', sessionId: session.id });
    const failed = (await call(seller, 'GET', `/api/live-sessions/${session.id}/replay`)).json();
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.error).toBe(`No se pudo preparar la repetición: falta un archivo de la grabación (${files[1]})`);
    expect(existsSync(path.join(config.recordingsDir, files[0] as string))).toBe(true);
    expect(await maker()).toEqual({ outcome: 'none' });

    await rename(`${missing}.aside`, missing);
    expect((await call(seller, 'POST', `/api/live-sessions/${session.id}/replay/retry`)).statusCode).toBe(202);
    expect(await maker()).toEqual({ outcome: 'ready', sessionId: session.id });
  }, 120_000);

  it('leaves a replay another instance is making, takes it again when that instance’s lease ran out, and leaves another machine’s recording to it', async () => {
    const { session } = await recordedShow();
    await server.ctx.db
      .update(replays)
      .set({ status: 'processing', leasedUntil: new Date(Date.now() + 60_000) })
      .where(eq(replays.sessionId, session.id));
    expect(await maker()).toEqual({ outcome: 'none' });
    await server.ctx.db
      .update(replays)
      .set({ leasedUntil: new Date(Date.now() - 1000) })
      .where(eq(replays.sessionId, session.id));
    expect(await maker()).toEqual({ outcome: 'ready', sessionId: session.id });
    expect((await replayRow(session.id))?.attempts).toBe(1);

    const elsewhere = await recordedShow();
    await server.ctx.db
      .update(recordingSegments)
      .set({ host: `otra-${randomUUID().slice(0, 8)}` })
      .where(eq(recordingSegments.sessionId, elsewhere.session.id));
    expect(await maker()).toEqual({ outcome: 'none' });
    expect((await replayRow(elsewhere.session.id))?.status).toBe('processing');
    await server.ctx.db.delete(replays).where(eq(replays.sessionId, elsewhere.session.id));
  }, 120_000);

  it('drops the row of a show that was to be recorded but never broadcast', async () => {
    const session = await buildSession(server.ctx.db, { companyId: COMPANY, sellerId: seller.id, status: 'ended' });
    await server.ctx.db.insert(replays).values({ sessionId: session.id, status: 'recording' });
    expect(await maker()).toEqual({ outcome: 'empty', sessionId: session.id });
    expect(await replayRow(session.id)).toBeUndefined();
    expect((await call(null, 'GET', `/api/live-sessions/${session.id}/replay`)).json()).toMatchObject({ status: 'none' });
  });

  it('without ffmpeg, says once that replays are off and leaves the recordings waiting, the server running', async () => {
    const { session } = await recordedShow();
    const warned: string[] = [];
    const log = { warn: (msg: string) => warned.push(msg), info: () => {}, error: () => {}, debug: () => {} } as unknown as FastifyBaseLogger;
    const job = startReplayMaker({ db: server.ctx.db, storage: server.ctx.storage, config, log, env: { PATH: '' } });
    try {
      await eventually(() => job.status().runs > 0, { what: 'a pass of the replays job' });
      expect(warned).toEqual(['replays are off: ffmpeg not found (apt-get install ffmpeg)']);
      expect(job.status().lastError).toBeNull();
      expect((await replayRow(session.id))?.status).toBe('recording');
    } finally {
      await job.stop();
    }
    await server.ctx.db.delete(replays).where(eq(replays.sessionId, session.id));
  });
});
