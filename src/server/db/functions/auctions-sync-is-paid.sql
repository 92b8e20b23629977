-- auctions.is_paid follows payment_items: true while a paid payment holds the auction. The payment
-- status reaches payment_items through its cascading foreign key, which fires this trigger too.
-- Created by drizzle/0002 with the trigger payment_items_sync_is_paid, which runs it.
CREATE OR REPLACE FUNCTION "auctions_sync_is_paid"() RETURNS trigger LANGUAGE plpgsql AS $$
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
