import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { isUuid } from '../../../../domain/ids.js';
import {
  type LiveDirectory,
  type LiveSessionList,
  PICKER_LIMIT,
  type PickerAnswer,
  type PickerItem,
  parsePickerQuery,
  type TimerMode,
} from '../../../../domain/live.js';
import type { LotStatus } from '../../../../domain/live-public.js';
import { type Db, rows, type Tx } from '../../../db/connect.js';
import type { EngineState } from '../../../db/engine-rows.js';
import { auctions, liveLots, liveSessions } from '../../../db/schema.js';
import { canEditSession } from '../../../policies/live-sessions.js';
import { recordScope, type ScopedActor, scopeWhere } from '../../../policies/scope.js';
import { companyNames } from '../../../reads/companies.js';
import { onBlockHereSql } from '../../../reads/lot-runs.js';
import { storeLink, storeLinks } from '../../../reads/store-links.js';
import { autoAdvanceAtOf } from '../lots/queue.js';
import { sessionListWhere } from '../policies.js';
import { type LotRow, presentCard, presentPrivateSession, type SessionRow, type SessionView } from '../presenters.js';

/** The directory's limits: what is on now, and the next ones scheduled (those due in the last day included, late starts happen). */
const DIRECTORY_LIVE_MAX = 50;
const DIRECTORY_UPCOMING_MAX = 20;
/**
 * The panel's list has no pages (SPEC §2); a company runs a few shows a week. Past that many, the
 * list keeps the shows on now and the latest by date (every upcoming one, the most recent past ones).
 */
const LIST_MAX = 500;

// Qualified by hand: inside a select list drizzle writes bare column names.
const lotCountSql = sql<number>`(select count(*)::int from live_lots l where l.session_id = "live_sessions"."id")`;

async function sellerNames(db: Db | Tx, companyIds: string[]): Promise<Map<string, string>> {
  return companyNames(db, companyIds);
}

/** The lots of a session, in order, each with its auction's engine state (realtime/bid-presenter.ts builds what leaves). */
export async function readLots(db: Db | Tx, sessionId: string): Promise<LotRow[]> {
  const found = rows<{
    id: string;
    session_id: string;
    auction_id: string;
    order: number;
    status: LotStatus;
    created_at: string | Date;
    name: string;
    images: string[];
    thumbnail_url: string | null;
    timer_mode: TimerMode | null;
    counter_bid_window_seconds: number | null;
    counter_bid_reset_seconds: number | null;
    prebid_count: number | string;
    offered: boolean;
    state: EngineState;
  }>(
    await db.execute(sql`
      select l.id, l.session_id, l.auction_id, l."order", l.status, l.created_at, a.name, a.images,
             (select u.thumbnail_url from uploads u where u.url = a.images[1] limit 1) as thumbnail_url,
             l.timer_mode, l.counter_bid_window_seconds, l.counter_bid_reset_seconds,
             (select count(*) from prebids p where p.auction_id = a.id and p.entered_at is null) as prebid_count,
             ${onBlockHereSql({ id: sql`l.id`, sessionId: sql`l.session_id`, auctionId: sql`l.auction_id` })} as offered,
             auction_bid_state(a, auction_bidding_config(a.id)) as state
      from live_lots l join auctions a on a.id = l.auction_id
      where l.session_id = ${sessionId}::uuid
      order by l."order"`),
  );
  return found.map((r) => ({
    id: r.id,
    sessionId: r.session_id,
    auctionId: r.auction_id,
    order: Number(r.order),
    status: r.status,
    createdAt: new Date(r.created_at).getTime(),
    name: r.name,
    images: r.images ?? [],
    thumbnailUrl: r.thumbnail_url,
    timerOverride: {
      timerMode: r.timer_mode,
      counterBidWindowSeconds: r.counter_bid_window_seconds === null ? null : Number(r.counter_bid_window_seconds),
      counterBidResetSeconds: r.counter_bid_reset_seconds === null ? null : Number(r.counter_bid_reset_seconds),
    },
    prebidCount: Number(r.prebid_count),
    offered: Boolean(r.offered),
    state: normalizeState(r.state),
  }));
}

/** jsonb numbers arrive as numbers, bigints as numbers too; endTime may be null. */
function normalizeState(s: EngineState): EngineState {
  return { ...s, endTime: s.endTime === null ? null : Number(s.endTime), serverNow: Number(s.serverNow) };
}

/** A session with its lots and seller name, or null when it does not exist. */
export async function readSessionView(db: Db | Tx, sessionId: string): Promise<SessionView | null> {
  if (!isUuid(sessionId)) return null;
  const [row] = await db.select().from(liveSessions).where(eq(liveSessions.id, sessionId.toLowerCase()));
  if (!row) return null;
  const [lots, names, autoAdvanceAt, store] = await Promise.all([
    readLots(db, row.id),
    sellerNames(db, [row.companyId]),
    autoAdvanceAtOf(db, row),
    storeLink(db, row.sellerId),
  ]);
  return { row, lots, sellerName: names.get(row.companyId) ?? row.companyId, autoAdvanceAt, store };
}

