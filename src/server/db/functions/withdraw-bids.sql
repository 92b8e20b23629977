-- Withdraws bids: every standing line of the given bidders on the auction stops standing (a company
-- blocked them: companies/blocks.ts, or the close found one: close-due-auctions.sql), and the auction
-- falls back to where the others' bids leave it, by the engine's own rules (place-bids.sql):
--  * the others' own bids are replayed in their order, each at the amount it was sent (typed_amount;
--    a line older than that column, at its amount) with its maximum. A bidder's maximum is raised
--    where an automatic line of theirs shows it was higher then: a leader raises it without a line,
--    and the engine writes it when it answers the next bid (the line right after that bid's own
--    lines, so it is read before that bid is decided);
--  * the leader who stays keeps their maximum as it stands; ties go to the earlier, as always;
--  * lines above the new price answered the withdrawn bids: they are withdrawn too. If the last line
--    left is not the leader's at the new price, a line of theirs is written at it (their own bid when
--    one of theirs set that price, else their maximum's automatic answer), so the last standing line
--    is the leader at the price, as after any bid;
--  * with no line left the auction is back at its starting price with no leader.
-- Rows are never deleted (withdrawn_at is set), and lines are numbered on from the last one written.
-- The end time does not move. Only an auction not yet closed (closed_at null) changes; its row is
-- locked here, as the bid engine locks it. Answers null when nothing was withdrawn, else
-- {state, lines (the line written, if any), withdrawn (lines that stopped standing),
-- previousLeaderId, previousPrice}.
CREATE OR REPLACE FUNCTION "withdraw_bids"(p_auction uuid, p_bidders uuid[]) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a "auctions";
  cfg jsonb;
  n integer;
  k integer;
  m integer;
  lines "bids"[];
  l "bids";
  j integer;
  v_leader uuid;
  v_max integer;
  v_price integer;
  v_typed integer;
  v_mx integer;
  v_last "bids";
  v_line "bids";
  v_name text;
  v_new jsonb := '[]'::jsonb;
  v_prev_leader uuid;
  v_prev_price integer;
  -- Whether the price was last set by a bid of the leader's own (the first, or one taking the lead), and its amount sent.
  v_own boolean := false;
  v_own_typed integer;
BEGIN
  SELECT * INTO a FROM "auctions" WHERE "id" = p_auction FOR UPDATE;
  IF NOT FOUND OR a."closed_at" IS NOT NULL THEN RETURN NULL; END IF;
  UPDATE "bids" SET "withdrawn_at" = clock_timestamp()
    WHERE "auction_id" = a."id" AND "bidder_id" = ANY (p_bidders) AND "withdrawn_at" IS NULL;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n = 0 THEN RETURN NULL; END IF;
  cfg := auction_bidding_config(a."id");
  v_prev_leader := a."leader_id";
  v_prev_price := a."current_price";

  lines := ARRAY(SELECT b FROM "bids" b WHERE b."auction_id" = a."id" AND b."withdrawn_at" IS NULL ORDER BY b."seq");
  m := coalesce(array_length(lines, 1), 0);
  FOR i IN 1..m LOOP
    l := lines[i];
    IF l."is_automatic" THEN
      IF l."bidder_id" = v_leader THEN v_max := greatest(v_max, coalesce(l."max_amount", l."amount")); END IF;
      CONTINUE;
    END IF;
    -- The leader's answer to this bid, if any: their automatic line after the bidder's own lines.
    j := i + 1;
    WHILE j <= m AND (lines[j])."is_automatic" AND (lines[j])."bidder_id" = l."bidder_id" LOOP j := j + 1; END LOOP;
    IF j <= m AND (lines[j])."is_automatic" AND (lines[j])."bidder_id" = v_leader THEN
      v_max := greatest(v_max, coalesce((lines[j])."max_amount", (lines[j])."amount"));
    END IF;
    v_typed := coalesce(l."typed_amount", l."amount");
    v_mx := greatest(coalesce(l."max_amount", v_typed), v_typed);
    -- Below the minimum as things now stand (it cannot be, since prices only fall): it would be refused.
    CONTINUE WHEN v_typed < CASE WHEN v_price IS NULL THEN a."starting_price" ELSE v_price + bid_increment(cfg, v_price) END;
    IF v_leader IS NULL THEN
      v_leader := l."bidder_id";
      v_max := v_mx;
      v_price := v_typed;
      v_own := true;
      v_own_typed := v_typed;
    ELSIF v_leader = l."bidder_id" THEN
      v_max := greatest(v_max, v_mx);
    ELSIF v_mx > v_max THEN
      v_price := greatest(v_typed, least(v_mx, v_max + bid_increment(cfg, v_max)));
      v_leader := l."bidder_id";
      v_max := v_mx;
      v_own := true;
      v_own_typed := v_typed;
    ELSE
      v_price := greatest(v_typed, least(v_max, v_mx + bid_increment(cfg, v_mx)));
      v_own := false;
    END IF;
  END LOOP;
  IF v_leader IS NOT NULL AND v_leader = a."leader_id" THEN v_max := greatest(v_max, a."leader_max"); END IF;

  -- What answered the withdrawn bids stands no more.
  UPDATE "bids" SET "withdrawn_at" = clock_timestamp()
    WHERE "auction_id" = a."id" AND "withdrawn_at" IS NULL AND (v_leader IS NULL OR "amount" > v_price);
  GET DIAGNOSTICS k = ROW_COUNT;
  n := n + k;

  IF v_leader IS NOT NULL THEN
    SELECT * INTO v_last FROM "bids" WHERE "auction_id" = a."id" AND "withdrawn_at" IS NULL ORDER BY "seq" DESC LIMIT 1;
    IF v_last."bidder_id" IS DISTINCT FROM v_leader OR v_last."amount" IS DISTINCT FROM v_price THEN
      SELECT "bidder_name" INTO v_name FROM "bids" WHERE "auction_id" = a."id" AND "bidder_id" = v_leader ORDER BY "seq" DESC LIMIT 1;
      -- The leader's own bid at that price (its line stood higher), else their maximum's answer.
      INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "typed_amount", "is_automatic")
        VALUES (a."id", v_leader, v_name, (SELECT max("seq") FROM "bids" WHERE "auction_id" = a."id") + 1, v_price, v_max,
          CASE WHEN v_own THEN v_own_typed END, NOT v_own)
        RETURNING * INTO v_line;
      v_new := jsonb_build_array(bid_line(v_line));
    END IF;
  END IF;

  UPDATE "auctions" SET "current_price" = v_price, "leader_id" = v_leader, "leader_max" = CASE WHEN v_leader IS NULL THEN NULL ELSE v_max END,
    "bid_count" = (SELECT count(*) FROM "bids" WHERE "auction_id" = a."id" AND "withdrawn_at" IS NULL),
    "version" = "version" + 1, "updated_at" = now()
    WHERE "id" = a."id" RETURNING * INTO a;
  RETURN jsonb_build_object('state', auction_bid_state(a, cfg), 'lines', v_new, 'withdrawn', n,
    'previousLeaderId', v_prev_leader, 'previousPrice', v_prev_price);
END
$$;
