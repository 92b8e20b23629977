/** What the database says after a show: every lot closed once and right, and the chat lines every viewer should have. */
import { sql } from 'drizzle-orm';
import type { TimerMode } from '../../src/domain/bid-rules.js';
import { type Database, rows } from '../../src/server/db/connect.js';
import type { ChattersResult, ExpectedLine, ShowResult, ViewersResult } from './protocol.js';
import type { Seeded } from './seed.js';

/** The show's format, for the checks that depend on it. */
export interface ShowFormat {
  timerMode: TimerMode;
  /** W: Extender's or Contrapuja's window (0 under sudden death). */
  windowS: number;
  /** Where a leading bid inside the window sets the clock (R; W under Extender). */
  resetS: number;
  /** Rows written into `prebids` before the show. */
  prebidsPlaced: number;
}

/**
 * Every lot closed once and right. The winner is the bidder of the highest maximum stored (the
 * earliest on a tie), which is the highest bid when nobody left a maximum; pre-bids count once the
 * lot's opening has entered them into the engine (their lines carry their maximums), and pre-bids
 * not entered (the entry is not built, or the lot never opened) change nothing. No bid is stored
 * after its lot's end; the clock moved only as the format allows.
 */
export async function showConsistency(database: Database, seeded: Seeded, sessionId: string, show: ShowResult, view: ViewersResult, format: ShowFormat) {
  const db = database.db;
  /** A PostgreSQL array literal: drizzle would spread a JS array into a row. */
  const idList = `{${seeded.auctionIds.join(',')}}`;
  const lots = rows<{
    lot_id: string;
    auction_id: string;
    lot_status: string;
    status: string;
    end_ms: number;
    closed_ms: number | null;
    winner: string | null;
    price: number | null;
    bid_count: number;
  }>(
    await db.execute(sql`
      select l.id as lot_id, a.id as auction_id, l.status as lot_status, a.status,
        (extract(epoch from a.end_time) * 1000)::float8 as end_ms, (extract(epoch from a.closed_at) * 1000)::float8 as closed_ms,
        a.current_winner_id as winner, a.current_price as price, a.bid_count
      from live_lots l join auctions a on a.id = l.auction_id where l.session_id = ${sessionId}::uuid`),
  );
  const closes = rows<{ entity_id: string; n: number }>(
    await db.execute(sql`select entity_id, count(*)::int as n from audit_log where action = 'auction.closed' and entity_type = 'auction' group by entity_id`),
  );
  const closeCount = new Map(closes.map((c) => [c.entity_id, Number(c.n)]));
  // The highest maximum (a line without one stands for its amount), the earliest line on a tie.
  const top = rows<{ auction_id: string; bidder_id: string; top_max: number }>(
    await db.execute(sql`
      select distinct on (auction_id) auction_id, bidder_id, coalesce(max_amount, amount) as top_max from bids
      where auction_id = any(${idList}::uuid[]) order by auction_id, coalesce(max_amount, amount) desc, seq`),
  );
  const highestMax = new Map(top.map((t) => [t.auction_id, t]));
  const perAuction = rows<{ auction_id: string; top_amount: number; last_ms: number; lines: number }>(
    await db.execute(sql`
      select auction_id, max(amount) as top_amount, (extract(epoch from max(created_at)) * 1000)::float8 as last_ms, count(*)::int as lines
      from bids where auction_id = any(${idList}::uuid[]) group by auction_id`),
  );
  const linesOf = new Map(perAuction.map((r) => [r.auction_id, r]));
  const late = rows<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from bids b join auctions a on a.id = b.auction_id
      where b.auction_id = any(${idList}::uuid[]) and (b.created_at > a.end_time or b.created_at > a.closed_at)`),
  );
  const storedRows = rows<{ auction_id: string; seq: number; amount: number }>(
    await db.execute(sql`select auction_id, seq, amount from bids where auction_id = any(${idList}::uuid[])`),
  );
  const stored = new Map(storedRows.map((r) => [`${r.auction_id}:${Number(r.seq)}`, Number(r.amount)]));
  const prebidRows = rows<{ placed: number; entered: number }>(
    await db.execute(sql`
      select count(*)::int as placed, count(entered_at)::int as entered from prebids where auction_id = any(${idList}::uuid[])`),
  );
  const prebidsEntered = Number(prebidRows[0]?.entered ?? 0);
  const acceptedByAuction = new Map<string, number>();
  for (const bid of show.accepted) acceptedByAuction.set(bid.auctionId, Math.max(acceptedByAuction.get(bid.auctionId) ?? 0, bid.amount));
  const firstEnd = new Map(show.lots.map((l) => [l.auctionId, l]));
  const moved = lots.filter((l) => {
    const opened = firstEnd.get(l.auction_id);
    return opened !== undefined && Number(l.end_ms) !== opened.firstEndMs;
  });

  const checks = {
    lots: lots.length,
    everyLotFinished:
      lots.length === seeded.auctionIds.length && lots.every((l) => l.lot_status === 'finished' && l.status === 'ended' && l.closed_ms !== null),
    everyLotClosedOnce: lots.every((l) => closeCount.get(l.auction_id) === 1),
    winnerIsHighestMaximum: lots.every((l) => {
      const best = highestMax.get(l.auction_id);
      return best ? l.winner === best.bidder_id : l.winner === null;
    }),
    priceIsHighestLine: lots.every((l) => (linesOf.get(l.auction_id)?.top_amount ?? null) === (l.price === null ? null : Number(l.price))),
    // With pre-bids in the engine the price may come from a maximum's line no bidder of the show was answered.
    finalPriceIsHighestAccepted: lots.every((l) => {
      const accepted = acceptedByAuction.get(l.auction_id) ?? null;
      const price = l.price === null ? null : Number(l.price);
      return prebidsEntered > 0 ? (accepted ?? 0) <= (price ?? 0) : accepted === price;
    }),
    noBidAfterEnd: Number(late[0]?.n ?? 0) === 0,
    everyAcceptedBidStored: show.accepted.every((a) => stored.get(`${a.auctionId}:${a.seq}`) === a.amount),
    nothingStoredUnanswered: prebidsEntered > 0 || storedRows.length === show.accepted.length,
    eachViewerGotEachLotOnce: view.missing === 0 && view.duplicates === 0,
    lotsSold: lots.filter((l) => l.winner !== null).length,
    soldSeenByViewers: view.soldSeen,
    prebids: {
      placed: Number(prebidRows[0]?.placed ?? 0),
      entered: prebidsEntered,
      // Each lot opens once, so either the opening entered every lot's pre-bids or (not built yet) none.
      enteredAllOrNone: prebidsEntered === 0 || prebidsEntered === format.prebidsPlaced,
    },
    clock: {
      timerMode: format.timerMode,
      lateLots: show.lots.filter((l) => l.late).length,
      lotsWhoseEndMoved: moved.length,
      // Sudden death: no lot's end ever moved.
      neverMovedUnderSuddenDeath: format.timerMode !== 'suddenDeath' || moved.length === 0,
      // A moved end was set by the last leading bid: at least R (W under Extender) after it (1 ms
      // for the end kept to the millisecond). Every bid of the show leads unless pre-bids' maximums answer.
      movedEndFollowsLastBid:
        prebidsEntered > 0 ||
        moved.every((l) => {
          const last = linesOf.get(l.auction_id)?.last_ms;
          return last !== undefined && Number(l.end_ms) >= Math.floor(Number(last)) + format.resetS * 1000 - 1;
        }),
      endAfterLastBidMs: moved.map((l) => Math.round(Number(l.end_ms) - Number(linesOf.get(l.auction_id)?.last_ms ?? 0))).sort((a, b) => a - b),
    },
  };
  const ok =
    Object.values(checks).every((v) => v !== false) &&
    checks.soldSeenByViewers === checks.lotsSold &&
    checks.prebids.enteredAllOrNone &&
    checks.clock.neverMovedUnderSuddenDeath &&
    checks.clock.movedEndFollowsLastBid;
  return { ok, ...checks };
}

interface StoredLine {
  id: string;
  seq: number;
  kind: string;
  onlyAuthor: boolean;
  deleted: boolean;
  createdAt: number;
}

/** The session's chat lines as stored, ascending seq. */
export async function storedChat(database: Database, sessionId: string): Promise<StoredLine[]> {
  const found = rows<{ id: string; seq: string | number; kind: string; only_author: boolean; deleted: boolean; created_ms: number }>(
    await database.db.execute(sql`
      select id, seq, kind, only_author, deleted_at is not null as deleted, (extract(epoch from created_at) * 1000)::float8 as created_ms
      from chat_messages where session_id = ${sessionId}::uuid order by seq`),
  );
  return found.map((r) => ({
    id: r.id,
    seq: Number(r.seq),
    kind: r.kind,
    onlyAuthor: Boolean(r.only_author),
    deleted: Boolean(r.deleted),
    createdAt: Number(r.created_ms),
  }));
}

/** The lines every viewer should have received: for everyone, not deleted; a user line carries its POST's answer time. */
export function expectedChat(stored: StoredLine[], chatters: ChattersResult | null): ExpectedLine[] {
  const answered = new Map((chatters?.accepted ?? []).map((a) => [a.seq, a]));
  return stored
    .filter((l) => !l.onlyAuthor && !l.deleted)
    .map((l) => {
      const answer = answered.get(l.seq);
      return { seq: l.seq, user: l.kind === 'user', createdAt: l.createdAt, sentAt: answer?.sentAt ?? null, acceptedAt: answer?.acceptedAt ?? null };
    });
}

/** Every answered line is stored as answered, nothing else was written by the chatters, and every viewer got every line once, in order. */
export function chatConsistency(stored: StoredLine[], chatters: ChattersResult | null, view: ViewersResult) {
  const byId = new Map(stored.map((l) => [l.id, l]));
  const accepted = chatters?.accepted ?? [];
  const userLines = stored.filter((l) => l.kind === 'user');
  const checks = {
    userLines: userLines.length,
    systemLines: stored.filter((l) => l.kind === 'system').length,
    /** With chatters, at least one line went through (a run where every line was refused measures nothing). */
    chattersWrote: chatters === null || accepted.length > 0,
    everyAcceptedLineStored: accepted.every((a) => byId.get(a.id)?.seq === a.seq),
    nothingStoredUnanswered: userLines.length === accepted.length,
    lost: view.chat.lost,
    duplicated: view.chat.duplicated,
    outOfOrder: view.chat.outOfOrder,
    unexpected: view.chat.unexpected,
    viewersAffected: view.chat.viewersAffected,
  };
  const ok =
    checks.chattersWrote &&
    checks.everyAcceptedLineStored &&
    checks.nothingStoredUnanswered &&
    checks.lost === 0 &&
    checks.duplicated === 0 &&
    checks.outOfOrder === 0 &&
    checks.unexpected === 0;
  return { ok, ...checks };
}
