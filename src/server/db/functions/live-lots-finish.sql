-- When an auction closes (closed_at set: the scheduler's close_due_auctions or a buy-now), its
-- queued lots become finished in the same transaction, so exactly once and across a crash, and
-- the sessions holding them get a new version. Created by drizzle/0008 with the
-- auctions_finish_lots trigger, which runs it. Locks in the order every Live Hub change takes
-- (src/server/features/live): the auction (held by the closer), then its sessions by id, then the lots.
CREATE OR REPLACE FUNCTION "live_lots_finish"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "live_sessions"
    WHERE "id" IN (SELECT "session_id" FROM "live_lots" WHERE "auction_id" = NEW."id" AND "status" = 'queued')
    ORDER BY "id" FOR UPDATE;
  UPDATE "live_sessions" SET "version" = "version" + 1, "updated_at" = now()
    WHERE "id" IN (SELECT "session_id" FROM "live_lots" WHERE "auction_id" = NEW."id" AND "status" = 'queued');
  UPDATE "live_lots" SET "status" = 'finished' WHERE "auction_id" = NEW."id" AND "status" = 'queued';
  RETURN NULL;
END
$$;
