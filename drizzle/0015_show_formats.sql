CREATE TABLE "prebids" (
	"auction_id" uuid NOT NULL,
	"bidder_id" uuid NOT NULL,
	"max_amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"entered_at" timestamp with time zone,
	"outcome" text,
	CONSTRAINT "prebids_auction_id_bidder_id_pk" PRIMARY KEY("auction_id","bidder_id"),
	CONSTRAINT "prebids_max_positive" CHECK ("prebids"."max_amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "rehearsal_snapshots" (
	"session_id" uuid NOT NULL,
	"auction_id" uuid NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rehearsal_snapshots_session_id_auction_id_pk" PRIMARY KEY("session_id","auction_id")
);
--> statement-breakpoint
ALTER TABLE "live_sessions" ALTER COLUMN "bidding_config" SET DEFAULT '{"minIncrement":20,"antiSnipeSeconds":10,"timerSecondsDefault":60,"timerMode":"extend","counterBidWindowSeconds":10,"counterBidResetSeconds":10,"incrementBands":null,"autoAdvanceSeconds":null}'::jsonb;--> statement-breakpoint
ALTER TABLE "live_lots" ADD COLUMN "timer_mode" text;--> statement-breakpoint
ALTER TABLE "live_lots" ADD COLUMN "counter_bid_window_seconds" integer;--> statement-breakpoint
ALTER TABLE "live_lots" ADD COLUMN "counter_bid_reset_seconds" integer;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD COLUMN "rehearsal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD COLUMN "auto_advance_paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_simulated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "prebids" ADD CONSTRAINT "prebids_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prebids" ADD CONSTRAINT "prebids_bidder_id_users_id_fk" FOREIGN KEY ("bidder_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearsal_snapshots" ADD CONSTRAINT "rehearsal_snapshots_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rehearsal_snapshots" ADD CONSTRAINT "rehearsal_snapshots_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prebids_auction_created_idx" ON "prebids" USING btree ("auction_id","created_at");--> statement-breakpoint
CREATE INDEX "prebids_bidder_idx" ON "prebids" USING btree ("bidder_id");--> statement-breakpoint
CREATE INDEX "rehearsal_snapshots_auction_idx" ON "rehearsal_snapshots" USING btree ("auction_id");--> statement-breakpoint
ALTER TABLE "live_lots" ADD CONSTRAINT "live_lots_timer_mode_valid" CHECK ("live_lots"."timer_mode" is null or "live_lots"."timer_mode" in ('counterBid', 'suddenDeath', 'extend'));--> statement-breakpoint
ALTER TABLE "live_lots" ADD CONSTRAINT "live_lots_counter_bid_valid" CHECK (("live_lots"."counter_bid_window_seconds" is null or "live_lots"."counter_bid_window_seconds" between 1 and 300) and ("live_lots"."counter_bid_reset_seconds" is null or "live_lots"."counter_bid_reset_seconds" between 1 and 300));