-- auction_counts holds, per company and seller, how many auctions are open, won and unpaid, or paid.
-- Adds (p_sign 1) or takes away (p_sign -1) one auction in the state given.
CREATE OR REPLACE FUNCTION "auction_counts_add"(p_company text, p_seller uuid, p_winner uuid, p_paid boolean, p_sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO auction_counts AS c (company_id, seller_id, open, won_unpaid, paid)
  VALUES (
    p_company, p_seller,
    p_sign * (p_winner IS NULL AND NOT p_paid)::integer,
    p_sign * (p_winner IS NOT NULL AND NOT p_paid)::integer,
    p_sign * p_paid::integer
  )
  ON CONFLICT (company_id, seller_id) DO UPDATE
  SET open = c.open + EXCLUDED.open, won_unpaid = c.won_unpaid + EXCLUDED.won_unpaid, paid = c.paid + EXCLUDED.paid
$$;
