CREATE TABLE "bid_keys" (
	"bidder_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"auction_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"lines" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bid_keys_bidder_id_idempotency_key_pk" PRIMARY KEY("bidder_id","idempotency_key"),
	CONSTRAINT "bid_keys_outcome_valid" CHECK ("bid_keys"."outcome" in ('leading', 'outbid', 'maxRaised'))
);
--> statement-breakpoint
ALTER TABLE "bid_keys" ADD CONSTRAINT "bid_keys_bidder_id_users_id_fk" FOREIGN KEY ("bidder_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bid_keys" ADD CONSTRAINT "bid_keys_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bid_keys_auction_idx" ON "bid_keys" USING btree ("auction_id");--> statement-breakpoint
-- Keys recorded before bid_keys (on the bidder's own line in bids) answer as they did: the outcome
-- from the leader now, and the line itself.
INSERT INTO "bid_keys" ("bidder_id", "idempotency_key", "auction_id", "outcome", "lines", "created_at")
SELECT b."bidder_id", b."idempotency_key", b."auction_id", CASE WHEN a."leader_id" = b."bidder_id" THEN 'leading' ELSE 'outbid' END,
  jsonb_build_array(jsonb_build_object('seq', b."seq", 'bidderId', b."bidder_id", 'bidderName', b."bidder_name", 'amount', b."amount",
    'isAutomatic', b."is_automatic", 'createdAt', floor(extract(epoch FROM b."created_at") * 1000)::bigint)),
  b."created_at"
FROM "bids" b JOIN "auctions" a ON a."id" = b."auction_id"
WHERE b."idempotency_key" IS NOT NULL;--> statement-breakpoint
-- From here the bid engine's functions live in src/server/db/functions/, one per file, applied
-- after the migrations whenever a file changes (src/server/db/apply-functions.ts). Functions no
-- longer called: bidder_display_name was defined by 0003 as it first landed, before bidder_facts.
DROP FUNCTION IF EXISTS "bidder_display_name"(uuid);
