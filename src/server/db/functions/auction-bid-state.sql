-- What a bid answer carries about the auction: the row's public state plus the private leader
-- fields, which the server strips before anything leaves it. minIncrement is the flat one; the
-- presenter takes the band of the current price (domain/bid-rules.ts incrementAt).
CREATE OR REPLACE FUNCTION "auction_bid_state"(a "auctions", p_config jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  RETURN jsonb_build_object(
      'id', a."id", 'name', a."name", 'companyId', a."company_id", 'version', a."version", 'status', a."status",
      'currentPrice', a."current_price", 'bidCount', a."bid_count", 'startingPrice', a."starting_price",
      'buyNowPrice', a."buy_now_price",
      'endTime', floor(extract(epoch FROM a."end_time") * 1000)::bigint,
      'leaderId', a."leader_id", 'leaderMax', a."leader_max",
      'winnerId', a."current_winner_id", 'winnerName', a."current_winner_name",
      'minIncrement', (p_config ->> 'minIncrement')::integer, 'incrementBands', p_config -> 'incrementBands',
      'timerMode', p_config ->> 'timerMode', 'antiSnipeSeconds', (p_config ->> 'antiSnipeSeconds')::integer,
      'counterBidResetSeconds', (p_config ->> 'counterBidResetSeconds')::integer,
      'serverNow', floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint);
END
$$;
