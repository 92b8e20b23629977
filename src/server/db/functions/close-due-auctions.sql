-- Closes up to p_limit auctions whose end time has passed, and auctions marked ended by
-- other means that were never closed. Each row is locked and re-checked, and rows another
-- instance holds are skipped, so every auction is closed exactly once however many schedulers
-- run. The winner is the leader; an auction without one falls back to its highest standing bid, the
-- earliest on a tie (SPEC §3); an auction without bids ends without a winner. A bidder the company
-- blocked never wins: a block that raced the bids (or one made without withdrawing them) has their
-- standing bids withdrawn here first (withdraw-bids.sql), so the others' bids decide. The winner's
-- name, e-mail and WhatsApp come from their profile. Answers one {state, withdrawn} per closed
-- auction (withdrawn: bids were withdrawn, so the history changed).
CREATE OR REPLACE FUNCTION "close_due_auctions"(p_limit integer) RETURNS SETOF jsonb LANGUAGE plpgsql AS $$
DECLARE
  a "auctions";
  w uuid;
  v_name text;
  v_email text;
  v_whatsapp text;
  v_blocked uuid[];
BEGIN
  FOR a IN
    SELECT * FROM "auctions"
    WHERE ("status" IN ('active', 'live') AND "end_time" <= clock_timestamp()) OR ("status" = 'ended' AND "closed_at" IS NULL)
    ORDER BY "end_time" NULLS FIRST LIMIT p_limit
    FOR UPDATE SKIP LOCKED
  LOOP
    -- The row as locked: a bid may have extended it, or another instance closed it, meanwhile.
    CONTINUE WHEN NOT ((a."status" IN ('active', 'live') AND a."end_time" <= clock_timestamp()) OR (a."status" = 'ended' AND a."closed_at" IS NULL));
    SELECT array_agg(DISTINCT b."bidder_id") INTO v_blocked FROM "bids" b
      JOIN "company_blocks" k ON k."company_id" = a."company_id" AND k."user_id" = b."bidder_id"
      WHERE b."auction_id" = a."id" AND b."withdrawn_at" IS NULL;
    IF v_blocked IS NOT NULL THEN
      PERFORM withdraw_bids(a."id", v_blocked);
      SELECT * INTO a FROM "auctions" WHERE "id" = a."id";
    END IF;
    w := coalesce(
      CASE WHEN NOT EXISTS (SELECT 1 FROM "company_blocks" k WHERE k."company_id" = a."company_id" AND k."user_id" = a."current_winner_id")
        THEN a."current_winner_id" END,
      a."leader_id",
      (SELECT "bidder_id" FROM "bids" WHERE "auction_id" = a."id" AND "withdrawn_at" IS NULL ORDER BY "amount" DESC, "created_at", "seq" LIMIT 1));
    SELECT f.o_name, f.o_email, f.o_whatsapp INTO v_name, v_email, v_whatsapp FROM bidder_facts(w) f;
    UPDATE "auctions" x SET "status" = 'ended', "closed_at" = clock_timestamp(), "current_winner_id" = w,
      "current_winner_name" = CASE WHEN w IS NULL THEN NULL WHEN x."current_winner_id" = w AND x."current_winner_name" IS NOT NULL THEN x."current_winner_name" ELSE v_name END,
      -- A stored winner's details stay; another winner's (a blocked one passed over) do not.
      "winner_email" = CASE WHEN w IS NULL THEN NULL WHEN x."current_winner_id" <> w THEN v_email ELSE coalesce(x."winner_email", v_email) END,
      "winner_whatsapp" = CASE WHEN w IS NULL THEN NULL WHEN x."current_winner_id" <> w THEN v_whatsapp ELSE coalesce(x."winner_whatsapp", v_whatsapp) END,
      "version" = x."version" + 1, "updated_at" = now()
      WHERE x."id" = a."id" RETURNING * INTO a;
    RETURN NEXT jsonb_build_object('state', auction_bid_state(a, auction_bidding_config(a."id")), 'withdrawn', v_blocked IS NOT NULL);
  END LOOP;
END
$$;
