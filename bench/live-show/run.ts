/**
 * One live show on one engine: the server in this process, the viewers, the show (seller and
 * bidders) and, when there are chatters, the chat in forked child processes (child.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { TIMER_MODES, type TimerMode } from '../../src/domain/bid-rules.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { connectDatabase, rows } from '../../src/server/db/connect.js';
import { migrateDatabase } from '../../src/server/db/migrate.js';
import { cpuBusy, exited, forkRole, onceMessage, percentile, round } from '../support.js';
import { chatConsistency, expectedChat, showConsistency, storedChat } from './consistency.js';
import {
  type ChattersResult,
  type ChattersStart,
  ROLE_ENV,
  type ShowResult,
  type ShowStart,
  type ViewerClient,
  type ViewersFinish,
  type ViewersResult,
  type ViewersStart,
} from './protocol.js';
import { prepareShow, seed, seedPrebids } from './seed.js';

const SESSION_SECRET = 'bench-live-show-session-secret-0123456789';

export interface ShowKnobs {
  viewers: number;
  viewerClient: ViewerClient;
  lots: number;
  timerS: number;
  bidders: number;
  bidGapMs: number;
  users: number;
  antiSnipeS: number;
  /** The session's timer format; null: none stored, so ANTI_SNIPE decides (0: sudden death, else extend). */
  timerMode: TimerMode | null;
  /** Contrapuja's W and R, seconds. */
  counterBidWindowS: number;
  counterBidResetS: number;
  /** Under Contrapuja, the share of lots bid into the last W seconds, and how long past the first end their bidders go on. */
  lateShare: number;
  lateExtraS: number;
  /** Pre-bids left on every lot before the show starts. */
  prebidsPerLot: number;
  /** 0: no chat written by buyers (the show's own system lines, if any, are still checked). */
  chatters: number;
  /** Lines a second, all chatters together. */
  chatRate: number;
}

/** The show's knobs from the environment (the chat's are the caller's). */
export function showKnobsFromEnv(env: NodeJS.ProcessEnv, defaults: { viewerClient: ShowKnobs['viewerClient'] }): Omit<ShowKnobs, 'chatters' | 'chatRate'> {
  const timerMode = (TIMER_MODES as readonly string[]).includes(env.TIMER_MODE ?? '') ? (env.TIMER_MODE as TimerMode) : null;
  if (env.TIMER_MODE && !timerMode) throw new Error(`TIMER_MODE must be one of ${TIMER_MODES.join(', ')}`);
  const counterBidWindowS = Number(env.COUNTER_BID_WINDOW ?? 10);
  return {
    viewers: Number(env.VIEWERS ?? 1000),
    viewerClient: env.VIEWER_CLIENT === 'raw' || env.VIEWER_CLIENT === 'socket.io' ? env.VIEWER_CLIENT : defaults.viewerClient,
    lots: Number(env.LOTS ?? 50),
    // Under Contrapuja a lot needs time before its window, or no lot could be bid without moving the clock.
    timerS: Number(env.TIMER ?? (timerMode === 'counterBid' ? counterBidWindowS + 5 : 5)),
    bidders: Number(env.BIDDERS ?? 10),
    /** Each bid loop's pause between two bids: bidders on phones, not a flood that the per-user rate limit (30 / 10 s) would refuse. */
    bidGapMs: Number(env.BID_GAP_MS ?? 100),
    users: Number(env.USERS ?? 200),
    antiSnipeS: Number(env.ANTI_SNIPE ?? 0),
    timerMode,
    counterBidWindowS,
    counterBidResetS: Number(env.COUNTER_BID_RESET ?? 10),
    lateShare: Number(env.LATE_LOTS ?? 0.8),
    lateExtraS: Number(env.LATE_EXTRA ?? 2),
    prebidsPerLot: Number(env.PREBIDS ?? 0),
  };
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: percentile(sorted, 100) };
};

function forkLiveRole(role: 'viewers' | 'show' | 'chatters'): ChildProcess {
  return forkRole(fileURLToPath(new URL('./child.ts', import.meta.url)), ROLE_ENV, role);
}

