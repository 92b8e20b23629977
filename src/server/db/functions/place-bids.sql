-- The bid engine. Each call runs as one statement, so a group of bids is decided in one
-- transaction and one round trip: the auction row is locked first, which serialises every bid on
-- that auction, and the lock is held only while PostgreSQL itself works (never across a client
-- round trip). Refusals write nothing and come back as {"error": code} with the state, so the
-- caller can answer 409 with it. Helpers are plpgsql so their plans are cached per connection.
--
-- Bids on one auction, decided one after the other in order, in one transaction. Rules, in order,
-- for each bid: the profile is complete; the auction exists; a repeated Idempotency-Key answers
-- the first attempt again; the auction takes bids (active or live, end time ahead); the bidder is
-- not its seller or of its company; the amount reaches the minimum (the starting price, then the
-- price plus the increment at the price). Then, as eBay does:
--  * the leader bidding again raises their private maximum and leaves the price alone;
--  * a maximum above the leader's takes the lead at the leader's maximum plus one increment
--    (capped at the new maximum, and never below the amount typed);
--  * otherwise the leader's maximum answers at the new maximum plus one increment, capped at the
--    leader's maximum; on equal maximums the earlier one (the leader) keeps the lead.
-- "One increment" above an amount is always the increment at that amount (bid_increment: the band
-- of a session's incrementBands table, else its flat minIncrement).
-- Only a bid that takes the lead may move the clock, by the timer format in force
-- (auction_bidding_config: the lot's own, else its session's; W = antiSnipeSeconds, R =
-- counterBidResetSeconds):
--  * extend ('Extender'): with W seconds or fewer left, the end becomes now plus W;
--  * counterBid ('Contrapuja'): with fewer than W seconds left, the end becomes now plus R, never
--    earlier than it was;
--  * suddenDeath ('Muerte súbita'): nothing moves it; the lot sells at 00:00 to the leader.
-- A bid that reaches the server after the end is refused (bid_refusal, on the database's clock).
-- Answers one answer per bid, in order: {error, state?} or {outcome, lines, allLines,
-- previousLeaderId, state}, or {replayed, outcome, lines, state} for a repeated key. Every bid
-- decided with a key records it in bid_keys with its outcome and lines (a raised maximum too), and
-- a repeated key answers those again with the state as it stands; refusals write nothing, so a
-- refused bid retried is decided afresh.
CREATE OR REPLACE FUNCTION "place_bids"(p_bids jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  n integer := jsonb_array_length(p_bids);
  v_auction uuid := (p_bids -> 0 ->> 'auctionId')::uuid;
  answers jsonb[] := array_fill(NULL::jsonb, ARRAY[n]);
  names text[] := array_fill(NULL::text, ARRAY[n]);
  companies text[] := array_fill(NULL::text, ARRAY[n]);
  v_name text;
  v_company text;
  v_complete boolean;
  b jsonb;
  a "auctions";
  cfg jsonb;
  v_min integer;
  v_mode text;
  v_window integer;
  v_reset integer;
  v_now timestamptz;
  v_bidder uuid;
  v_amount integer;
  v_max integer;
  v_key text;
  v_refusal text;
  v_pending boolean := false;
  v_changed boolean := false;
  v_leader_name text;
  v_line "bids";
  v_replay "bid_keys";
  v_lines jsonb;
  v_all jsonb;
  v_price integer;
  v_prev_leader uuid;
  v_seq integer;
BEGIN
  IF n = 0 THEN RETURN '[]'::jsonb; END IF;

  -- First without the lock: most refusals in a bidding war are bids already below the minimum, and
  -- the price only rises while the auction is open, so they are answered without queueing for the
  -- row (on PostgreSQL a row lock is also a WAL write). A repeated Idempotency-Key is recognised
  -- before that, since its amount is below the price it set; it is answered under the lock.
  SELECT * INTO a FROM "auctions" WHERE "id" = v_auction;
  IF FOUND THEN cfg := auction_bidding_config(a."id"); END IF;
  v_min := a."current_price" + bid_increment(cfg, a."current_price");
  FOR i IN 1..n LOOP
    b := p_bids -> (i - 1);
    IF (b ->> 'auctionId')::uuid IS DISTINCT FROM v_auction THEN RAISE EXCEPTION 'place_bids takes bids on one auction'; END IF;
    SELECT f.o_name, f.o_company, f.o_complete INTO v_name, v_company, v_complete FROM bidder_facts((b ->> 'bidderId')::uuid) f;
    names[i] := v_name;
    companies[i] := v_company;
    IF NOT coalesce(v_complete, false) THEN
      answers[i] := jsonb_build_object('error', 'PROFILE_INCOMPLETE');
    ELSIF a."id" IS NULL THEN
      answers[i] := jsonb_build_object('error', 'NOT_FOUND');
    ELSIF b ->> 'key' IS NOT NULL AND EXISTS (SELECT 1 FROM "bid_keys" WHERE "bidder_id" = (b ->> 'bidderId')::uuid AND "idempotency_key" = b ->> 'key') THEN
      v_pending := true;
    ELSIF a."current_price" IS NOT NULL AND (b ->> 'amount')::integer < v_min
          AND bid_refusal(a, (b ->> 'bidderId')::uuid, companies[i]) IS NULL THEN
      answers[i] := jsonb_build_object('error', 'BID_TOO_LOW', 'state', auction_bid_state(a, cfg));
    ELSE
      v_pending := true;
    END IF;
  END LOOP;
  IF NOT v_pending THEN RETURN to_jsonb(answers); END IF;

  SELECT * INTO a FROM "auctions" WHERE "id" = v_auction FOR UPDATE;
  IF NOT FOUND THEN
    FOR i IN 1..n LOOP answers[i] := coalesce(answers[i], jsonb_build_object('error', 'NOT_FOUND')); END LOOP;
    RETURN to_jsonb(answers);
  END IF;
  cfg := coalesce(cfg, auction_bidding_config(a."id"));
  -- Lines are numbered on from the last one written: withdrawn lines keep their numbers
  -- (withdraw-bids.sql), so the count of standing lines (bid_count) may be lower.
  v_seq := coalesce((SELECT max("seq") FROM "bids" WHERE "auction_id" = a."id"), 0);
  v_mode := cfg ->> 'timerMode';
  v_window := (cfg ->> 'antiSnipeSeconds')::integer;
  v_reset := (cfg ->> 'counterBidResetSeconds')::integer;

  -- From here a is the auction as it stands after the bids so far; it is written back once, at the end.
  FOR i IN 1..n LOOP
    IF answers[i] ->> 'error' = 'BID_TOO_LOW' THEN
      -- Refused before the lock: answered with the state as it stands at its turn.
      answers[i] := jsonb_set(answers[i], '{state}', auction_bid_state(a, cfg));
    END IF;
    CONTINUE WHEN answers[i] IS NOT NULL;
    b := p_bids -> (i - 1);
    v_bidder := (b ->> 'bidderId')::uuid;
    v_amount := (b ->> 'amount')::integer;
    v_max := greatest(coalesce((b ->> 'maxAmount')::integer, v_amount), v_amount);
    v_key := b ->> 'key';

    IF v_key IS NOT NULL THEN
      SELECT * INTO v_replay FROM "bid_keys" WHERE "bidder_id" = v_bidder AND "idempotency_key" = v_key;
      IF FOUND THEN
        answers[i] := CASE WHEN v_replay."auction_id" <> a."id" THEN jsonb_build_object('error', 'IDEMPOTENCY_REUSED')
          ELSE jsonb_build_object('replayed', true, 'outcome', v_replay."outcome", 'lines', v_replay."lines", 'state', auction_bid_state(a, cfg)) END;
        CONTINUE;
      END IF;
    END IF;

    v_refusal := bid_refusal(a, v_bidder, companies[i]);
    IF v_refusal IS NOT NULL THEN
      answers[i] := jsonb_build_object('error', v_refusal, 'state', auction_bid_state(a, cfg));
      CONTINUE;
    END IF;
    IF v_amount < (CASE WHEN a."current_price" IS NULL THEN a."starting_price" ELSE a."current_price" + bid_increment(cfg, a."current_price") END) THEN
      answers[i] := jsonb_build_object('error', 'BID_TOO_LOW', 'state', auction_bid_state(a, cfg));
      CONTINUE;
    END IF;

    v_changed := true;
    a."updated_at" := now();
    IF a."leader_id" = v_bidder THEN
      a."leader_max" := greatest(a."leader_max", v_max);
      answers[i] := jsonb_build_object('outcome', 'maxRaised', 'lines', '[]'::jsonb, 'state', auction_bid_state(a, cfg));
      IF v_key IS NOT NULL THEN
        INSERT INTO "bid_keys" ("bidder_id", "idempotency_key", "auction_id", "outcome", "lines") VALUES (v_bidder, v_key, a."id", 'maxRaised', '[]'::jsonb);
      END IF;
      CONTINUE;
    END IF;

    v_lines := '[]'::jsonb;
    v_all := '[]'::jsonb;
    v_prev_leader := a."leader_id";
    -- The leader's name, for the lines their maximum bids (not needed when the leader had no maximum left).
    IF a."leader_id" IS NOT NULL AND a."leader_max" > a."current_price" AND v_leader_name IS NULL THEN
      SELECT "bidder_name" INTO v_leader_name FROM "bids" WHERE "auction_id" = a."id" AND "bidder_id" = a."leader_id" AND "withdrawn_at" IS NULL ORDER BY "seq" DESC LIMIT 1;
    END IF;

    IF a."leader_id" IS NULL OR v_max > a."leader_max" THEN
      -- The new bid leads. A leader whose maximum was above the price bid it all first.
      IF a."leader_id" IS NOT NULL AND a."leader_max" > a."current_price" THEN
        a."bid_count" := a."bid_count" + 1;
        v_seq := v_seq + 1;
        INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "is_automatic")
          VALUES (a."id", a."leader_id", v_leader_name, v_seq, a."leader_max", a."leader_max", true) RETURNING * INTO v_line;
        v_all := v_all || bid_line(v_line);
      END IF;
      v_price := CASE WHEN a."leader_id" IS NULL THEN v_amount ELSE greatest(v_amount, least(v_max, a."leader_max" + bid_increment(cfg, a."leader_max"))) END;
      a."bid_count" := a."bid_count" + 1;
      v_seq := v_seq + 1;
      INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "typed_amount", "is_automatic", "idempotency_key")
        VALUES (a."id", v_bidder, names[i], v_seq, v_price, v_max, v_amount, false, v_key) RETURNING * INTO v_line;
      v_lines := v_lines || bid_line(v_line);
      v_all := v_all || bid_line(v_line);
      -- The clock, by the timer format (only a bid that takes the lead gets here).
      v_now := clock_timestamp();
      IF v_mode = 'counterBid' THEN
        IF a."end_time" - v_now < make_interval(secs => v_window) THEN
          a."end_time" := greatest(a."end_time", date_trunc('milliseconds', v_now + make_interval(secs => v_reset)));
        END IF;
      ELSIF v_mode IS DISTINCT FROM 'suddenDeath' AND v_window > 0 AND a."end_time" - v_now <= make_interval(secs => v_window) THEN
        a."end_time" := date_trunc('milliseconds', v_now + make_interval(secs => v_window));
      END IF;
      a."current_price" := v_price;
      a."leader_id" := v_bidder;
      a."leader_max" := v_max;
      v_leader_name := names[i];
      a."version" := a."version" + 1;
      answers[i] := jsonb_build_object('outcome', 'leading', 'lines', v_lines, 'allLines', v_all,
        'previousLeaderId', v_prev_leader, 'state', auction_bid_state(a, cfg));
    ELSE
      -- The leader's maximum answers: the new bid stands in the history, and the leader stays ahead.
      a."bid_count" := a."bid_count" + 1;
      v_seq := v_seq + 1;
      INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "typed_amount", "is_automatic", "idempotency_key")
        VALUES (a."id", v_bidder, names[i], v_seq, v_amount, v_max, v_amount, false, v_key) RETURNING * INTO v_line;
      v_lines := v_lines || bid_line(v_line);
      v_all := v_all || bid_line(v_line);
      IF v_max > v_amount THEN
        a."bid_count" := a."bid_count" + 1;
        v_seq := v_seq + 1;
        INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "is_automatic")
          VALUES (a."id", v_bidder, names[i], v_seq, v_max, v_max, true) RETURNING * INTO v_line;
        v_lines := v_lines || bid_line(v_line);
        v_all := v_all || bid_line(v_line);
      END IF;
      v_price := least(v_max + bid_increment(cfg, v_max), a."leader_max");
      a."bid_count" := a."bid_count" + 1;
      v_seq := v_seq + 1;
      INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "is_automatic")
        VALUES (a."id", a."leader_id", v_leader_name, v_seq, v_price, a."leader_max", true) RETURNING * INTO v_line;
      v_all := v_all || bid_line(v_line);
      a."current_price" := v_price;
      a."version" := a."version" + 1;
      answers[i] := jsonb_build_object('outcome', 'outbid', 'lines', v_lines, 'allLines', v_all,
        'previousLeaderId', NULL, 'state', auction_bid_state(a, cfg));
    END IF;
    IF v_key IS NOT NULL THEN
      INSERT INTO "bid_keys" ("bidder_id", "idempotency_key", "auction_id", "outcome", "lines")
        VALUES (v_bidder, v_key, a."id", answers[i] ->> 'outcome', v_lines);
    END IF;
  END LOOP;

  IF v_changed THEN
    UPDATE "auctions" SET "current_price" = a."current_price", "bid_count" = a."bid_count", "leader_id" = a."leader_id",
      "leader_max" = a."leader_max", "end_time" = a."end_time", "version" = a."version", "updated_at" = a."updated_at"
      WHERE "id" = a."id";
  END IF;
  RETURN to_jsonb(answers);
END
$$;
