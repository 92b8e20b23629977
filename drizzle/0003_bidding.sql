ALTER TABLE "auctions" ADD COLUMN "leader_id" uuid;--> statement-breakpoint
ALTER TABLE "auctions" ADD COLUMN "leader_max" integer;--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "seq" integer;--> statement-breakpoint
-- Existing bids are numbered in the order they raised the price, and equal amounts so that the
-- earliest comes last: the last line is the leader, and on a tie the earlier bid leads.
UPDATE "bids" SET "seq" = numbered.n FROM (
  SELECT "id", row_number() OVER (PARTITION BY "auction_id" ORDER BY "amount", "created_at" DESC, "id" DESC)::integer AS n FROM "bids"
) AS numbered WHERE numbered."id" = "bids"."id";--> statement-breakpoint
ALTER TABLE "bids" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_leader_id_users_id_fk" FOREIGN KEY ("leader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auctions_unclosed_idx" ON "auctions" USING btree ("id") WHERE "auctions"."status" = 'ended' and "auctions"."closed_at" is null;--> statement-breakpoint
ALTER TABLE "bids" ADD CONSTRAINT "bids_auction_seq_key" UNIQUE("auction_id","seq");--> statement-breakpoint
-- Auctions already bid on lead with their highest bid (the earliest on a tie); its amount is the
-- leader's maximum.
UPDATE "auctions" SET "leader_id" = top."bidder_id", "leader_max" = top."amount", "current_price" = top."amount",
  "bid_count" = (SELECT count(*) FROM "bids" b WHERE b."auction_id" = "auctions"."id")
FROM (SELECT DISTINCT ON ("auction_id") "auction_id", "bidder_id", "amount" FROM "bids" ORDER BY "auction_id", "amount" DESC, "created_at", "id") AS top
WHERE top."auction_id" = "auctions"."id";--> statement-breakpoint
-- ── The bid engine ──────────────────────────────────────────────────────────
-- Helpers are plpgsql rather than SQL functions so their plans are cached per connection.
-- Each function runs as one statement, so a bid is decided in one transaction and one round trip:
-- the auction row is locked first, which serialises every bid on that auction, and the lock is
-- held only while PostgreSQL itself works (never across a client round trip). Refusals write
-- nothing and come back as {"error": code} with the state, so the caller can answer 409 with it.

-- The increment and anti-snipe window of an auction: its live session's biddingConfig when it is
-- a lot of a session that has not ended (the session showing it now first), else SPEC §9's defaults.
CREATE FUNCTION "auction_bidding_config"(p_auction uuid) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
  SELECT jsonb_build_object(
      'minIncrement', greatest(1, coalesce((cfg ->> 'minIncrement')::integer, 20)),
      'antiSnipeSeconds', greatest(0, coalesce((cfg ->> 'antiSnipeSeconds')::integer, 10)))
    FROM (SELECT (
      SELECT s."bidding_config" FROM "live_lots" l JOIN "live_sessions" s ON s."id" = l."session_id"
      WHERE l."auction_id" = p_auction AND s."status" <> 'ended'
      ORDER BY (s."current_lot_id" IS NOT DISTINCT FROM l."id") DESC, s."scheduled_at" DESC
      LIMIT 1) AS cfg) AS found);
END
$$;--> statement-breakpoint

