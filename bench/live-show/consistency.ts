/** What the database says after a show: every lot closed once and right, and the chat lines every viewer should have. */
import { sql } from 'drizzle-orm';
import { type Database, rows } from '../../src/server/db/connect.js';
import type { ChattersResult, ExpectedLine, ShowResult, ViewersResult } from './protocol.js';
import type { Seeded } from './seed.js';

export async function showConsistency(database: Database, seeded: Seeded, sessionId: string, show: ShowResult, view: ViewersResult) {
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
  const top = rows<{ auction_id: string; bidder_id: string; amount: number }>(
    await db.execute(sql`
      select distinct on (auction_id) auction_id, bidder_id, amount from bids
      where auction_id = any(${idList}::uuid[]) order by auction_id, amount desc, created_at, seq`),
  );
  const highest = new Map(top.map((t) => [t.auction_id, t]));
  const late = rows<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from bids b join auctions a on a.id = b.auction_id
      where b.auction_id = any(${idList}::uuid[]) and (b.created_at > a.end_time or b.created_at > a.closed_at)`),
  );
  const stored = rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from bids where auction_id = any(${idList}::uuid[])`));
  const acceptedByAuction = new Map<string, number>();
  for (const bid of show.accepted) acceptedByAuction.set(bid.auctionId, Math.max(acceptedByAuction.get(bid.auctionId) ?? 0, bid.amount));
  const checks = {
    lots: lots.length,
    everyLotFinished:
      lots.length === seeded.auctionIds.length && lots.every((l) => l.lot_status === 'finished' && l.status === 'ended' && l.closed_ms !== null),
    everyLotClosedOnce: lots.every((l) => closeCount.get(l.auction_id) === 1),
    winnerIsHighestBidder: lots.every((l) => {
      const best = highest.get(l.auction_id);
      return best ? l.winner === best.bidder_id && Number(l.price) === Number(best.amount) : l.winner === null;
    }),
    finalPriceIsHighestAccepted: lots.every((l) => (acceptedByAuction.get(l.auction_id) ?? null) === (l.price === null ? null : Number(l.price))),
    noBidAfterEnd: Number(late[0]?.n ?? 0) === 0,
    everyAcceptedBidStored: Number(stored[0]?.n ?? -1) === show.accepted.length,
    eachViewerGotEachLotOnce: view.missing === 0 && view.duplicates === 0,
    lotsSold: lots.filter((l) => l.winner !== null).length,
    soldSeenByViewers: view.soldSeen,
  };
  const ok = Object.values(checks).every((v) => v !== false) && checks.soldSeenByViewers === checks.lotsSold;
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
