CREATE TABLE "auction_counts" (
	"company_id" text NOT NULL,
	"seller_id" uuid,
	"open" integer DEFAULT 0 NOT NULL,
	"won_unpaid" integer DEFAULT 0 NOT NULL,
	"paid" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "auction_counts_owner_key" UNIQUE NULLS NOT DISTINCT("company_id","seller_id")
);
--> statement-breakpoint
DROP INDEX "auctions_company_created_idx";--> statement-breakpoint
DROP INDEX "auctions_seller_created_idx";--> statement-breakpoint
DROP INDEX "auctions_created_idx";--> statement-breakpoint
DROP INDEX "auctions_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "is_paid" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "auction_counts_seller_idx" ON "auction_counts" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "auctions_company_newest_idx" ON "auctions" USING btree ("company_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "auctions_seller_newest_idx" ON "auctions" USING btree ("seller_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "auctions_newest_idx" ON "auctions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "auctions_paid_newest_idx" ON "auctions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "auctions"."is_paid";--> statement-breakpoint
CREATE INDEX "auctions_search_idx" ON "auctions" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "uploads_url_idx" ON "uploads" USING btree ("url");
--> statement-breakpoint
-- Hand-written below: drizzle-kit does not generate functions or triggers.
-- auctions.is_paid follows payment_items: true while a paid payment holds the auction. The payment
-- status reaches payment_items through its cascading foreign key, which fires this trigger too.
CREATE FUNCTION "auctions_sync_is_paid"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE auctions SET is_paid = EXISTS (SELECT 1 FROM payment_items pi WHERE pi.auction_id = NEW.auction_id AND pi.payment_status = 'paid')
    WHERE id = NEW.auction_id;
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.auction_id <> NEW.auction_id) THEN
    UPDATE auctions SET is_paid = EXISTS (SELECT 1 FROM payment_items pi WHERE pi.auction_id = OLD.auction_id AND pi.payment_status = 'paid')
    WHERE id = OLD.auction_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "payment_items_sync_is_paid" AFTER INSERT OR UPDATE OR DELETE ON "payment_items"
  FOR EACH ROW EXECUTE FUNCTION "auctions_sync_is_paid"();
--> statement-breakpoint
-- auction_counts holds, per company and seller, how many auctions are open, won and unpaid, or paid.
CREATE FUNCTION "auction_counts_add"(p_company text, p_seller uuid, p_winner uuid, p_paid boolean, p_sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO auction_counts AS c (company_id, seller_id, open, won_unpaid, paid)
  VALUES (
    p_company, p_seller,
    p_sign * (p_winner IS NULL AND NOT p_paid)::integer,
    p_sign * (p_winner IS NOT NULL AND NOT p_paid)::integer,
    p_sign * p_paid::integer
  )
  ON CONFLICT (company_id, seller_id) DO UPDATE
  SET open = c.open + EXCLUDED.open, won_unpaid = c.won_unpaid + EXCLUDED.won_unpaid, paid = c.paid + EXCLUDED.paid
$$;
--> statement-breakpoint
CREATE FUNCTION "auctions_track_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM auction_counts_add(OLD.company_id, OLD.seller_id, OLD.current_winner_id, OLD.is_paid, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM auction_counts_add(NEW.company_id, NEW.seller_id, NEW.current_winner_id, NEW.is_paid, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "auctions_counts_insert_delete" AFTER INSERT OR DELETE ON "auctions"
  FOR EACH ROW EXECUTE FUNCTION "auctions_track_counts"();
--> statement-breakpoint
-- Bids update auctions all the time; only a change of owner, winner or payment moves a count.
CREATE TRIGGER "auctions_counts_update" AFTER UPDATE OF company_id, seller_id, current_winner_id, is_paid ON "auctions"
  FOR EACH ROW
  WHEN (OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.seller_id IS DISTINCT FROM NEW.seller_id
        OR OLD.current_winner_id IS DISTINCT FROM NEW.current_winner_id OR OLD.is_paid IS DISTINCT FROM NEW.is_paid)
  EXECUTE FUNCTION "auctions_track_counts"();