-- What a bid answer carries about the auction: the row's public state plus the private leader
-- fields, which the server strips before anything leaves it.
CREATE FUNCTION "auction_bid_state"(a "auctions", p_config jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  RETURN jsonb_build_object(
      'id', a."id", 'name', a."name", 'companyId', a."company_id", 'version', a."version", 'status', a."status",
      'currentPrice', a."current_price", 'bidCount', a."bid_count", 'startingPrice', a."starting_price",
      'buyNowPrice', a."buy_now_price",
      'endTime', floor(extract(epoch FROM a."end_time") * 1000)::bigint,
      'leaderId', a."leader_id", 'leaderMax', a."leader_max",
      'winnerId', a."current_winner_id", 'winnerName', a."current_winner_name",
      'minIncrement', (p_config ->> 'minIncrement')::integer, 'antiSnipeSeconds', (p_config ->> 'antiSnipeSeconds')::integer,
      'serverNow', floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint);
END
$$;--> statement-breakpoint

-- What the engine needs to know of a bidder or winner, from their profile: the name they go by
-- (display name, else first and last name, else the e-mail's local part), their company (SPEC §3:
-- companyId, falling back to their id), whether the profile lets them bid (a last name and a
-- WhatsApp number with consent), and their contact for winnerDetails. All null for no user.
CREATE FUNCTION "bidder_facts"(p_user uuid, OUT o_name text, OUT o_company text, OUT o_complete boolean, OUT o_email text, OUT o_whatsapp text)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT coalesce(nullif(trim(p."display_name"), ''), nullif(trim(concat_ws(' ', p."first_name", p."last_name")), ''), split_part(u."email", '@', 1)),
         coalesce(nullif(trim(p."company_id"), ''), u."id"::text),
         coalesce(nullif(trim(p."last_name"), '') IS NOT NULL AND p."whatsapp" IS NOT NULL AND p."whatsapp_consent_given", false),
         coalesce(p."email", u."email"), p."whatsapp"
    INTO o_name, o_company, o_complete, o_email, o_whatsapp
    FROM "users" u LEFT JOIN "user_profiles" p ON p."user_id" = u."id" WHERE u."id" = p_user;
END
$$;--> statement-breakpoint

-- One line of the history, as the answer lists it.
CREATE FUNCTION "bid_line"(b "bids") RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN jsonb_build_object('seq', b."seq", 'bidderId', b."bidder_id", 'bidderName', b."bidder_name", 'amount', b."amount",
      'isAutomatic', b."is_automatic", 'createdAt', floor(extract(epoch FROM b."created_at") * 1000)::bigint);
END
$$;--> statement-breakpoint

-- Why an auction takes no bid or purchase from this user now, or null: it is not open (pending,
-- ended, or its time ran out), or the user is its seller or of its company.
CREATE FUNCTION "bid_refusal"(a "auctions", p_user uuid, p_company text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  IF a."status" NOT IN ('active', 'live') OR a."end_time" IS NULL OR a."end_time" <= clock_timestamp() THEN RETURN 'AUCTION_CLOSED'; END IF;
  IF a."seller_id" = p_user OR a."company_id" = p_company THEN RETURN 'OWN_AUCTION'; END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint

-- Places one bid (issue 4). p_max is the bidder's optional maximum for automatic bidding.
-- Rules, in order: the profile is complete; the auction exists; a repeated Idempotency-Key
-- answers the first attempt again; the auction takes bids (active or live, end time ahead); the
-- bidder is not its seller or of its company; the amount reaches the minimum. Then, as eBay does:
--  * the leader bidding again raises their private maximum and leaves the price alone;
--  * a maximum above the leader's takes the lead at the leader's maximum plus one increment
--    (capped at the new maximum, and never below the amount typed);
--  * otherwise the leader's maximum answers at the new maximum plus one increment, capped at the
--    leader's maximum; on equal maximums the earlier one (the leader) keeps the lead.
-- A bid that takes the lead inside the anti-snipe window moves the end to now plus the window.
CREATE FUNCTION "place_bid"(p_auction uuid, p_bidder uuid, p_amount integer, p_max integer, p_key text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a "auctions";
  cfg jsonb;
  inc integer;
  snipe integer;
  v_max integer := greatest(coalesce(p_max, p_amount), p_amount);
  v_min integer;
  v_name text;
  v_company text;
  v_refusal text;
  v_complete boolean;
  v_leader_name text;
  v_line "bids";
  v_lines jsonb := '[]'::jsonb;
  v_all jsonb := '[]'::jsonb;
  v_seq integer;
  v_price integer;
  v_outcome text;
  v_prev_leader uuid;
  v_took_lead boolean := false;
  v_end timestamptz;
BEGIN
  SELECT f.o_name, f.o_company, f.o_complete INTO v_name, v_company, v_complete FROM bidder_facts(p_bidder) f;
  IF NOT coalesce(v_complete, false) THEN RETURN jsonb_build_object('error', 'PROFILE_INCOMPLETE'); END IF;

  -- First without the lock: most refusals in a bidding war are bids already below the minimum, and
  -- the price only rises while the auction is open, so they are answered without queueing for the
  -- row (on PostgreSQL a row lock is also a WAL write). A repeated Idempotency-Key is recognised
  -- before that, since its amount is below the price it set.
  IF p_key IS NOT NULL AND EXISTS (SELECT 1 FROM "bids" WHERE "bidder_id" = p_bidder AND "idempotency_key" = p_key) THEN
    NULL; -- answered below, under the lock
  ELSE
    SELECT * INTO a FROM "auctions" WHERE "id" = p_auction;
    IF NOT FOUND THEN RETURN jsonb_build_object('error', 'NOT_FOUND'); END IF;
    cfg := auction_bidding_config(a."id");
    IF a."current_price" IS NOT NULL AND p_amount < a."current_price" + (cfg ->> 'minIncrement')::integer
       AND bid_refusal(a, p_bidder, v_company) IS NULL THEN
      RETURN jsonb_build_object('error', 'BID_TOO_LOW', 'state', auction_bid_state(a, cfg));
    END IF;
  END IF;

  SELECT * INTO a FROM "auctions" WHERE "id" = p_auction FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('error', 'NOT_FOUND'); END IF;
  cfg := coalesce(cfg, auction_bidding_config(a."id"));
  inc := (cfg ->> 'minIncrement')::integer;
  snipe := (cfg ->> 'antiSnipeSeconds')::integer;

  IF p_key IS NOT NULL THEN
    SELECT * INTO v_line FROM "bids" WHERE "bidder_id" = p_bidder AND "idempotency_key" = p_key;
    IF FOUND THEN
      IF v_line."auction_id" <> a."id" THEN RETURN jsonb_build_object('error', 'IDEMPOTENCY_REUSED'); END IF;
      RETURN jsonb_build_object('replayed', true,
        'outcome', CASE WHEN a."leader_id" = p_bidder THEN 'leading' ELSE 'outbid' END,
        'lines', jsonb_build_array(bid_line(v_line)), 'state', auction_bid_state(a, cfg));
    END IF;
  END IF;

  v_refusal := bid_refusal(a, p_bidder, v_company);
  IF v_refusal IS NOT NULL THEN RETURN jsonb_build_object('error', v_refusal, 'state', auction_bid_state(a, cfg)); END IF;
  v_min := CASE WHEN a."current_price" IS NULL THEN a."starting_price" ELSE a."current_price" + inc END;
  IF p_amount < v_min THEN
    RETURN jsonb_build_object('error', 'BID_TOO_LOW', 'state', auction_bid_state(a, cfg));
  END IF;

  IF a."leader_id" = p_bidder THEN
    UPDATE "auctions" SET "leader_max" = greatest("leader_max", v_max), "updated_at" = now() WHERE "id" = a."id" RETURNING * INTO a;
    RETURN jsonb_build_object('outcome', 'maxRaised', 'lines', '[]'::jsonb, 'state', auction_bid_state(a, cfg));
  END IF;

  v_seq := a."bid_count";
  v_prev_leader := a."leader_id";
  -- The leader's name, for the lines their maximum bids (not needed when the leader had no maximum left).
  IF a."leader_id" IS NOT NULL AND a."leader_max" > a."current_price" THEN
    SELECT "bidder_name" INTO v_leader_name FROM "bids" WHERE "auction_id" = a."id" AND "bidder_id" = a."leader_id" ORDER BY "seq" DESC LIMIT 1;
  END IF;

  IF a."leader_id" IS NULL OR v_max > a."leader_max" THEN
    -- The new bid leads. A leader whose maximum was above the price bid it all first.
    IF a."leader_id" IS NOT NULL AND a."leader_max" > a."current_price" THEN
      v_seq := v_seq + 1;
      INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "is_automatic")
        VALUES (a."id", a."leader_id", v_leader_name, v_seq, a."leader_max", a."leader_max", true) RETURNING * INTO v_line;
      v_all := v_all || bid_line(v_line);
    END IF;
    v_price := CASE WHEN a."leader_id" IS NULL THEN p_amount ELSE greatest(p_amount, least(v_max, a."leader_max" + inc)) END;
    v_seq := v_seq + 1;
    INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "is_automatic", "idempotency_key")
      VALUES (a."id", p_bidder, v_name, v_seq, v_price, v_max, false, p_key) RETURNING * INTO v_line;
    v_lines := v_lines || bid_line(v_line);
    v_all := v_all || bid_line(v_line);
    v_outcome := 'leading';
    v_took_lead := true;
    v_end := CASE WHEN a."end_time" - clock_timestamp() <= make_interval(secs => snipe)
      THEN date_trunc('milliseconds', clock_timestamp() + make_interval(secs => snipe)) ELSE a."end_time" END;
    UPDATE "auctions" SET "current_price" = v_price, "bid_count" = v_seq, "leader_id" = p_bidder, "leader_max" = v_max,
      "end_time" = v_end, "version" = "version" + 1, "updated_at" = now()
      WHERE "id" = a."id" RETURNING * INTO a;
  ELSE
    -- The leader's maximum answers: the new bid stands in the history, and the leader stays ahead.
    v_seq := v_seq + 1;
    INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "is_automatic", "idempotency_key")
      VALUES (a."id", p_bidder, v_name, v_seq, p_amount, v_max, false, p_key) RETURNING * INTO v_line;
    v_lines := v_lines || bid_line(v_line);
    v_all := v_all || bid_line(v_line);
    IF v_max > p_amount THEN
      v_seq := v_seq + 1;
      INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "is_automatic")
        VALUES (a."id", p_bidder, v_name, v_seq, v_max, v_max, true) RETURNING * INTO v_line;
      v_lines := v_lines || bid_line(v_line);
      v_all := v_all || bid_line(v_line);
    END IF;
    v_price := least(v_max + inc, a."leader_max");
    v_seq := v_seq + 1;
    INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "is_automatic")
      VALUES (a."id", a."leader_id", v_leader_name, v_seq, v_price, a."leader_max", true) RETURNING * INTO v_line;
    v_all := v_all || bid_line(v_line);
    v_outcome := 'outbid';
    UPDATE "auctions" SET "current_price" = v_price, "bid_count" = v_seq, "version" = "version" + 1, "updated_at" = now()
      WHERE "id" = a."id" RETURNING * INTO a;
  END IF;

  -- lines: the bidder's own, for the answer; allLines: every line added, for the public room.
  RETURN jsonb_build_object('outcome', v_outcome, 'lines', v_lines, 'allLines', v_all,
    'previousLeaderId', CASE WHEN v_took_lead THEN v_prev_leader END, 'state', auction_bid_state(a, cfg));
