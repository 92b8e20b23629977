import { randomUUID } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, rows } from '../../db/connect.js';
import { type PassLoop, startPassLoop } from '../../pass-loop.js';
import type { RoomRecording } from '../../providers/video/types.js';
import { groupJanusFiles, readMjrHeader } from './media/janus.js';

/**
 * The `recorder` job with Janus, which records each room itself: this job only says which rooms
 * record, and gathers what Janus wrote once the show is over.
 *
 * - Each pass turns recording on for every show that is live with *Grabar el show* (not a
 *   rehearsal), and off for one that is live without it (the seller switched it off mid-show).
 *   Janus then writes each publisher's audio and video as they come, new files for every join (a
 *   reload, a lost camera, *Detener* and resume), under JANUS_REC_DIR/<show>/.
 * - While a show records, its `replays` row says 'recording' and one open `recording_segments`
 *   row (no files yet) holds the replays job back: the files are only complete once the room is
 *   gone.
 * - Once the show is no longer live and no file has changed for a few seconds, that open row is
 *   replaced by one closed row per join, its `started_at` its first packet's moment (from the
 *   file's header). Any instance may do it, once: the open row is deleted in the same transaction.
 */

/** How often the job looks: a show going live starts recording within it. */
export const JANUS_RECORDER_EVERY_MS = 2000;
/** A file unchanged this long after its show ended is complete (Janus closes it as the room goes). */
export const JANUS_FILES_QUIET_MS = 5000;

export interface JanusRecorderDeps {
  db: Db;
  recording: RoomRecording;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  host?: string;
}

export function startJanusRecorder(deps: JanusRecorderDeps): PassLoop {
  const { db, recording, log } = deps;
  const host = deps.host ?? os.hostname();
  /** Rooms this instance turned on: a show switched off mid-show is turned off once. */
  const turnedOn = new Set<string>();
  let firstPass = true;

  async function switchRooms(): Promise<void> {
    const live = rows<{ id: string; record: boolean }>(
      await db.execute(sql`select id, (recording and not rehearsal) as record from live_sessions where status = 'live'`),
    );
    for (const { id, record } of live) {
      // A show that was never turned on here needs no 'off' (rooms are created with recording off), except after a restart.
      if (!record && !turnedOn.has(id) && !firstPass) continue;
      try {
        const room = await recording.set(id, record);
        if (!record) {
          turnedOn.delete(id);
          continue;
        }
        turnedOn.add(id);
        if (room.room && room.publishers > 0) await noteRecording(id);
      } catch (err) {
        log.warn({ err, sessionId: id }, 'could not switch the recording of a Janus room');
      }
    }
    const liveIds = new Set(live.map((s) => s.id));
    for (const id of turnedOn) if (!liveIds.has(id)) turnedOn.delete(id);
    firstPass = false;
  }

  /** The show's replay-to-be, and the open row that keeps it waiting until its files are gathered. */
  async function noteRecording(sessionId: string): Promise<void> {
    // Both at once: a replay that says 'recording' without its open segment would be taken for an empty recording.
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into recording_segments (id, session_id, source, files, host, started_at)
        select ${randomUUID()}::uuid, ${sessionId}::uuid, 'janus', '[]'::jsonb, ${host}, now()
        where not exists (select 1 from recording_segments where session_id = ${sessionId}::uuid and source = 'janus' and ended_at is null)`);
      await tx.execute(sql`insert into replays (session_id) values (${sessionId}::uuid) on conflict (session_id) do nothing`);
    });
  }

  async function gatherEnded(): Promise<void> {
    const waiting = rows<{ session_id: string }>(
      await db.execute(sql`
        select distinct g.session_id from recording_segments g join live_sessions s on s.id = g.session_id
        where g.source = 'janus' and g.ended_at is null and s.status <> 'live'`),
    );
    for (const { session_id: sessionId } of waiting) {
      try {
        await gather(sessionId);
      } catch (err) {
        log.error({ err, sessionId }, "could not gather a Janus room's recording");
      }
    }
  }

  async function gather(sessionId: string): Promise<void> {
    const dir = path.join(recording.dir, sessionId);
    const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    const now = Date.now();
    const mjr = names.filter((n) => n.endsWith('.mjr'));
    for (const name of mjr) {
      // Still being written (the room is closing): the next pass looks again.
      if (now - (await stat(path.join(dir, name))).mtimeMs < JANUS_FILES_QUIET_MS) return;
    }
    const known = new Set(
      rows<{ file: string }>(
        await db.execute(
          sql`select jsonb_array_elements_text(files) as file from recording_segments where session_id = ${sessionId}::uuid and source = 'janus'`,
        ),
      ).map((r) => r.file),
    );
    const joins: { files: string[]; startedAt: number }[] = [];
    for (const group of groupJanusFiles(mjr)) {
      const files: string[] = [];
      let startedAt = Number.POSITIVE_INFINITY;
      for (const name of group) {
        const rel = path.join(sessionId, name);
        if (known.has(rel)) continue;
        const header = await readMjrHeader(path.join(dir, name));
        // A stream that never received a packet has no header, and nothing to play.
        if (!header || header.kind === 'data') continue;
        files.push(rel);
        startedAt = Math.min(startedAt, header.firstPacketAt);
      }
      if (files.length > 0) joins.push({ files, startedAt });
    }
    await db.transaction(async (tx) => {
      const opened = rows<{ id: string }>(
        await tx.execute(sql`
          delete from recording_segments where session_id = ${sessionId}::uuid and source = 'janus' and ended_at is null returning id`),
      );
      // Another instance gathered them first.
      if (opened.length === 0) return;
      for (const join of joins) {
        await tx.execute(sql`
          insert into recording_segments (id, session_id, source, files, host, started_at, ended_at)
          values (${randomUUID()}::uuid, ${sessionId}::uuid, 'janus', ${JSON.stringify(join.files)}::jsonb, ${host},
            ${new Date(join.startedAt).toISOString()}::timestamptz, now())`);
      }
    });
    log.info({ sessionId, joins: joins.length }, "a Janus room's recording is gathered");
  }

  return startPassLoop({
    name: 'recorder',
    log,
    retryMs: JANUS_RECORDER_EVERY_MS,
    async pass() {
      await switchRooms();
      await gatherEnded();
      return JANUS_RECORDER_EVERY_MS;
    },
  });
}
