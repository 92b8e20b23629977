-- When an auction closes (closed_at set: the scheduler's close_due_auctions or a buy-now), its
-- queued lots leave the queue in the same transaction, so exactly once and across a crash, and
-- the sessions holding them get a new version. A lot that was on the block (a live_lot_runs row:
-- the timer, 'Siguiente lote', auto-advance, a quick auction or the current lot on its own clock)
-- is finished: it sold or did not in the show. A lot that never was is passed: its auction closed
-- outside the show (its own end came first, or it was bought on its own page), so it is no result
-- of the show, and the seller may still run it if it did not sell. Created by drizzle/0008 with
-- the auctions_finish_lots trigger, which runs it. Locks in the order every Live Hub change takes
-- (src/server/features/live): the auction (held by the closer), then its sessions by id, then the lots.
CREATE OR REPLACE FUNCTION "live_lots_finish"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "live_sessions"
    WHERE "id" IN (SELECT "session_id" FROM "live_lots" WHERE "auction_id" = NEW."id" AND "status" = 'queued')
    ORDER BY "id" FOR UPDATE;
  UPDATE "live_sessions" SET "version" = "version" + 1, "updated_at" = now()
    WHERE "id" IN (SELECT "session_id" FROM "live_lots" WHERE "auction_id" = NEW."id" AND "status" = 'queued');
  UPDATE "live_lots" l
     SET "status" = CASE WHEN EXISTS (SELECT 1 FROM "live_lot_runs" r WHERE r."session_id" = l."session_id" AND r."lot_id" = l."id")
                         THEN 'finished' ELSE 'passed' END
   WHERE l."auction_id" = NEW."id" AND l."status" = 'queued';
  RETURN NULL;
END
$$;
