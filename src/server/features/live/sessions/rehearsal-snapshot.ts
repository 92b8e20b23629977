import { sql } from 'drizzle-orm';
import { type Db, rows, type Tx } from '../../../db/connect.js';
import { refreshAuctionSearchText } from '../../../reads/search-text.js';
import type { DomainEvent } from '../../../realtime/publisher.js';
import { auctionUpdated } from '../../auctions/index.js';

/**
 * 'Ensayo': a rehearsal runs a real show (the same Hub, the same engine) on the seller's real
 * auctions, so it must leave them exactly as it found them. Before a rehearsal first changes an
 * auction (when it becomes one of its lots, at the latest when its lot opens) the auction's row,
 * the statuses of every lot holding it, its pre-bids and its bid keys are copied into
 * rehearsal_snapshots, as the database wrote them (timestamps to the microsecond). When the
 * rehearsal ends, is deleted or lets the lot go, each copy is put back and deleted in one
 * transaction: the copy is locked first and deleted with the restore, so each auction is restored
 * exactly once, however many instances or paths try (a second one finds the copy gone). While a copy exists the auction is "in rehearsal": it cannot be
 * billed and no winners summary or count shows it (reads/real-sale.ts).
 */

/** The auction columns a show changes, as the snapshot keeps them (jsonb keys are the column names). */
const AUCTION_FIELDS = [
  'status',
  'end_time',
  'closed_at',
  'current_price',
  'bid_count',
  'leader_id',
  'leader_max',
  'current_winner_id',
  'current_winner_name',
  'winner_email',
  'winner_whatsapp',
  'version',
  'updated_at',
] as const;

/**
 * Copies the auction as it stands into the rehearsal's snapshots, unless a copy is already there
 * (the first copy is the state before the rehearsal). Call it inside the transaction that is about
 * to change the auction, with the auction row locked. A session that is not a rehearsal is left alone.
 */
export async function takeRehearsalSnapshot(tx: Tx, opts: { sessionId: string; auctionId: string }): Promise<void> {
  const fields = sql.join(
    AUCTION_FIELDS.map((f) => sql`${f}::text, a.${sql.identifier(f)}`),
    sql`, `,
  );
  await tx.execute(sql`
    insert into rehearsal_snapshots (session_id, auction_id, snapshot)
    select s.id, a.id, jsonb_build_object(
      'auction', jsonb_build_object(${fields}),
      -- The last line written before: withdrawn lines keep their numbers, so bid_count may be lower (withdraw-bids.sql).
      'maxSeq', (select coalesce(max(b.seq), 0) from bids b where b.auction_id = a.id),
      'lots', coalesce((select jsonb_agg(jsonb_build_object('id', l.id, 'status', l.status)) from live_lots l where l.auction_id = a.id), '[]'::jsonb),
      'prebids', coalesce((select jsonb_agg(to_jsonb(p)) from prebids p where p.auction_id = a.id), '[]'::jsonb),
      'bidKeys', coalesce((select jsonb_agg(jsonb_build_object('bidder_id', k.bidder_id, 'idempotency_key', k.idempotency_key))
                           from bid_keys k where k.auction_id = a.id), '[]'::jsonb))
    from auctions a, live_sessions s
    where a.id = ${opts.auctionId}::uuid and s.id = ${opts.sessionId}::uuid and s.rehearsal
    on conflict (session_id, auction_id) do nothing`);
}

/** What a restore changed: the auctions put back (for their viewers and panels), and the sessions holding them. */
export interface Restored {
  auctionIds: string[];
  events: DomainEvent[];
}

/**
 * Puts back every auction the rehearsal copied (all of them, or the one given), inside the
 * caller's transaction. The caller has locked those auctions' rows first (the Live Hub's lock
 * order) or calls restoreRehearsal, which does. Each auction: the bids, bid keys and pre-bids the
 * rehearsal added are deleted, the row's fields come back with its version above both the copy's
 * and the current one (so caches refresh), the lots holding it get their statuses back, and its
 * search text is rebuilt (a winner's name was searchable).
 */
