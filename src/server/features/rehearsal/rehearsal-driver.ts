import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { nextMinimumBid } from '../../../domain/bid-rules.js';
import { answerEvents, callPlaceBid } from '../../bidding/engine.js';
import { type Db, rows } from '../../db/connect.js';
import type { EngineState } from '../../db/engine-rows.js';
import { type PassLoop, startPassLoop } from '../../pass-loop.js';
import { refreshAuctionSearchText } from '../../reads/search-text.js';
import type { BidPresenter } from '../../realtime/bid-presenter.js';
import type { DomainEvent, DomainEventOf } from '../../realtime/publisher.js';
import { readSessionView, restoreRehearsal, sessionChanged } from '../live/index.js';
import { ensureSimulatedBidders, type SimulatedBidder } from './rehearsal-bidders.js';

/**
 * The server's side of a rehearsal ('Ensayo'): simulated bidders bid on its open lots, simulated
 * viewers join its count, and a rehearsal that ended is put back (live/sessions/rehearsal-snapshot.ts)
 * if nobody did yet (an instance that stopped between the end and the restore). The model is
 * deliberately simple: each simulated bidder has a maximum around the lot's starting price (0.8x
 * to 2.5x, fixed per bidder and auction, so every instance and every tick agree), and on each tick
 * an open lot takes, with some chance, one bid from a bidder who is not leading and whose maximum
 * is above the next minimum, through the real engine (place_bid), with the events a person's bid
 * publishes.
 *
 * Every instance ticks, but a session is driven by one at a time: its bid is decided inside a
 * transaction holding the session's advisory lock (try, never wait), and a lot takes no simulated
 * bid sooner than `minGapMs` after its last bid, read under that lock, so two instances ticking
 * together bid no more often than one.
 */

/** pg_try_advisory_xact_lock's first key: the rehearsal drivers' own class. */
const LOCK_CLASS = 7_301_924;
const MIN_FACTOR = 0.8;
const MAX_FACTOR = 2.5;

export interface RehearsalDriverDeps {
  db: Db;
  present: BidPresenter;
  publish: (events: DomainEvent[]) => Promise<void>;
  /** Where the simulated viewers are counted (realtime); none in a test that does not look. */
  viewers?: { setSimulatedViewers(sessionId: string, count: number | null): void };
  /** Uniform in [0, 1): whether a lot takes a bid this tick and from whom. Tests pass their own. */
  random?: () => number;
  /** The chance an open lot takes a simulated bid on one tick. */
  bidChance?: number;
  /** No simulated bid on a lot sooner than this after its last bid. */
  minGapMs?: number;
}

export interface TickResult {
  /** The simulated bids the engine took this tick. */
  bids: number;
  /** Rehearsals found ended and put back. */
  restored: string[];
}

