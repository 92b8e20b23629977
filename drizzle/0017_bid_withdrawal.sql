ALTER TABLE "bids" ADD COLUMN "typed_amount" integer;--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "withdrawn_at" timestamp with time zone;