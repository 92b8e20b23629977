-- How an auction is bid and timed: its live session's biddingConfig when it is a lot of a session
-- that has not ended (the session showing it now first), with the lot's own timer format laid
-- over it, else SPEC §9's defaults. Always answers every key, normalised:
--   minIncrement, incrementBands (null or [{from, increment}] ascending from 0),
--   timerMode ('counterBid' | 'suddenDeath' | 'extend'),
--   antiSnipeSeconds: the window W in force (Extender's window, Contrapuja's W, 0 for sudden death),
--   counterBidResetSeconds: where a leading bid inside the window sets the clock (R; W under extend; 0).
-- Sessions stored before timer formats had only antiSnipeSeconds, where 0 meant sudden death.
CREATE OR REPLACE FUNCTION "auction_bidding_config"(p_auction uuid) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  cfg jsonb;
  v_lot_mode text;
  v_lot_window integer;
  v_lot_reset integer;
  v_snipe integer;
  v_mode text;
  v_window integer;
  v_reset integer;
BEGIN
  SELECT s."bidding_config", lot."timer_mode", lot."counter_bid_window_seconds", lot."counter_bid_reset_seconds"
    INTO cfg, v_lot_mode, v_lot_window, v_lot_reset FROM "live_lots" lot JOIN "live_sessions" s ON s."id" = lot."session_id"
    WHERE lot."auction_id" = p_auction AND s."status" <> 'ended'
    ORDER BY (s."current_lot_id" IS NOT DISTINCT FROM lot."id") DESC, s."scheduled_at" DESC
    LIMIT 1;
  cfg := coalesce(cfg, '{}'::jsonb);
  v_snipe := greatest(0, coalesce((cfg ->> 'antiSnipeSeconds')::integer, 10));
  v_mode := coalesce(v_lot_mode, cfg ->> 'timerMode', CASE WHEN v_snipe = 0 THEN 'suddenDeath' ELSE 'extend' END);
  v_window := CASE v_mode
    WHEN 'suddenDeath' THEN 0
    WHEN 'counterBid' THEN greatest(1, coalesce(v_lot_window, (cfg ->> 'counterBidWindowSeconds')::integer, 10))
    ELSE v_snipe END;
  v_reset := CASE v_mode
    WHEN 'suddenDeath' THEN 0
    WHEN 'counterBid' THEN greatest(1, coalesce(v_lot_reset, (cfg ->> 'counterBidResetSeconds')::integer, 10))
    ELSE v_snipe END;
  RETURN jsonb_build_object(
    'minIncrement', greatest(1, coalesce((cfg ->> 'minIncrement')::integer, 20)),
    'incrementBands', CASE WHEN jsonb_typeof(cfg -> 'incrementBands') = 'array' AND jsonb_array_length(cfg -> 'incrementBands') > 0
      THEN cfg -> 'incrementBands' ELSE NULL END,
    'timerMode', v_mode,
    'antiSnipeSeconds', v_window,
    'counterBidResetSeconds', v_reset);
END
$$;
