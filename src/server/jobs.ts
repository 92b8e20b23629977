import type { FastifyBaseLogger } from 'fastify';
import { VIEWER_SAMPLE_MS } from '../domain/show-summary.js';
import type { BulkPacer } from './bulk-pacer.js';
import type { AppContext } from './context.js';
import { SHOW_ALERTS_EVERY_MS, startShowAlerts } from './features/alerts/fan-out.js';
import { startClosingScheduler } from './features/bids/scheduler.js';
import { deleteExpiredLiveKeys } from './features/live/sessions/idempotency.js';
import { startAutoAdvanceScheduler } from './features/live/show/auto-advance.js';
import { EDGE_FEED_EVERY_MS, startEdgeFeed } from './features/live/show/edge-feed.js';
import { startPublisherWatch, WATCH_EVERY_MS } from './features/live/show/publisher-watch.js';
import { MAX_SLEEP_MS as REMINDERS_MAX_SLEEP_MS, startReminderJob } from './features/payments/reminders/job.js';
import { startViewerSampler } from './features/payments/show-summary/sampler.js';
import { startPaymentExpiry } from './features/payments/unpaid/expiry.js';
import { PUSH_SENDER_MAX_SLEEP_MS, startPushSender } from './features/push/index.js';
import { REHEARSAL_TICK_MS, startRehearsalDriver } from './features/rehearsal/rehearsal-driver.js';
import {
  RECORDER_EVERY_MS,
  REPLAY_RETENTION_EVERY_MS,
  REPLAYS_EVERY_MS,
  startJanusRecorder,
  startRecorder,
  startReplayMaker,
  startReplayRetention,
} from './features/replays/index.js';
import { type JobStatus, type PassLoop, type PassStatus, startPassLoop } from './pass-loop.js';
import { deleteExpiredSessions } from './sessions/store.js';

export type { JobStatus };

/**
 * Everything the server does by itself, on a clock rather than on a request: the one list. Each job
 * runs on the one pass loop (pass-loop.ts), on every instance; each is safe to run on several at
 * once (its own comment says how). app.ts starts them all; a test server starts only those its
 * test names (test/support/server.ts), so no job races a test that drives the same rows by hand.
 */
export interface Job<Deps, Name extends string = string> {
  name: Name;
  /** Why it runs, in one line. */
  description: string;
  /** Its nominal interval, for the docs and the metrics: most sleep until their next due row, at most this long. */
  everyMs: number;
  start(deps: Deps): PassLoop;
}

/** What the app's jobs are started with. */
export interface JobDeps {
  ctx: AppContext;
  log: FastifyBaseLogger;
  /** The instance's one pacer for bulk database work (bulk-pacer.ts): the go-live fan-out and the push sender share it. */
  bulk: BulkPacer;
}

const HOUR_MS = 3_600_000;

/** A sweep: one delete an hour, the first an hour after the start. */
function startSweep(name: string, log: FastifyBaseLogger, sweep: () => Promise<void>): PassLoop {
  return startPassLoop({
    name,
    log,
    retryMs: HOUR_MS,
    firstDelayMs: HOUR_MS,
    unref: true,
    async pass() {
      await sweep();
      return HOUR_MS;
    },
  });
}

const publishOf = (ctx: AppContext) => (events: Parameters<AppContext['publisher']['publish']>[0]) => ctx.publisher.publish(events);

