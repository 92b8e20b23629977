-- Why an auction takes no bid or purchase from this user now, or null: it is not open (pending,
-- ended, or its time ran out), the user is its seller or of its company, or the company's
-- moderators blocked the user from its shows and auctions (company_blocks).
CREATE OR REPLACE FUNCTION "bid_refusal"(a "auctions", p_user uuid, p_company text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  IF a."status" NOT IN ('active', 'live') OR a."end_time" IS NULL OR a."end_time" <= clock_timestamp() THEN RETURN 'AUCTION_CLOSED'; END IF;
  IF a."seller_id" = p_user OR a."company_id" = p_company THEN RETURN 'OWN_AUCTION'; END IF;
  IF EXISTS (SELECT 1 FROM "company_blocks" WHERE "company_id" = a."company_id" AND "user_id" = p_user) THEN RETURN 'BUYER_BLOCKED'; END IF;
  RETURN NULL;
END
$$;
