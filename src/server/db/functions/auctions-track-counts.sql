-- Keeps auction_counts in step with auctions: the old row leaves its count, the new one joins its
-- own. Created by drizzle/0002 with the triggers auctions_counts_insert_delete and
-- auctions_counts_update, which run it (the latter only when owner, winner or payment change).
CREATE OR REPLACE FUNCTION "auctions_track_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM auction_counts_add(OLD.company_id, OLD.seller_id, OLD.current_winner_id, OLD.is_paid, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM auction_counts_add(NEW.company_id, NEW.seller_id, NEW.current_winner_id, NEW.is_paid, 1);
  END IF;
  RETURN NULL;
END $$;