export async function runLiveShow(engine: 'pglite' | 'postgresql', databaseUrl: string | undefined, knobs: ShowKnobs) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'martillo-bench-live-'));
  const database = await connectDatabase(databaseUrl ? { kind: 'postgresql', url: databaseUrl } : { kind: 'embedded', dir: path.join(dataDir, 'db') });
  const children: ChildProcess[] = [];
  try {
    await migrateDatabase(database);
    const seeded = await seed(database, { secret: SESSION_SECRET, lots: knobs.lots, users: knobs.users, chatters: knobs.chatters });
    // The chatters are one process on one address standing for many phones: the per-address chat limit would stop them.
    const env = { NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '0', SESSION_SECRET, CHAT_LINES_PER_ADDRESS: '100000' };
    const config = loadConfig(env, { persistSecret: false });
    const { app } = await buildApp({ config, database, logger: false, jobs: 'all' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const { sessionId, lotIds } = await prepareShow(base, seeded, knobs);
      const prebidsPlaced = await seedPrebids(database, seeded, knobs.prebidsPerLot);
      const counterBid =
        knobs.timerMode === 'counterBid'
          ? { windowS: knobs.counterBidWindowS, resetS: knobs.counterBidResetS, lateShare: knobs.lateShare, lateExtraMs: knobs.lateExtraS * 1000 }
          : null;

      const viewers = forkLiveRole('viewers');
      children.push(viewers);
      const ready = onceMessage<{ joined: number }>(viewers, 'ready');
      viewers.send({ type: 'start', client: knobs.viewerClient, base, sessionId, viewers: knobs.viewers } satisfies ViewersStart);
      await ready;

      const show = forkLiveRole('show');
      children.push(show);
      const chatters = knobs.chatters > 0 ? forkLiveRole('chatters') : null;
      if (chatters) children.push(chatters);
      const done = onceMessage<ShowResult>(show, 'result');
      const chatDone = chatters ? onceMessage<ChattersResult>(chatters, 'result') : Promise.resolve(null);
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      const cpuBefore = process.cpuUsage();
      const machineBefore = os.cpus();
      const loadBefore = os.loadavg()[0] as number;
      const started = performance.now();
      chatters?.send({ type: 'start', base, sessionId, cookies: seeded.chatterCookies, rate: knobs.chatRate } satisfies ChattersStart);
      show.send({
        type: 'start',
        base,
        sessionId,
        lotIds,
        sellerCookie: seeded.sellerCookie,
        buyerCookies: seeded.buyerCookies,
        bidders: knobs.bidders,
        timerS: knobs.timerS,
        bidGapMs: knobs.bidGapMs,
        counterBid,
      } satisfies ShowStart);
      const showResult = await done;
      chatters?.send({ type: 'stop' });
      const chatResult = await chatDone;
      const showSeconds = round((performance.now() - started) / 1000, 1);
      const serverCpu = process.cpuUsage(cpuBefore);
      const machineBusy = cpuBusy(machineBefore, os.cpus());
      const loadAfter = os.loadavg()[0] as number;
      loopDelay.disable();

      const closedRows = rows<{ lot_id: string; closed_ms: number; end_ms: number }>(
        await database.db.execute(sql`
          select l.id as lot_id, (extract(epoch from a.closed_at) * 1000)::float8 as closed_ms, (extract(epoch from a.end_time) * 1000)::float8 as end_ms
          from live_lots l join auctions a on a.id = l.auction_id where l.session_id = ${sessionId}::uuid and a.closed_at is not null`),
      );
      const closedAt = Object.fromEntries(closedRows.map((r) => [r.lot_id, Number(r.closed_ms)]));
      const lines = await storedChat(database, sessionId);
      const viewed = onceMessage<ViewersResult>(viewers, 'result');
      viewers.send({ type: 'finish', closedAt, chat: expectedChat(lines, chatResult) } satisfies ViewersFinish);
      const view = await viewed;
      await Promise.all(children.map(exited));

      const lateness = closedRows.map((r) => Number(r.closed_ms) - Number(r.end_ms)).sort((a, b) => a - b);
      const deliveries = [...view.deliveries].sort((a, b) => a - b);
      const firsts = [...view.firstDeliveries].sort((a, b) => a - b);
      const consistency = await showConsistency(database, seeded, sessionId, showResult, view, {
        timerMode: knobs.timerMode ?? (knobs.antiSnipeS === 0 ? 'suddenDeath' : 'extend'),
        windowS: knobs.timerMode === 'counterBid' ? knobs.counterBidWindowS : knobs.antiSnipeS,
        resetS: knobs.timerMode === 'counterBid' ? knobs.counterBidResetS : knobs.antiSnipeS,
        prebidsPlaced,
      });
      const wall = [...showResult.lotWallMs].sort((a, b) => a - b);
      const showRun = {
        engine,
        viewers: knobs.viewers,
        viewerClient: knobs.viewerClient,
        lots: knobs.lots,
        timerS: knobs.timerS,
        bidders: knobs.bidders,
        bidGapMs: knobs.bidGapMs,
        antiSnipeS: knobs.antiSnipeS,
        /** The show's format: what this run's lateness and consistency are for. */
        mode: {
          timerMode: knobs.timerMode ?? (knobs.antiSnipeS === 0 ? 'suddenDeath' : 'extend'),
          ...(knobs.timerMode === 'counterBid'
            ? {
                counterBidWindowS: knobs.counterBidWindowS,
                counterBidResetS: knobs.counterBidResetS,
                lateLotShare: knobs.lateShare,
                lateExtraS: knobs.lateExtraS,
              }
            : {}),
          prebidsPerLot: knobs.prebidsPerLot,
        },
        showSeconds,
        closeLatenessMs: { p50: percentile(lateness, 50), p99: percentile(lateness, 99), max: percentile(lateness, 100) },
        soldDeliveryMs: { p50: percentile(deliveries, 50), p99: percentile(deliveries, 99), max: percentile(deliveries, 100) },
        acceptedBids: showResult.accepted.length,
        consistency,
        diagnostics: {
          viewersJoined: view.joined,
          viewerConnectErrors: view.connectErrors,
          viewerConnectMs: view.connectMs,
          firstViewerDeliveryMs: { p50: percentile(firsts, 50), p99: percentile(firsts, 99) },
          bidsAttempted: showResult.attempted,
          refusedClosed: showResult.refusedClosed,
          refusedTooLow: showResult.refusedTooLow,
          otherErrors: showResult.otherErrors,
          lastError: showResult.lastError,
          lotWallMs: { p50: percentile(wall, 50), p99: percentile(wall, 99) },
          serverCpuMs: Math.round((serverCpu.user + serverCpu.system) / 1000),
          serverEventLoopDelayMs: { p50: round(loopDelay.percentile(50) / 1e6), p99: round(loopDelay.percentile(99) / 1e6), max: round(loopDelay.max / 1e6) },
          showProcessCpuMs: showResult.cpuMs,
          viewersProcess: { cpuMs: view.cpuMs, eventLoopDelayP99Ms: view.eventLoopDelayP99Ms },
          machineCpuBusy: machineBusy,
          /** The machine's 1-minute load average as the show started and ended: above the CPU count, something else competes for it. */
          loadAverage: { before: round(loadBefore), after: round(loadAfter) },
        },
      };
      const chat = {
        chatters: knobs.chatters,
        targetLinesPerS: knobs.chatters > 0 ? knobs.chatRate : 0,
        linesAccepted: chatResult?.accepted.length ?? 0,
        linesPerS: round((chatResult?.accepted.length ?? 0) / showSeconds, 1),
        /** Per chatter's line, from its createdAt (the server took it) to the LAST viewer's arrival. */
        deliveryMs: stats(view.chat.fromCreatedAt),
        /** The same from the author's sending (the whole way), and from its 201 (sent after the room's emit). */
        deliveryFromSendMs: stats(view.chat.fromSend),
        deliveryFromAnswerMs: stats(view.chat.fromAnswer),
        firstViewerMs: stats(view.chat.firstFromCreatedAt),
        /** The show's system lines, from their createdAt to the last viewer. */
        systemLineDeliveryMs: stats(view.chat.systemFromCreatedAt),
        refused: chatResult?.refused ?? {},
        consistency: chatConsistency(lines, chatResult, view),
        diagnostics: {
          attempted: chatResult?.attempted ?? 0,
          postLatencyMs: stats(chatResult?.latencyMs ?? []),
          lastError: chatResult?.lastError ?? null,
          chattersProcessCpuMs: chatResult?.cpuMs ?? 0,
        },
      };
      return { show: showRun, chat };
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill();
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