export const jobs = [
  {
    name: 'closing',
    description: 'Closes each auction at its end time, even when nobody bids or looks.',
    everyMs: 1000,
    start: ({ ctx, log }) => startClosingScheduler({ db: ctx.db, log, publish: publishOf(ctx) }),
  },
  {
    name: 'auto-advance',
    description: "'Avance automático': opens a live show's next lot the set seconds after its current lot closed.",
    everyMs: 1000,
    start: ({ ctx, log }) => startAutoAdvanceScheduler({ db: ctx.db, log, present: ctx.bidding.present, publish: publishOf(ctx) }),
  },
  {
    name: 'rehearsal',
    description: "'Ensayo': simulated bidders and viewers in open rehearsals, and puts back a rehearsal that ended.",
    everyMs: REHEARSAL_TICK_MS,
    start: ({ ctx, log }) => startRehearsalDriver({ db: ctx.db, present: ctx.bidding.present, publish: publishOf(ctx), viewers: ctx.realtime, log }),
  },
  {
    name: 'payment-expiry',
    description: "Unpaid bills expire at their deadline: the buyer's strike, the provider's link expired.",
    everyMs: 60_000,
    start: ({ ctx, log }) => startPaymentExpiry({ db: ctx.db, log, provider: ctx.payments.provider, accounts: ctx.payments.accounts, publish: publishOf(ctx) }),
  },
  {
    name: 'reminders',
    description: 'Payment reminders fall due: their rows, skipping finished bills, and the WhatsApp Cloud API sends.',
    everyMs: REMINDERS_MAX_SLEEP_MS,
    start: ({ ctx, log }) => startReminderJob({ ctx, log }),
  },
  {
    name: 'push-sender',
    description: "Web Push: sends the due show alerts (push_deliveries) to the buyers' browsers, retries, drops gone subscriptions.",
    everyMs: PUSH_SENDER_MAX_SLEEP_MS,
    start: ({ ctx, log, bulk }) => startPushSender({ ctx, log, bulk }),
  },
  {
    name: 'viewer-sampler',
    description: "The viewers chart of a show's summary: each live show's viewer count every few seconds.",
    everyMs: VIEWER_SAMPLE_MS,
    start: ({ ctx, log }) => startViewerSampler({ db: ctx.db, log, viewerCount: (id) => ctx.realtime.viewerCount(id) }),
  },
  {
    name: 'publisher-watch',
    description: "Stops a broadcast whose seller's page went away without 'Detener', after a short grace.",
    everyMs: WATCH_EVERY_MS,
    start: ({ ctx, log }) => startPublisherWatch({ db: ctx.db, video: ctx.video, present: ctx.bidding.present, log, publish: publishOf(ctx) }),
  },
  {
    name: 'edge-feed',
    description: "With Janus edges, keeps each broadcast's forwarders from the origin to every edge that answers on the seller's newest feed.",
    everyMs: EDGE_FEED_EVERY_MS,
    start: ({ ctx, log }) => startEdgeFeed({ db: ctx.db, edges: ctx.video.edges, log }),
  },
  {
    name: 'show-alerts',
    description:
      "A show's followers and bookmarkers told once when it goes live (bookmarkers 15 minutes before too): the bell and push deliveries, in batches.",
    everyMs: SHOW_ALERTS_EVERY_MS,
    start: ({ ctx, log, bulk }) => startShowAlerts({ db: ctx.db, log, publish: publishOf(ctx), bulk }),
  },
  {
    name: 'recorder',
    description:
      "Records each live show with *Grabar el show*: through this instance's embedded SFU, ffmpeg writes the media as it came, a segment per start or resume; with Janus, it turns the room's own recording on and gathers its files once the show ends.",
    everyMs: RECORDER_EVERY_MS,
    start: ({ ctx, log }) =>
      ctx.video.roomRecording
        ? startJanusRecorder({ db: ctx.db, recording: ctx.video.roomRecording, log })
        : startRecorder({ db: ctx.db, tap: ctx.video.tap ?? null, config: ctx.config.replays, log }),
  },
  {
    name: 'replays',
    description: "A show that ended with a recording becomes its replay (one MP4, a chapter per lot) and each sold lot's clip, at the lowest priority.",
    everyMs: REPLAYS_EVERY_MS,
    start: ({ ctx, log }) => startReplayMaker({ db: ctx.db, storage: ctx.storage, config: ctx.config.replays, log }),
  },
  {
    name: 'replay-retention',
    description: "Once a day: deletes the replays and clips whose days are over (a clip's end moves to 30 days after its bill is paid).",
    everyMs: REPLAY_RETENTION_EVERY_MS,
    start: ({ ctx, log }) => startReplayRetention({ db: ctx.db, storage: ctx.storage, log }),
  },
  {
    name: 'session-sweep',
    description: 'Deletes expired sign-in sessions, so the table does not grow without end.',
    everyMs: HOUR_MS,
    start: ({ ctx, log }) => startSweep('session sweep', log, () => deleteExpiredSessions(ctx.db)),
  },
  {
    name: 'live-keys-sweep',
    description: "Deletes the Live Hub's idempotency keys once they are a day old.",
    everyMs: HOUR_MS,
    start: ({ ctx, log }) => startSweep('live keys sweep', log, () => deleteExpiredLiveKeys(ctx.db)),
  },
] as const satisfies readonly Job<JobDeps>[];

export type JobName = (typeof jobs)[number]['name'];

export interface JobsHandle {
  /** Stops every job started, each after its pass under way. */
  stop(): Promise<void>;
  /** Every job of the registry, started or not, in its order. */
  status(): JobStatus[];
}

/** Starts the named jobs of `registry` ('all': every one); the others are listed as not running. */
export function startJobs<Deps, Name extends string>(registry: readonly Job<Deps, Name>[], names: readonly Name[] | 'all', deps: Deps): JobsHandle {
  const wanted = names === 'all' ? null : new Set<string>(names);
  for (const name of wanted ?? []) {
    if (!registry.some((job) => job.name === name)) throw new Error(`No job is named '${name}'`);
  }
  const loops = new Map<string, PassLoop>();
  let stopped = false;
  try {
    for (const job of registry) if (!wanted || wanted.has(job.name)) loops.set(job.name, job.start(deps));
  } catch (err) {
    for (const loop of loops.values()) void loop.stop();
    throw err;
  }
  const idle: PassStatus = { runs: 0, failures: 0, lastRunAt: null, lastError: null };
  return {
    async stop() {
      stopped = true;
      for (const loop of loops.values()) await loop.stop();
    },
    status: () =>
      registry.map((job) => {
        const loop = loops.get(job.name);
        return { name: job.name, running: Boolean(loop) && !stopped, ...(loop ? loop.status() : idle) };
      }),
  };
}
