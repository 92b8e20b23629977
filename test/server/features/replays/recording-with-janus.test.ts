import { existsSync } from 'node:fs';
import { mkdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import Janode, { type JanodeConnection } from 'janode';
import VideoRoomPlugin from 'janode/plugins/videoroom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSessions, recordingSegments, replays } from '../../../../src/server/db/schema.js';
import { makeNextReplay } from '../../../../src/server/features/replays/index.js';
import { JANUS_FILES_QUIET_MS, JANUS_RECORDER_EVERY_MS } from '../../../../src/server/features/replays/janus-recorder.js';
import type { FfmpegTools } from '../../../../src/server/features/replays/media/index.js';
import { janusRoomKeys } from '../../../../src/server/providers/video/janus.js';
import { buildSession } from '../../../support/factories.js';
import { janusMissingReason, type RunningJanus, startJanus } from '../../../support/janus.js';
import { writeJanusJoin } from '../../../support/mjr.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { makeSyntheticMedia, type SyntheticMedia } from '../../../support/synthetic-media.js';
import { eventually, sleep } from '../../../support/wait.js';
import { makeTempDir, nice, requireTools } from './media/fixtures.js';

/**
 * The recorder with Janus, against a real Janus: it turns a room's own recording on for a live
 * show with *Grabar el show* and off otherwise (a rehearsal, a seller who switched it off), keeps
 * the replay waiting while the show records, and once the show has ended and Janus's files are
 * still, puts each publisher join into a segment of its own, which the replays job converts. The
 * media of a real Janus recording is the video suite's (e2e/video/replay.spec.ts); here the files
 * are written as Janus writes them (test/support/mjr.ts).
 */

const missing = janusMissingReason();
if (missing) console.warn(`recording with Janus: skipped: ${missing}`);
const ADMIN_KEY = 'clave-de-prueba';
const COMPANY = 'remates-janus';

describe.skipIf(missing !== null)('recording a show with Janus', () => {
  let janus: RunningJanus;
  let server: TestServer;
  let temp: { dir: string; cleanup: () => Promise<void> };
  let tools: FfmpegTools;
  let media: SyntheticMedia;
  let client: JanodeConnection;

  beforeAll(async () => {
    tools = await requireTools();
    temp = await makeTempDir();
    media = await makeSyntheticMedia({ seconds: 3, width: 320, height: 180 });
    janus = await startJanus({ netns: false, adminKey: ADMIN_KEY });
    server = await startTestServer({
      env: { VIDEO_PROVIDER: 'janus', JANUS_URL: janus.url, JANUS_ADMIN_KEY: ADMIN_KEY, DATA_DIR: temp.dir },
      jobs: ['recorder'],
    });
    client = await Janode.connect({ address: { url: janus.url }, max_retries: 0 });
  }, 120_000);
  afterAll(async () => {
    await client?.close().catch(() => {});
    await server?.close();
    await janus?.stop();
    await temp?.cleanup();
  });

  const keysOf = (sessionId: string) => janusRoomKeys(server.ctx.config.sessionSecret, sessionId);
  /** The room as Janus lists it to an administrator: whether it records, and where. */
  async function roomOf(sessionId: string): Promise<{ record: boolean; rec_dir?: string } | undefined> {
    const session = await client.create();
    try {
      const handle = await session.attach(VideoRoomPlugin);
      const answer = await handle.message({ request: 'list', admin_key: ADMIN_KEY });
      const list = (answer.plugindata?.data?.list ?? []) as { room: number; record: boolean; rec_dir?: string }[];
      return list.find((r) => r.room === keysOf(sessionId).room);
    } finally {
      await session.destroy().catch(() => {});
    }
  }
  /** The seller's page in the room: a publisher that has joined (its media is the video suite's). */
  async function joinAsSeller(sessionId: string): Promise<void> {
    const grant = await server.ctx.video.grant(sessionId, 'publisher');
    const session = await client.create();
    const handle = await session.attach(VideoRoomPlugin);
    if (grant.provider !== 'janus') throw new Error('expected a Janus grant');
    await handle.joinPublisher({ room: grant.room, token: grant.token as string, display: 'seller' });
  }
  const replayOf = async (sessionId: string) => (await server.ctx.db.select().from(replays).where(eq(replays.sessionId, sessionId)))[0];
  const segmentsOf = (sessionId: string) =>
    server.ctx.db.select().from(recordingSegments).where(eq(recordingSegments.sessionId, sessionId)).orderBy(asc(recordingSegments.startedAt));
  const liveShow = (over: { recording?: boolean; rehearsal?: boolean } = {}) =>
    buildSession(server.ctx.db, { companyId: COMPANY, status: 'live', lastStreamStart: new Date(), ...over });

  it('records the room of a live show with Grabar el show, holds its replay while it records, and gathers each join once the show ends', async () => {
    const show = await liveShow();
    await joinAsSeller(show.id);
    await eventually(async () => (await roomOf(show.id))?.record === true, { what: "the room's recording to be on" });
    expect((await roomOf(show.id))?.rec_dir).toBe(path.join(server.ctx.config.replays.janusRecDir, show.id));
    await eventually(async () => (await replayOf(show.id))?.status === 'recording', { what: 'the replay to say it records' });
    // One open segment, without files yet: the replays job waits for it.
    const open = await segmentsOf(show.id);
    expect(open.map((s) => [s.source, s.files, s.endedAt])).toEqual([['janus', [], null]]);

    // Two joins (a reload in between), as Janus writes them, still being written when the show ends.
    const dir = path.join(server.ctx.config.replays.janusRecDir, show.id);
    await mkdir(dir, { recursive: true });
    const room = keysOf(show.id).room;
    const first = await writeJanusJoin(dir, { room, feed: 1, createdUs: Date.now() * 1000 - 60_000_000, media, audioOffsetMs: 200 });
    const second = await writeJanusJoin(dir, { room, feed: 2, createdUs: Date.now() * 1000 - 20_000_000, media, audioOffsetMs: -100 });
    await server.ctx.db.update(liveSessions).set({ status: 'ended' }).where(eq(liveSessions.id, show.id));
    await sleep(JANUS_RECORDER_EVERY_MS * 2);
    expect((await segmentsOf(show.id)).map((s) => s.endedAt)).toEqual([null]);

    // Still for a few seconds: gathered, a segment per join from its first packet.
    const past = new Date(Date.now() - JANUS_FILES_QUIET_MS * 2);
    for (const name of [first.video, first.audio, second.video, second.audio]) await utimes(path.join(dir, name as string), past, past);
    await eventually(async () => (await segmentsOf(show.id)).every((s) => s.endedAt !== null), { what: 'the joins to be gathered' });
    const gathered = await segmentsOf(show.id);
    expect(gathered.map((s) => [s.source, s.files, s.startedAt.getTime()])).toEqual([
      ['janus', [path.join(show.id, first.video), path.join(show.id, first.audio as string)], first.videoFirstAt],
      ['janus', [path.join(show.id, second.video), path.join(show.id, second.audio as string)], second.audioFirstAt],
    ]);

    // The replays job converts them (janus-pp-rec) and makes one replay of both: 3 s each.
    const made = await makeNextReplay({ db: server.ctx.db, storage: server.ctx.storage, tools, config: server.ctx.config.replays, nice });
    expect(made).toEqual({ outcome: 'ready', sessionId: show.id });
    const ready = await replayOf(show.id);
    expect(ready?.status).toBe('ready');
    expect(Math.abs((ready?.durationMs ?? 0) - 6200)).toBeLessThan(600);
    // The raw files are gone with their segments.
    expect(await segmentsOf(show.id)).toEqual([]);
    await expect(utimes(path.join(dir, first.video), past, past)).rejects.toThrow();
    expect(existsSync(dir)).toBe(false);
  });

  it('does not record a rehearsal, and turns a room off when its seller switches recording off mid-show', async () => {
    const rehearsal = await liveShow({ rehearsal: true });
    await joinAsSeller(rehearsal.id);
    const show = await liveShow();
    await joinAsSeller(show.id);
    await eventually(async () => (await roomOf(show.id))?.record === true, { what: "the show's room to record" });
    expect((await roomOf(rehearsal.id))?.record).toBe(false);
    expect(await replayOf(rehearsal.id)).toBeUndefined();

    await server.ctx.db.update(liveSessions).set({ recording: false }).where(eq(liveSessions.id, show.id));
    await eventually(async () => (await roomOf(show.id))?.record === false, { what: "the room's recording to be off" });
  });

  it('drops a replay when the show ended without Janus having written anything', async () => {
    const show = await liveShow();
    await joinAsSeller(show.id);
    await eventually(async () => (await replayOf(show.id))?.status === 'recording', { what: 'the replay to say it records' });
    await server.ctx.db.update(liveSessions).set({ status: 'ended' }).where(eq(liveSessions.id, show.id));
    await eventually(async () => (await segmentsOf(show.id)).length === 0, { what: 'the open segment to go' });
    expect(await makeNextReplay({ db: server.ctx.db, storage: server.ctx.storage, tools, config: server.ctx.config.replays, nice })).toEqual({
      outcome: 'empty',
      sessionId: show.id,
    });
    expect(await replayOf(show.id)).toBeUndefined();
  });
});
