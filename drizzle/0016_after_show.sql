CREATE TABLE "buyer_strikes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" uuid,
	CONSTRAINT "buyer_strikes_payment_key" UNIQUE("payment_id")
);
--> statement-breakpoint
CREATE TABLE "expired_lots" (
	"payment_id" uuid NOT NULL,
	"auction_id" uuid NOT NULL,
	"decision" text,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expired_lots_payment_id_auction_id_pk" PRIMARY KEY("payment_id","auction_id"),
	CONSTRAINT "expired_lots_decision_valid" CHECK ("expired_lots"."decision" is null or "expired_lots"."decision" in ('secondChance', 'futureShow', 'released'))
);
--> statement-breakpoint
CREATE TABLE "live_lot_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"lot_id" uuid NOT NULL,
	"auction_id" uuid NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "live_viewer_samples" (
	"session_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"viewers" integer NOT NULL,
	CONSTRAINT "live_viewer_samples_session_id_at_pk" PRIMARY KEY("session_id","at"),
	CONSTRAINT "live_viewer_samples_viewers_valid" CHECK ("live_viewer_samples"."viewers" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payment_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"channel" text DEFAULT 'waMe' NOT NULL,
	"status" text DEFAULT 'due' NOT NULL,
	"provider_message_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"status_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_reminders_payment_kind_key" UNIQUE("payment_id","kind"),
	CONSTRAINT "payment_reminders_kind_valid" CHECK ("payment_reminders"."kind" in ('bill', 'afterLink', 'beforeDeadline', 'secondChance')),
	CONSTRAINT "payment_reminders_channel_valid" CHECK ("payment_reminders"."channel" in ('waMe', 'cloud')),
	CONSTRAINT "payment_reminders_status_valid" CHECK ("payment_reminders"."status" in ('due', 'sending', 'sent', 'delivered', 'read', 'failed', 'skipped'))
);
--> statement-breakpoint
CREATE TABLE "second_chance_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"auction_id" uuid NOT NULL,
	"expired_payment_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"payment_id" uuid,
	"status" text DEFAULT 'offered' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "second_chance_offers_status_valid" CHECK ("second_chance_offers"."status" in ('offered', 'paid', 'declined', 'expired', 'canceled')),
	CONSTRAINT "second_chance_offers_amount_valid" CHECK ("second_chance_offers"."amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "payment_deadline_hours" integer DEFAULT 72 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "strike_limit" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "company_blocks" ADD COLUMN "reason" text DEFAULT 'moderation' NOT NULL;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD COLUMN "shipping_rules" jsonb;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD COLUMN "payment_deadline_hours" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "session_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "link_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "deadline_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "expired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "buyer_strikes" ADD CONSTRAINT "buyer_strikes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_strikes" ADD CONSTRAINT "buyer_strikes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_strikes" ADD CONSTRAINT "buyer_strikes_lifted_by_users_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expired_lots" ADD CONSTRAINT "expired_lots_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expired_lots" ADD CONSTRAINT "expired_lots_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expired_lots" ADD CONSTRAINT "expired_lots_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_lot_runs" ADD CONSTRAINT "live_lot_runs_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_lot_runs" ADD CONSTRAINT "live_lot_runs_lot_id_live_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."live_lots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_lot_runs" ADD CONSTRAINT "live_lot_runs_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_viewer_samples" ADD CONSTRAINT "live_viewer_samples_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_reminders" ADD CONSTRAINT "payment_reminders_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_chance_offers" ADD CONSTRAINT "second_chance_offers_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_chance_offers" ADD CONSTRAINT "second_chance_offers_expired_payment_id_payments_id_fk" FOREIGN KEY ("expired_payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_chance_offers" ADD CONSTRAINT "second_chance_offers_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_chance_offers" ADD CONSTRAINT "second_chance_offers_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "second_chance_offers" ADD CONSTRAINT "second_chance_offers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buyer_strikes_company_user_idx" ON "buyer_strikes" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "live_lot_runs_session_idx" ON "live_lot_runs" USING btree ("session_id","opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_reminders_message_key" ON "payment_reminders" USING btree ("provider_message_id") WHERE "payment_reminders"."provider_message_id" is not null;--> statement-breakpoint
CREATE INDEX "payment_reminders_due_idx" ON "payment_reminders" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "second_chance_offers_buyer_idx" ON "second_chance_offers" USING btree ("buyer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "second_chance_offers_one_open" ON "second_chance_offers" USING btree ("auction_id") WHERE "second_chance_offers"."status" = 'offered';--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_session_idx" ON "payments" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "payments_pending_deadline_idx" ON "payments" USING btree ("deadline_at") WHERE "payments"."payment_status" = 'pending';--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_payment_deadline_valid" CHECK ("companies"."payment_deadline_hours" between 1 and 720);--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_strike_limit_valid" CHECK ("companies"."strike_limit" between 1 and 10);--> statement-breakpoint
ALTER TABLE "company_blocks" ADD CONSTRAINT "company_blocks_reason_valid" CHECK ("company_blocks"."reason" in ('moderation', 'strikes'));--> statement-breakpoint
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_payment_deadline_valid" CHECK ("live_sessions"."payment_deadline_hours" is null or "live_sessions"."payment_deadline_hours" between 1 and 720);