END
$$;
--> statement-breakpoint

-- Buys at the buy-now price (issue 4): the auction ends at once with the buyer as its winner.
-- Offered only while the auction takes bids and its price is below the buy-now price.
CREATE FUNCTION "buy_now"(p_auction uuid, p_buyer uuid, p_key text) RETURNS jsonb LANGUAGE plpgsql AS $$
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
  INSERT INTO "bids" ("auction_id", "bidder_id", "bidder_name", "seq", "amount", "max_amount", "is_automatic", "idempotency_key")
    VALUES (a."id", p_buyer, v_name, a."bid_count" + 1, a."buy_now_price", a."buy_now_price", false, p_key) RETURNING * INTO v_line;
  UPDATE "auctions" SET "current_price" = a."buy_now_price", "bid_count" = a."bid_count" + 1, "leader_id" = p_buyer,
    "leader_max" = a."buy_now_price", "status" = 'ended', "end_time" = least("end_time", clock_timestamp()), "closed_at" = clock_timestamp(),
    "current_winner_id" = p_buyer, "current_winner_name" = v_name, "winner_email" = v_email, "winner_whatsapp" = v_whatsapp,
    "version" = "version" + 1, "updated_at" = now()
    WHERE "id" = a."id" RETURNING * INTO a;
  RETURN jsonb_build_object('lines', jsonb_build_array(bid_line(v_line)), 'allLines', jsonb_build_array(bid_line(v_line)),
    'previousLeaderId', v_prev_leader, 'state', auction_bid_state(a, cfg));
