-- Why an auction takes no bid or purchase from this user now, or null: it is not open (pending,
-- ended, or its time ran out), the user is its seller or of its company, or the company's
-- moderators blocked the user from its shows and auctions (company_blocks): 'BUYER_STRUCK' when
-- the block came from unpaid bills reaching the company's strike limit, else 'BUYER_BLOCKED'.
CREATE OR REPLACE FUNCTION "bid_refusal"(a "auctions", p_user uuid, p_company text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_reason text;
BEGIN
  IF a."status" NOT IN ('active', 'live') OR a."end_time" IS NULL OR a."end_time" <= clock_timestamp() THEN RETURN 'AUCTION_CLOSED'; END IF;
  IF a."seller_id" = p_user OR a."company_id" = p_company THEN RETURN 'OWN_AUCTION'; END IF;
  SELECT "reason" INTO v_reason FROM "company_blocks" WHERE "company_id" = a."company_id" AND "user_id" = p_user;
  IF FOUND THEN RETURN CASE WHEN v_reason = 'strikes' THEN 'BUYER_STRUCK' ELSE 'BUYER_BLOCKED' END; END IF;
  RETURN NULL;
END
$$;
