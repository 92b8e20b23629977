-- The increment at a price, as domain/bid-rules.ts incrementAt decides it: with a band table
-- (p_config -> 'incrementBands', ascending by "from", the first from 0) the increment of the band
-- whose "from" is the highest not above the price (the first band's below every "from"); without
-- one, the flat minIncrement. p_config is what auction_bidding_config answers. The bid engine asks
-- it for the price a bid must beat and for the step a maximum answers with, so the band is always
-- that of the price being raised from.
CREATE OR REPLACE FUNCTION "bid_increment"(p_config jsonb, p_price integer) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  bands jsonb := p_config -> 'incrementBands';
  v_inc integer := (p_config ->> 'minIncrement')::integer;
BEGIN
  IF jsonb_typeof(bands) IS DISTINCT FROM 'array' OR jsonb_array_length(bands) = 0 THEN RETURN v_inc; END IF;
  v_inc := coalesce((bands -> 0 ->> 'increment')::integer, v_inc);
  IF p_price IS NULL THEN RETURN v_inc; END IF;
  -- By index, not jsonb_array_elements: no query to plan, and the table is a handful of rows.
  FOR i IN 0..jsonb_array_length(bands) - 1 LOOP
    EXIT WHEN p_price < (bands -> i ->> 'from')::integer;
    v_inc := (bands -> i ->> 'increment')::integer;
  END LOOP;
  RETURN v_inc;
END
$$;