END
$$;--> statement-breakpoint

-- Closes up to p_limit auctions whose end time has passed (issue 4), and auctions marked ended by
-- other means that were never closed. Each row is locked and re-checked, and rows another
-- instance holds are skipped, so every auction is closed exactly once however many schedulers
-- run. The winner is the leader; an auction without one falls back to its highest bid, the earliest on a tie (SPEC §3);
-- an auction without bids ends without a winner. The winner's name, e-mail and WhatsApp come from
-- their profile. Answers one state per closed auction.
CREATE FUNCTION "close_due_auctions"(p_limit integer) RETURNS SETOF jsonb LANGUAGE plpgsql AS $$
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
--> statement-breakpoint

-- Several bids on one auction, decided one after the other, in order, in one transaction: the
-- server groups the bids that arrive while the previous group is being decided (group commit),
-- so a bidding war pays for one commit per group instead of one per bid. Each bid is decided
-- exactly as place_bid alone decides it. Answers one place_bid answer per bid, in order.
CREATE FUNCTION "place_bids"(p_bids jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  b jsonb;
  answers jsonb := '[]'::jsonb;
BEGIN
  FOR b IN SELECT value FROM jsonb_array_elements(p_bids) WITH ORDINALITY ORDER BY ordinality LOOP
    answers := answers || jsonb_build_array(place_bid((b ->> 'auctionId')::uuid, (b ->> 'bidderId')::uuid, (b ->> 'amount')::integer,
      (b ->> 'maxAmount')::integer, b ->> 'key'));
  END LOOP;
  RETURN answers;
END
$$;