/** A number in [0, 1) fixed by the text: the same on every instance and every tick. */
export function unitHash(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** A simulated bidder's maximum on an auction: 0.8x to 2.5x its starting price, in whole pesos. */
export function simulatedMaximum(auction: { id: string; startingPrice: number }, bidderId: string): number {
  const base = Math.max(auction.startingPrice, 50);
  return Math.max(1, Math.round(base * (MIN_FACTOR + (MAX_FACTOR - MIN_FACTOR) * unitHash(`${auction.id}:${bidderId}`))));
}

/** How many simulated viewers a rehearsal shows: a steady number between 8 and 37, fixed per session. */
export const simulatedViewers = (sessionId: string) => 8 + Math.floor(unitHash(`viewers:${sessionId}`) * 30);

export function createRehearsalDriver(deps: RehearsalDriverDeps) {
  const random = deps.random ?? Math.random;
  const bidChance = deps.bidChance ?? 0.4;
  const minGapMs = deps.minGapMs ?? 1500;
  /** Sessions whose simulated viewers this driver set, to take them away when the show stops. */
  const watched = new Set<string>();
  let bidders: SimulatedBidder[] | null = null;

  async function restoreEnded(): Promise<string[]> {
    const ended = rows<{ id: string }>(
      await deps.db.execute(sql`select distinct s.id from live_sessions s join rehearsal_snapshots r on r.session_id = s.id
                                where s.rehearsal and s.status = 'ended'`),
    ).map((r) => r.id);
    for (const id of ended) await restoreAndTell(deps, id);
    return ended;
  }

  /** One simulated bid on the lot, or none: decided under the session's lock. */
  async function bidOn(lot: { sessionId: string; auctionId: string }): Promise<boolean> {
    bidders ??= await ensureSimulatedBidders(deps.db);
    const all = bidders;
    const answer = await deps.db.transaction(async (tx) => {
      const [lock] = rows<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${LOCK_CLASS}, hashtext(${lot.sessionId})) as ok`));
      if (!lock?.ok) return null;
      const [row] = rows<{ s: EngineState; quiet: boolean }>(
        await tx.execute(sql`
          select auction_bid_state(a, auction_bidding_config(a.id)) as s,
                 coalesce((select max(b.created_at) from bids b where b.auction_id = a.id) < clock_timestamp() - make_interval(secs => ${minGapMs / 1000}), true) as quiet
          from auctions a where a.id = ${lot.auctionId}::uuid`),
      );
      if (!row?.quiet) return null;
      const state = row.s;
      const minimum = Math.max(
        1,
        nextMinimumBid({
          currentPrice: state.currentPrice,
          startingPrice: state.startingPrice,
          minIncrement: state.minIncrement,
          incrementBands: state.incrementBands,
        }),
      );
      const able = all.filter((b) => b.id !== state.leaderId && simulatedMaximum({ id: state.id, startingPrice: state.startingPrice }, b.id) >= minimum);
      const bidder = able[Math.min(able.length - 1, Math.floor(random() * able.length))];
      if (!bidder) return null;
      const max = simulatedMaximum({ id: state.id, startingPrice: state.startingPrice }, bidder.id);
      const placed = await callPlaceBid(tx, { auctionId: state.id, bidderId: bidder.id, amount: minimum, maxAmount: max, key: null });
      return { answer: placed ?? null, bidderId: bidder.id };
    });
    const placed = answer?.answer;
    if (!answer || !placed || placed.error || !placed.state || placed.replayed) return false;
    // What a person's bid publishes (bidding/engine.ts): the room hears the bid, the overtaken leader is told.
    const state = { ...placed.state, serverNow: Date.now() };
    if (state.status === 'ended') await refreshAuctionSearchText(deps.db, { auctionIds: [state.id] });
    await deps.publish(answerEvents(placed, state, answer.bidderId));
    return true;
  }

  async function tick(): Promise<TickResult> {
    const restored = await restoreEnded();
    const open = rows<{ session_id: string; auction_id: string | null }>(
      await deps.db.execute(sql`
        select s.id as session_id, a.id as auction_id
        from live_sessions s
        left join live_lots l on l.session_id = s.id
        left join auctions a on a.id = l.auction_id and a.status in ('active', 'live') and a.end_time > clock_timestamp()
        where s.rehearsal and s.status in ('live', 'paused')
        order by s.id, a.id`),
    );
    const live = new Set(open.map((r) => r.session_id));
    for (const id of live) {
      if (!watched.has(id)) deps.viewers?.setSimulatedViewers(id, simulatedViewers(id));
      watched.add(id);
    }
    for (const id of [...watched]) {
      if (live.has(id)) continue;
      deps.viewers?.setSimulatedViewers(id, null);
      watched.delete(id);
    }
    let bids = 0;
    for (const r of open) {
      if (!r.auction_id || random() >= bidChance) continue;
      if (await bidOn({ sessionId: r.session_id, auctionId: r.auction_id })) bids++;
    }
    return { bids, restored };
  }

  return {
    tick,
    /** Takes the simulated viewers this driver set away, once its ticks have stopped. */
    release() {
      for (const id of watched) deps.viewers?.setSimulatedViewers(id, null);
      watched.clear();
    },
  };
}
export type RehearsalDriver = ReturnType<typeof createRehearsalDriver>;

/** Puts a rehearsal back and tells its auctions' viewers and its room; nothing when it was already done. */
export async function restoreAndTell(deps: Pick<RehearsalDriverDeps, 'db' | 'present' | 'publish'>, sessionId: string): Promise<string[]> {
  const restored = await restoreRehearsal(deps.db, sessionId);
  if (restored.auctionIds.length === 0) return [];
  const view = await readSessionView(deps.db, sessionId);
  await deps.publish([...restored.events, ...(view ? [sessionChanged(view, deps.present, { statusChanged: false })] : [])]);
  return restored.auctionIds;
}

/** How often the rehearsal driver looks at the open rehearsals' lots. */
export const REHEARSAL_TICK_MS = 1000;

/** The driver as a background job of the app: a tick every second on every instance. */
export function startRehearsalDriver(deps: RehearsalDriverDeps & { log: { error(obj: { err: unknown }, msg: string): void } }): PassLoop {
  const driver = createRehearsalDriver(deps);
  const loop = startPassLoop({
    name: 'rehearsal driver',
    log: deps.log,
    retryMs: REHEARSAL_TICK_MS,
    firstDelayMs: REHEARSAL_TICK_MS,
    unref: true,
    async pass() {
      await driver.tick();
      return REHEARSAL_TICK_MS;
    },
  });
  return {
    async stop() {
      await loop.stop();
      driver.release();
    },
    status: () => loop.status(),
  };
}

/** A rehearsal that ended on this instance is put back at once, after its end is published (the driver's tick puts back any an instance missed). */
export async function restoreEndedRehearsal(
  deps: Pick<RehearsalDriverDeps, 'db' | 'present' | 'publish'>,
  event: DomainEventOf<'sessionChanged'>,
): Promise<void> {
  const { session } = event.state;
  if (session.rehearsal && session.status === 'ended') await restoreAndTell(deps, session.id);
}
