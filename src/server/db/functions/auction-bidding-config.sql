-- The increment and anti-snipe window of an auction: its live session's biddingConfig when it is
-- a lot of a session that has not ended (the session showing it now first), else SPEC §9's defaults.
CREATE OR REPLACE FUNCTION "auction_bidding_config"(p_auction uuid) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
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
$$;
