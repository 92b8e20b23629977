CREATE TABLE "live_idempotency_keys" (
	"user_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"session_id" uuid,
	"auction_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_idempotency_keys_user_id_idempotency_key_pk" PRIMARY KEY("user_id","idempotency_key"),
	CONSTRAINT "live_idempotency_keys_key_length" CHECK (length("live_idempotency_keys"."idempotency_key") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "live_idempotency_keys" ADD CONSTRAINT "live_idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_idempotency_keys_created_idx" ON "live_idempotency_keys" USING btree ("created_at");