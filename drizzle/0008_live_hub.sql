ALTER TABLE "live_sessions" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "live_sessions_status_scheduled_idx" ON "live_sessions" USING btree ("status","scheduled_at");--> statement-breakpoint
-- Hand-written below: drizzle-kit does not generate functions or triggers. The function's own file
-- (src/server/db/functions/live-lots-finish.sql) takes over from here.
CREATE FUNCTION "live_lots_finish"() RETURNS trigger LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
-- A lot finishes in the transaction that closes its auction (issue 12 item 3).
CREATE TRIGGER "auctions_finish_lots" AFTER UPDATE OF "closed_at" ON "auctions"
  FOR EACH ROW WHEN (OLD."closed_at" IS NULL AND NEW."closed_at" IS NOT NULL) EXECUTE FUNCTION "live_lots_finish"();
