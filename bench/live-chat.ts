/**
 * The live show with its chat: the show of bench/live-show.ts (V viewers, L lots on short timers,
 * B bidders) and C chatters writing R lines a second in all, as the chat's rules allow (one line
 * per user every 2 s at most, never the same line twice in a row). By default (CHAT=both) each
 * engine runs the same show twice, without chat and then with it, each on a fresh database, and
 * reports, per engine:
 * - chat.deliveryMs: per line, from its createdAt (the server took it) to the LAST viewer's arrival
 *   (p50, p99, max; target p99 under 300 ms); deliveryFromSendMs the same from the author's
 *   sending, deliveryFromAnswerMs from its 201 (the route answers after its emit to the room);
 * - chat.consistency: every viewer received every line meant for everyone exactly once and in seq
 *   order (lost, duplicated, outOfOrder, unexpected: target 0), every 201 is stored, nothing else;
 * - chat.refused: refused lines by `error.code`;
 * - show: close lateness p99 and accepted bids without and with chat, and their ratios (target: no
 *   worse than 10 %).
 *
 *   npm run bench:live-chat
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:live-chat
 *
 * Knobs: CHAT (both, on, off), CHATTERS (50), CHAT_RATE lines a second in all (20), and the show's:
 * VIEWERS (1000), LOTS (50), TIMER (5), BIDDERS (10), BID_GAP_MS (100), USERS (200), ANTI_SNIPE (0),
 * VIEWER_CLIENT (raw here: one process stands for the viewers, and socket.io-client's parsing
 * would measure that process), ENGINES (pglite,postgresql), DATABASE_URL.
 */

import { runLiveShow, type ShowKnobs, showKnobsFromEnv } from './live-show/run.js';
import { round, runOnEngines, withScratchPostgres } from './support.js';

const CHAT = process.env.CHAT === 'on' || process.env.CHAT === 'off' ? process.env.CHAT : 'both';
const CHATTERS = Number(process.env.CHATTERS ?? 50);
const CHAT_RATE = Number(process.env.CHAT_RATE ?? 20);
const TARGET_CHAT_DELIVERY_P99_MS = 300;
/** With chat, the show may be at most this much worse than without. */
const TARGET_SHOW_SLOWDOWN = 0.1;

type Run = Awaited<ReturnType<typeof runLiveShow>>;

/** PGlite starts each run in a new directory; on PostgreSQL each run gets its own scratch database too (the seed is not written twice). */
function runOnFreshDatabase(databaseUrl: string | undefined, fn: (url: string | undefined) => Promise<Run>): Promise<Run> {
  return databaseUrl ? withScratchPostgres(databaseUrl, fn) : fn(undefined);
}

const ratio = (withChat: number | null | undefined, without: number | null | undefined) =>
  withChat == null || without == null || without <= 0 ? null : round(withChat / without, 3);

/** What one run says about the show, for the side-by-side. */
function showSide(run: Run | null) {
  if (!run) return null;
  const { show, chat } = run;
  return {
    showSeconds: show.showSeconds,
    closeLatenessMs: show.closeLatenessMs,
    soldDeliveryMs: show.soldDeliveryMs,
    acceptedBids: show.acceptedBids,
    acceptedBidsPerS: round(show.acceptedBids / show.showSeconds, 1),
    chatLinesAccepted: chat.linesAccepted,
    systemLines: chat.consistency.systemLines,
  };
}

/** The chat's measures, its diagnostics going with the run's. */
function chatFigures(run: Run) {
  const { diagnostics: _diagnostics, ...figures } = run.chat;
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const base = showKnobsFromEnv(process.env, { viewerClient: 'raw' });
  await runOnEngines('live-chat', async (engine, databaseUrl) => {
    const run = (url: string | undefined, chatters: number): Promise<Run> =>
      runLiveShow(engine, url, { ...base, chatters, chatRate: CHAT_RATE } satisfies ShowKnobs);
    // One after the other, each on a fresh database (on PostgreSQL, a scratch database each).
    const without = CHAT === 'on' ? null : await runOnFreshDatabase(databaseUrl, (url) => run(url, 0));
    const withChat = CHAT === 'off' ? null : await runOnFreshDatabase(databaseUrl, (url) => run(url, CHATTERS));
    const latenessRatio = ratio(withChat?.show.closeLatenessMs.p99, without?.show.closeLatenessMs.p99);
    const bidsRatio = ratio(withChat?.show.acceptedBids, without?.show.acceptedBids);
    const runs = [without, withChat].filter((r): r is Run => r !== null);
    const chatP99 = withChat?.chat.deliveryMs.p99 ?? null;
    const consistency = {
      ok: runs.every((r) => r.show.consistency.ok && r.chat.consistency.ok),
      withoutChat: without ? { show: without.show.consistency, chat: without.chat.consistency } : null,
      withChat: withChat ? { show: withChat.show.consistency, chat: withChat.chat.consistency } : null,
    };
    const targets = {
      chatDeliveryP99Max: TARGET_CHAT_DELIVERY_P99_MS,
      chatDeliveryMet: withChat ? chatP99 !== null && chatP99 < TARGET_CHAT_DELIVERY_P99_MS : null,
      chatConsistencyMet: withChat ? withChat.chat.consistency.ok : null,
      closeLatenessP99RatioMax: round(1 + TARGET_SHOW_SLOWDOWN, 2),
      closeLatenessMet: latenessRatio === null ? null : latenessRatio <= 1 + TARGET_SHOW_SLOWDOWN,
      acceptedBidsRatioMin: round(1 - TARGET_SHOW_SLOWDOWN, 2),
      acceptedBidsMet: bidsRatio === null ? null : bidsRatio >= 1 - TARGET_SHOW_SLOWDOWN,
      met: false,
    };
    targets.met =
      consistency.ok && [targets.chatDeliveryMet, targets.chatConsistencyMet, targets.closeLatenessMet, targets.acceptedBidsMet].every((t) => t === true);
    return {
      engine,
      mode: CHAT,
      ...base,
      chatters: CHATTERS,
      chatLinesPerSTarget: CHAT_RATE,
      chat: withChat ? chatFigures(withChat) : null,
      show: {
        withoutChat: showSide(without),
        withChat: showSide(withChat),
        closeLatenessP99Ratio: latenessRatio,
        closeLatenessP99DeltaMs:
          withChat && without && withChat.show.closeLatenessMs.p99 !== null && without.show.closeLatenessMs.p99 !== null
            ? round(withChat.show.closeLatenessMs.p99 - without.show.closeLatenessMs.p99)
            : null,
        acceptedBidsRatio: bidsRatio,
      },
      consistency,
      targets,
      diagnostics: {
        withoutChat: without?.show.diagnostics ?? null,
        withChat: withChat ? { ...withChat.show.diagnostics, chat: withChat.chat.diagnostics } : null,
      },
    };
  });
}
