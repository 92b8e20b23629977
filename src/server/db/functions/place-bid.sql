-- One bid: a group of one.
CREATE OR REPLACE FUNCTION "place_bid"(p_auction uuid, p_bidder uuid, p_amount integer, p_max integer, p_key text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  RETURN place_bids(jsonb_build_array(jsonb_build_object('auctionId', p_auction, 'bidderId', p_bidder, 'amount', p_amount,
    'maxAmount', p_max, 'key', p_key))) -> 0;
END
$$;
