import { and, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { Db } from '../../../db/connect.js';
import { liveSessions } from '../../../db/schema.js';
import { type PassLoop, startPassLoop } from '../../../pass-loop.js';
import type { VideoProvider } from '../../../providers/video/types.js';
import type { BidPresenter } from '../../../realtime/bid-presenter.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { stopAbandonedStream } from './stream.js';

/**
 * How long a broadcast may have no publisher before the server stops it: a reload, a phone that
 * lost its signal for a moment or the embedded SFU's restart come back within it (the seller's page
 * publishes again by itself, or she presses 'Iniciar'); past it, the seller's page is gone.
 */
export const PUBLISHER_GRACE_MS = 20_000;
/** How often the broadcasts are checked: a gone publisher is stopped within the grace plus this. */
export const WATCH_EVERY_MS = 5_000;
/** The broadcasts one pass looks at, oldest start first (far more than one server carries). */
const WATCH_LIMIT = 500;

type WatchedVideo = Pick<VideoProvider, 'name' | 'hasPublisher' | 'endSession'>;

/** The sessions broadcasting on `provider` now (started and not stopped since), oldest start first. */
export async function broadcasting(db: Db, provider: VideoProvider['name']): Promise<{ id: string; startedAt: number }[]> {
  const found = await db
    .select({ id: liveSessions.id, startedAt: liveSessions.lastStreamStart })
    .from(liveSessions)
    .where(
      and(
        eq(liveSessions.streamType, provider),
        isNotNull(liveSessions.lastStreamStart),
        or(isNull(liveSessions.lastStreamStop), gt(liveSessions.lastStreamStart, liveSessions.lastStreamStop)),
      ),
    )
    .orderBy(liveSessions.lastStreamStart)
    .limit(WATCH_LIMIT);
  return found.flatMap((r) => (r.startedAt ? [{ id: r.id, startedAt: r.startedAt.getTime() }] : []));
}

export interface PublisherWatch {
  /** One pass at `now` (epoch ms): the broadcasts it stopped, and the events their rooms hear. */
  pass(now?: number): Promise<{ stopped: string[]; events: DomainEvent[] }>;
}

/**
 * A broadcast outlives its seller's page when the page goes without 'Detener' (the tab closed, the
 * phone's browser was killed, the connection dropped): buyers would read "Esperando al vendedor…"
 * forever. Every pass asks the video provider whether each broadcast on it still has a publisher;
 * one that has had none for PUBLISHER_GRACE_MS is stopped as 'Detener' stops it (stream.ts), so the
 * live page says the video stopped. A provider that cannot tell (Agora) is never second-guessed.
 * When the publisher went away is kept in memory: after a restart the grace simply starts again.
 */
export function createPublisherWatch(opts: { db: Db; video: WatchedVideo; present: BidPresenter; graceMs?: number }): PublisherWatch {
  const graceMs = opts.graceMs ?? PUBLISHER_GRACE_MS;
  /** sessionId → since when the broadcast started at `startedAt` has had no publisher. */
  const goneSince = new Map<string, { since: number; startedAt: number }>();

  return {
    async pass(now = Date.now()) {
      const sessions = await broadcasting(opts.db, opts.video.name);
      const stopped: string[] = [];
      const events: DomainEvent[] = [];
      const watched = new Set(sessions.map((s) => s.id));
      for (const id of goneSince.keys()) if (!watched.has(id)) goneSince.delete(id);
      for (const s of sessions) {
        const present = await opts.video.hasPublisher(s.id).catch(() => null);
        if (present !== false) {
          goneSince.delete(s.id);
          continue;
        }
        const seen = goneSince.get(s.id);
        // A broadcast started again is another one: its grace starts now.
        const since = seen && seen.startedAt === s.startedAt ? seen.since : now;
        goneSince.set(s.id, { since, startedAt: s.startedAt });
        if (now - Math.max(since, s.startedAt) < graceMs) continue;
        const done = await stopAbandonedStream(opts.db, { present: opts.present, sessionId: s.id, startedAt: s.startedAt });
        goneSince.delete(s.id);
        if (!done) continue;
        // Its room and any viewer still subscribed go with it, as after 'Detener'.
        await opts.video.endSession(s.id).catch(() => {});
        stopped.push(s.id);
        events.push(...done.events);
      }
      return { stopped, events };
    },
  };
}

/** The watch as a background job of the app, every few seconds. */
export function startPublisherWatch(opts: {
  db: Db;
  video: WatchedVideo;
  present: BidPresenter;
  log: { error(obj: { err: unknown }, msg: string): void };
  publish: (events: DomainEvent[]) => Promise<void>;
}): PassLoop {
  const watch = createPublisherWatch(opts);
  return startPassLoop({
    name: 'publisher-watch',
    log: opts.log,
    retryMs: WATCH_EVERY_MS,
    firstDelayMs: WATCH_EVERY_MS,
    unref: true,
    async pass() {
      const done = await watch.pass();
      if (done.events.length > 0) await opts.publish(done.events);
      return WATCH_EVERY_MS;
    },
  });
}