/** GET /api/live-sessions: SPEC §6's scope, by scheduledAt ascending, each with its lot count and whether the user may change it. */
export async function listSessions(db: Db, actor: ScopedActor): Promise<LiveSessionList> {
  const found = await db
    .select({ row: liveSessions, lotCount: lotCountSql })
    .from(liveSessions)
    .where(sessionListWhere(actor))
    .orderBy(sql`${liveSessions.status} in ('live', 'paused') desc`, desc(liveSessions.scheduledAt), desc(liveSessions.id))
    .limit(LIST_MAX);
  // Shown by date, oldest first (SPEC §6).
  found.sort((a, b) => a.row.scheduledAt.getTime() - b.row.scheduledAt.getTime() || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
  const [names, stores] = await Promise.all([
    sellerNames(
      db,
      found.map((f) => f.row.companyId),
    ),
    storeLinks(
      db,
      found.map((f) => f.row.sellerId),
    ),
  ]);
  return {
    sessions: found.map(({ row, lotCount }) => ({
      ...presentPrivateSession(row, names.get(row.companyId) ?? row.companyId, null, stores.get(row.sellerId) ?? null),
      lotCount: Number(lotCount),
      canEdit: canEditSession(actor, row),
    })),
  };
}

/** GET /api/live-sessions/public (/live alone): the shows on now (live or paused), then the next scheduled ones; never a rehearsal ('Ensayo'). */
export async function liveDirectory(db: Db): Promise<LiveDirectory> {
  const [live, upcoming] = await Promise.all([
    db
      .select({ row: liveSessions, lotCount: lotCountSql })
      .from(liveSessions)
      .where(and(inArray(liveSessions.status, ['live', 'paused']), eq(liveSessions.rehearsal, false)))
      .orderBy(asc(liveSessions.scheduledAt), asc(liveSessions.id))
      .limit(DIRECTORY_LIVE_MAX),
    db
      .select({ row: liveSessions, lotCount: lotCountSql })
      .from(liveSessions)
      .where(and(eq(liveSessions.status, 'scheduled'), eq(liveSessions.rehearsal, false), sql`${liveSessions.scheduledAt} >= now() - interval '1 day'`))
      .orderBy(asc(liveSessions.scheduledAt), asc(liveSessions.id))
      .limit(DIRECTORY_UPCOMING_MAX),
  ]);
  const names = await sellerNames(
    db,
    [...live, ...upcoming].map((f) => f.row.companyId),
  );
  const card = ({ row, lotCount }: { row: SessionRow; lotCount: number }) =>
    presentCard({ ...row, lotCount: Number(lotCount) }, names.get(row.companyId) ?? row.companyId);
  return { live: live.map(card), upcoming: upcoming.map(card), serverNow: Date.now() };
}

/**
 * GET /api/live-sessions/{id}/picker?q= (SPEC §5): the auctions the user may manage that are not
 * ended, paid or a lot of a session that has not ended (this one included). Under 2 characters all
 * of them, otherwise any of the name tokens, or the auction's id; deduplicated, at most 20. The
 * seller's pending auctions come first (they wait for a show: a lot runs on the show's clock), then
 * those already running online on their own end time, newest first in each; each item says how many
 * bids it has, so the picker can warn before adding one that runs with bids.
 */
export async function pickAuctions(db: Db, opts: { actor: ScopedActor; sessionId: string; q: string | undefined }): Promise<PickerAnswer> {
  const query = parsePickerQuery(opts.q);
  const open = sql`${auctions.status} in ('pending', 'active', 'live')
    and (${auctions.endTime} is null or ${auctions.status} = 'pending' or ${auctions.endTime} > now())
    and not ${auctions.isPaid} and ${auctions.currentWinnerId} is null
    and not exists (select 1 from ${liveLots} l join ${liveSessions} s on s.id = l.session_id
                    where l.auction_id = ${auctions.id} and (s.status <> 'ended' or s.id = ${opts.sessionId}::uuid))`;
  let match = sql`true`;
  if (query.kind === 'search') {
    const byTokens = query.tokens.length
      ? sql`${auctions.nameTokens} && ${sql`ARRAY[${sql.join(
          query.tokens.map((t) => sql`${t}`),
          sql`, `,
        )}]::text[]`}`
      : sql`false`;
    match = query.auctionId ? sql`(${byTokens} or ${auctions.id} = ${query.auctionId}::uuid)` : byTokens;
  }
  const found = await db
    .select({
      id: auctions.id,
      name: auctions.name,
      status: auctions.status,
      startingPrice: auctions.startingPrice,
      currentPrice: auctions.currentPrice,
      endTime: auctions.endTime,
      bidCount: auctions.bidCount,
      thumbnailUrl: sql<string | null>`coalesce((select u.thumbnail_url from uploads u where u.url = ${auctions.images}[1] limit 1), ${auctions.images}[1])`,
    })
    .from(auctions)
    .where(and(scopeWhere(recordScope(opts.actor), auctions), open, match))
    .orderBy(sql`(${auctions.status} = 'pending') desc`, sql`${auctions.createdAt} desc`, sql`${auctions.id} desc`)
    .limit(PICKER_LIMIT);
  const items: PickerItem[] = found.map((r) => ({
    id: r.id,
    name: r.name,
    thumbnailUrl: r.thumbnailUrl,
    status: r.status as PickerItem['status'],
    startingPrice: r.startingPrice,
    currentPrice: r.currentPrice,
    endTime: r.endTime ? r.endTime.getTime() : null,
    bidCount: r.bidCount,
  }));
  return { items };
}
