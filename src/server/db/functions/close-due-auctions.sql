-- Closes up to p_limit auctions whose end time has passed, and auctions marked ended by
-- other means that were never closed. Each row is locked and re-checked, and rows another
-- instance holds are skipped, so every auction is closed exactly once however many schedulers
-- run. The winner is the leader; an auction without one falls back to its highest bid, the earliest on a tie (SPEC §3);
-- an auction without bids ends without a winner. The winner's name, e-mail and WhatsApp come from
-- their profile. Answers one state per closed auction.
CREATE OR REPLACE FUNCTION "close_due_auctions"(p_limit integer) RETURNS SETOF jsonb LANGUAGE plpgsql AS $$
DECLARE
  a "auctions";
  w uuid;
  v_name text;
  v_email text;
  v_whatsapp text;
BEGIN
  FOR a IN
    SELECT * FROM "auctions"
    WHERE ("status" IN ('active', 'live') AND "end_time" <= clock_timestamp()) OR ("status" = 'ended' AND "closed_at" IS NULL)
    ORDER BY "end_time" NULLS FIRST LIMIT p_limit
    FOR UPDATE SKIP LOCKED
  LOOP
    -- The row as locked: a bid may have extended it, or another instance closed it, meanwhile.
    CONTINUE WHEN NOT ((a."status" IN ('active', 'live') AND a."end_time" <= clock_timestamp()) OR (a."status" = 'ended' AND a."closed_at" IS NULL));
    w := coalesce(a."current_winner_id", a."leader_id",
      (SELECT "bidder_id" FROM "bids" WHERE "auction_id" = a."id" ORDER BY "amount" DESC, "created_at", "seq" LIMIT 1));
    SELECT f.o_name, f.o_email, f.o_whatsapp INTO v_name, v_email, v_whatsapp FROM bidder_facts(w) f;
    UPDATE "auctions" x SET "status" = 'ended', "closed_at" = clock_timestamp(), "current_winner_id" = w,
      "current_winner_name" = CASE WHEN w IS NULL THEN NULL WHEN x."current_winner_id" = w AND x."current_winner_name" IS NOT NULL THEN x."current_winner_name" ELSE v_name END,
      "winner_email" = CASE WHEN w IS NULL THEN NULL ELSE coalesce(x."winner_email", v_email) END,
      "winner_whatsapp" = CASE WHEN w IS NULL THEN NULL ELSE coalesce(x."winner_whatsapp", v_whatsapp) END,
      "version" = x."version" + 1, "updated_at" = now()
      WHERE x."id" = a."id" RETURNING * INTO a;
    RETURN NEXT jsonb_build_object('state', auction_bid_state(a, auction_bidding_config(a."id")));
  END LOOP;
END
$$;
