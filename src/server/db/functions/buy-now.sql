-- Buys at the buy-now price: the auction ends at once with the buyer as its winner.
-- Offered only while the auction takes bids and its price is below the buy-now price.
CREATE OR REPLACE FUNCTION "buy_now"(p_auction uuid, p_buyer uuid, p_key text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a "auctions";
  cfg jsonb;
  v_name text;
  v_company text;
  v_refusal text;
  v_complete boolean;
  v_email text;
  v_whatsapp text;
  v_line "bids";
  v_prev_leader uuid;
BEGIN
  SELECT f.o_name, f.o_company, f.o_complete, f.o_email, f.o_whatsapp INTO v_name, v_company, v_complete, v_email, v_whatsapp
    FROM bidder_facts(p_buyer) f;
  IF NOT coalesce(v_complete, false) THEN RETURN jsonb_build_object('error', 'PROFILE_INCOMPLETE'); END IF;

  SELECT * INTO a FROM "auctions" WHERE "id" = p_auction FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('error', 'NOT_FOUND'); END IF;
  cfg := auction_bidding_config(a."id");

  IF p_key IS NOT NULL THEN
    SELECT * INTO v_line FROM "bids" WHERE "bidder_id" = p_buyer AND "idempotency_key" = p_key;
    IF FOUND THEN
      IF v_line."auction_id" <> a."id" THEN RETURN jsonb_build_object('error', 'IDEMPOTENCY_REUSED'); END IF;
      RETURN jsonb_build_object('replayed', true, 'lines', jsonb_build_array(bid_line(v_line)), 'state', auction_bid_state(a, cfg));
    END IF;
  END IF;

  v_refusal := bid_refusal(a, p_buyer, v_company);
  IF v_refusal IS NOT NULL THEN RETURN jsonb_build_object('error', v_refusal, 'state', auction_bid_state(a, cfg)); END IF;
  IF a."buy_now_price" IS NULL OR coalesce(a."current_price", -1) >= a."buy_now_price" THEN
    RETURN jsonb_build_object('error', 'BUY_NOW_UNAVAILABLE', 'state', auction_bid_state(a, cfg));
  END IF;

  v_prev_leader := a."leader_id";
  -- Numbered on from the last line written (withdrawn lines keep their numbers: withdraw-bids.sql).
  INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "typed_amount", "is_automatic", "idempotency_key")
    VALUES (a."id", p_buyer, v_name, coalesce((SELECT max("seq") FROM "bids" WHERE "auction_id" = a."id"), 0) + 1,
      a."buy_now_price", a."buy_now_price", a."buy_now_price", false, p_key) RETURNING * INTO v_line;
  UPDATE "auctions" SET "current_price" = a."buy_now_price", "bid_count" = a."bid_count" + 1, "leader_id" = p_buyer,
    "leader_max" = a."buy_now_price", "status" = 'ended', "end_time" = least("end_time", clock_timestamp()), "closed_at" = clock_timestamp(),
    "current_winner_id" = p_buyer, "current_winner_name" = v_name, "winner_email" = v_email, "winner_whatsapp" = v_whatsapp,
    "version" = "version" + 1, "updated_at" = now()
    WHERE "id" = a."id" RETURNING * INTO a;
  RETURN jsonb_build_object('lines', jsonb_build_array(bid_line(v_line)), 'allLines', jsonb_build_array(bid_line(v_line)),
    'previousLeaderId', v_prev_leader, 'state', auction_bid_state(a, cfg));
END
$$;
