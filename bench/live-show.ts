/**
 * A live show: one live session with V Socket.IO viewers in its room and L lots run back
 * to back on short timers (TIMER seconds, 5 by default), with B bidders bidding on each lot until
 * its end. The seller's side goes through the real API: 'Establecer actual', then the timer; the
 * server's closing scheduler closes each lot. Reports, per engine:
 * - closeLatenessMs: how late each lot closed after its end time (closed_at − end_time, both on
 *   the database's clock; p50, p99, max);
 * - soldDeliveryMs: from the close (closed_at, written just before its commit) to the lot's
 *   `lotFinished` event at every viewer (per lot, the latest viewer; p50, p99, max);
 * - consistency: every lot closed exactly once (one close in the audit log, one `lotFinished` per
 *   viewer, lot status finished), its winner holds the highest valid maximum, no bid was stored
 *   after its auction's end, and the clock moved only as the show's format allows.
 * - mode: the format the run is for. TIMER_MODE=counterBid runs a Contrapuja show (W =
 *   COUNTER_BID_WINDOW, R = COUNTER_BID_RESET, 10 and 10): on LATE_LOTS of the lots (0.8) the
 *   bidders keep bidding into the last W seconds and LATE_EXTRA seconds (2) past the lot's first
 *   end, so each lot closes R seconds after its last leading bid; on the others they stop before
 *   the window. PREBIDS=n leaves n pre-bids ('Puja anticipada') on every lot before the show; the
 *   lot's opening enters them into the engine, and the checks hold whether it does or not.
 * Targets: lateness p99 under 250 ms, delivery p99 under 100 ms.
 *
 * The server runs in this process; the viewers and the show (seller + bidders) run in forked
 * child processes (bench/live-show/), so the load does not share the server's event loop. The same
 * show with chat is bench/live-chat.ts.
 *
 *   npm run bench:live-show
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:live-show
 *
 * Knobs: VIEWERS (1000), LOTS (50), TIMER seconds (5), BIDDERS concurrent bid loops (10), BID_GAP_MS
 * each loop's pause between bids (100), USERS bidder accounts (200), ANTI_SNIPE seconds of the session (0: sudden death, so a 5 s lot ends
 * after 5 s however hard it is bid), TIMER_MODE (none: ANTI_SNIPE decides; extend, counterBid, suddenDeath),
 * COUNTER_BID_WINDOW (10), COUNTER_BID_RESET (10), LATE_LOTS (0.8), LATE_EXTRA seconds (2), PREBIDS per lot (0),
 * VIEWER_CLIENT (socket.io, or raw), ENGINES (pglite,postgresql), DATABASE_URL.
 *
 *   TIMER_MODE=counterBid LOTS=10 npm run bench:live-show
 *   PREBIDS=5 npm run bench:live-show
 */

import { runLiveShow, type ShowKnobs, showKnobsFromEnv } from './live-show/run.js';
import { runOnEngines } from './support.js';

const TARGET_LATENESS_P99_MS = 250;
const TARGET_DELIVERY_P99_MS = 100;

if (import.meta.url === `file://${process.argv[1]}`) {
  const knobs: ShowKnobs = { ...showKnobsFromEnv(process.env, { viewerClient: 'socket.io' }), chatters: 0, chatRate: 0 };
  await runOnEngines('live-show', async (engine, databaseUrl) => {
    const { show } = await runLiveShow(engine, databaseUrl, knobs);
    const { consistency, diagnostics, ...measured } = show;
    const latenessP99 = show.closeLatenessMs.p99;
    const deliveryP99 = show.soldDeliveryMs.p99;
    return {
      ...measured,
      consistency,
      targets: {
        closeLatenessP99Max: TARGET_LATENESS_P99_MS,
        deliveryP99Max: TARGET_DELIVERY_P99_MS,
        met: latenessP99 !== null && latenessP99 < TARGET_LATENESS_P99_MS && deliveryP99 !== null && deliveryP99 < TARGET_DELIVERY_P99_MS && consistency.ok,
      },
      diagnostics,
    };
  });
}
