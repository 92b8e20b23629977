-- Keeps auction_counts in step with auctions: the old row leaves its count, the new one joins its
-- own. Created by drizzle/0002 with the triggers auctions_counts_insert_delete and
-- auctions_counts_update, which run it (the latter only when owner, winner or payment change).
-- A rehearsal ('Ensayo', features/live/sessions/rehearsal-snapshot.ts) sells nothing: an auction it holds (its copy
-- is in rehearsal_snapshots, until the restore deletes it after putting the row back) or won by a
-- simulated bidder counts as it did before, without a winner.
CREATE OR REPLACE FUNCTION "auctions_track_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM auction_counts_add(OLD.company_id, OLD.seller_id,
      CASE WHEN OLD.current_winner_id IS NULL
             OR EXISTS (SELECT 1 FROM "rehearsal_snapshots" r WHERE r."auction_id" = OLD.id)
             OR EXISTS (SELECT 1 FROM "users" u WHERE u."id" = OLD.current_winner_id AND u."is_simulated")
           THEN NULL ELSE OLD.current_winner_id END,
      OLD.is_paid, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM auction_counts_add(NEW.company_id, NEW.seller_id,
      CASE WHEN NEW.current_winner_id IS NULL
             OR EXISTS (SELECT 1 FROM "rehearsal_snapshots" r WHERE r."auction_id" = NEW.id)
             OR EXISTS (SELECT 1 FROM "users" u WHERE u."id" = NEW.current_winner_id AND u."is_simulated")
           THEN NULL ELSE NEW.current_winner_id END,
      NEW.is_paid, 1);
  END IF;
  RETURN NULL;
END $$;
