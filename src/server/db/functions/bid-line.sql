-- One line of the history, as the answer lists it.
CREATE OR REPLACE FUNCTION "bid_line"(b "bids") RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN jsonb_build_object('seq', b."seq", 'bidderId', b."bidder_id", 'bidderName', b."bidder_name", 'amount', b."amount",
      'isAutomatic', b."is_automatic", 'createdAt', floor(extract(epoch FROM b."created_at") * 1000)::bigint);
END
$$;