export async function restoreRehearsalTx(tx: Tx, opts: { sessionId: string; auctionId?: string }): Promise<Restored> {
  const claimed = rows<{ auction_id: string; snapshot: { auction: Record<string, unknown> } }>(
    await tx.execute(sql`
      select auction_id, snapshot from rehearsal_snapshots
      where session_id = ${opts.sessionId}::uuid ${opts.auctionId ? sql`and auction_id = ${opts.auctionId}::uuid` : sql``}
      order by auction_id for update`),
  );
  const events: DomainEvent[] = [];
  for (const { auction_id: id } of claimed) {
    const snap = JSON.stringify(claimed.find((c) => c.auction_id === id)?.snapshot);
    // The auction first (every writer's first lock), then the sessions holding it, as the close does.
    await tx.execute(sql`select 1 from auctions where id = ${id}::uuid for no key update`);
    // The lines the rehearsal wrote go, and those it withdrew (a blocked bidder's, at the close) stand again.
    await tx.execute(sql`
      with s as (select ${snap}::jsonb as j)
      delete from bids where auction_id = ${id}::uuid
        and seq > (select coalesce((j ->> 'maxSeq')::integer, (j -> 'auction' ->> 'bid_count')::integer) from s)`);
    await tx.execute(sql`
      update bids set withdrawn_at = null where auction_id = ${id}::uuid and withdrawn_at is not null
        and withdrawn_at >= (select created_at from rehearsal_snapshots where session_id = ${opts.sessionId}::uuid and auction_id = ${id}::uuid)`);
    await tx.execute(sql`
      delete from bid_keys k where k.auction_id = ${id}::uuid
        and not exists (select 1 from jsonb_to_recordset(${snap}::jsonb -> 'bidKeys') as x(bidder_id uuid, idempotency_key text)
                        where x.bidder_id = k.bidder_id and x.idempotency_key = k.idempotency_key)`);
    await tx.execute(sql`delete from prebids where auction_id = ${id}::uuid`);
    await tx.execute(sql`
      insert into prebids select * from jsonb_populate_recordset(null::prebids, ${snap}::jsonb -> 'prebids')`);
    const [row] = rows<{ id: string; company_id: string; version: number }>(
      await tx.execute(sql`
        with s as (select ${snap}::jsonb -> 'auction' as a)
        update auctions set
          status = s.a ->> 'status',
          end_time = (s.a ->> 'end_time')::timestamptz,
          closed_at = (s.a ->> 'closed_at')::timestamptz,
          current_price = (s.a ->> 'current_price')::integer,
          bid_count = (s.a ->> 'bid_count')::integer,
          leader_id = (s.a ->> 'leader_id')::uuid,
          leader_max = (s.a ->> 'leader_max')::integer,
          current_winner_id = (s.a ->> 'current_winner_id')::uuid,
          current_winner_name = s.a ->> 'current_winner_name',
          winner_email = s.a ->> 'winner_email',
          winner_whatsapp = s.a ->> 'winner_whatsapp',
          version = greatest(auctions.version, (s.a ->> 'version')::integer) + 1,
          updated_at = now()
        from s where auctions.id = ${id}::uuid
        returning auctions.id, auctions.company_id, auctions.version`),
    );
    // Restoring a closed_at finishes queued lots (live-lots-finish.sql): the lots' own statuses come back after it.
    await tx.execute(sql`
      select 1 from live_sessions where id in (select session_id from live_lots where auction_id = ${id}::uuid) order by id for update`);
    await tx.execute(sql`
      update live_lots l set status = x.status
      from jsonb_to_recordset(${snap}::jsonb -> 'lots') as x(id uuid, status text)
      where l.id = x.id and l.status is distinct from x.status`);
    await tx.execute(sql`
      update live_sessions set version = version + 1, updated_at = now()
      where id in (select session_id from live_lots where auction_id = ${id}::uuid)`);
    if (row) events.push(auctionUpdated({ id: row.id, companyId: row.company_id, version: Number(row.version) }));
  }
  const auctionIds = claimed.map((c) => c.auction_id);
  if (auctionIds.length === 0) return { auctionIds, events };
  // Deleted last: while the copy exists the counts' trigger reads the auction as the rehearsal's (auctions-track-counts.sql).
  await tx.execute(sql`
    delete from rehearsal_snapshots where session_id = ${opts.sessionId}::uuid
      and auction_id in (${sql.join(
        auctionIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
  await refreshAuctionSearchText(tx, { auctionIds });
  return { auctionIds, events };
}

/**
 * Restores a rehearsal that ended (or any rehearsal's leftover copies) in its own transaction:
 * the copied auctions are locked first, in id order, then restored. Answers what changed; a second
 * call finds nothing to do.
 */
export async function restoreRehearsal(db: Db, sessionId: string): Promise<Restored> {
  return db.transaction(async (tx) => {
    const ids = rows<{ auction_id: string }>(
      await tx.execute(sql`select auction_id from rehearsal_snapshots where session_id = ${sessionId}::uuid order by auction_id`),
    ).map((r) => r.auction_id);
    if (ids.length === 0) return { auctionIds: [], events: [] };
    await tx.execute(
      sql`select 1 from auctions where id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) order by id for no key update`,
    );
    return restoreRehearsalTx(tx, { sessionId });
  });
}
