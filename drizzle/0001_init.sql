CREATE TABLE "auctions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"name_tokens" text[] DEFAULT ARRAY[]::text[] NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	"description" text NOT NULL,
	"starting_price" integer NOT NULL,
	"buy_now_price" integer,
	"current_price" integer,
	"bid_count" integer DEFAULT 0 NOT NULL,
	"images" text[] DEFAULT ARRAY[]::text[] NOT NULL,
	"category_id" uuid,
	"condicion" text,
	"marca" text,
	"envio" text,
	"end_time" timestamp with time zone,
	"status" text DEFAULT 'pending' NOT NULL,
	"current_winner_id" uuid,
	"current_winner_name" text,
	"winner_email" text,
	"winner_whatsapp" text,
	"closed_at" timestamp with time zone,
	"seller_id" uuid,
	"company_id" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auctions_status_valid" CHECK ("auctions"."status" in ('pending', 'active', 'live', 'ended')),
	CONSTRAINT "auctions_condicion_valid" CHECK ("auctions"."condicion" is null or "auctions"."condicion" in ('Nuevo', 'Como Nuevo', 'Usado + (Excelente)', 'Usado (Buen Estado)', 'Usado - (Aceptable)', 'Aceptable/Funcional', 'Reparación/Piezas')),
	CONSTRAINT "auctions_prices_valid" CHECK ("auctions"."starting_price" >= 0 and ("auctions"."buy_now_price" is null or "auctions"."buy_now_price" > "auctions"."starting_price")),
	CONSTRAINT "auctions_images_max" CHECK (cardinality("auctions"."images") <= 6),
	CONSTRAINT "auctions_name_present" CHECK (length(trim("auctions"."name")) > 0)
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_agent" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "bids" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"auction_id" uuid NOT NULL,
	"bidder_id" uuid NOT NULL,
	"bidder_name" text NOT NULL,
	"amount" integer NOT NULL,
	"max_amount" integer,
	"is_automatic" boolean DEFAULT false NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bids_amount_positive" CHECK ("bids"."amount" > 0),
	CONSTRAINT "bids_max_valid" CHECK ("bids"."max_amount" is null or "bids"."max_amount" >= "bids"."amount")
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_name_present" CHECK (length(trim("categories"."name")) > 0)
);
--> statement-breakpoint
CREATE TABLE "live_lots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"auction_id" uuid NOT NULL,
	"order" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_lots_session_order_key" UNIQUE("session_id","order"),
	CONSTRAINT "live_lots_session_auction_key" UNIQUE("session_id","auction_id"),
	CONSTRAINT "live_lots_order_positive" CHECK ("live_lots"."order" >= 1),
	CONSTRAINT "live_lots_status_valid" CHECK ("live_lots"."status" in ('queued', 'finished', 'passed'))
);
--> statement-breakpoint
CREATE TABLE "live_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"seller_id" uuid NOT NULL,
	"company_id" text NOT NULL,
	"seller_slug" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"whatsapp_link" text,
	"stream_type" text DEFAULT 'none' NOT NULL,
	"cover_image_url" text,
	"current_lot_id" uuid,
	"bidding_config" jsonb DEFAULT '{"minIncrement":20,"antiSnipeSeconds":10,"timerSecondsDefault":60}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_stream_start" timestamp with time zone,
	"last_stream_stop" timestamp with time zone,
	CONSTRAINT "live_sessions_status_valid" CHECK ("live_sessions"."status" in ('scheduled', 'live', 'paused', 'ended')),
	CONSTRAINT "live_sessions_stream_valid" CHECK ("live_sessions"."stream_type" in ('none', 'p2p', 'janus', 'agora')),
	CONSTRAINT "live_sessions_title_present" CHECK (length(trim("live_sessions"."title")) > 0)
);
--> statement-breakpoint
CREATE TABLE "oidc_logins" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"return_to" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_items" (
	"payment_id" uuid NOT NULL,
	"payment_status" text NOT NULL,
	"auction_id" uuid NOT NULL,
	"auction_name" text NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_items_payment_id_auction_id_pk" PRIMARY KEY("payment_id","auction_id"),
	CONSTRAINT "payment_items_amount_valid" CHECK ("payment_items"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"winner_id" uuid NOT NULL,
	"winner_name" text NOT NULL,
	"winner_whatsapp" text,
	"seller_id" uuid,
	"company_id" text NOT NULL,
	"company_name" text,
	"total_amount" integer DEFAULT 0 NOT NULL,
	"shipping_carrier" text,
	"shipping_cost" integer DEFAULT 0 NOT NULL,
	"grand_total" integer GENERATED ALWAYS AS (total_amount + shipping_cost) STORED,
	"payment_status" text DEFAULT 'draft' NOT NULL,
	"payment_link" text,
	"provider" text,
	"mp_payment_id" text,
	"mp_preference_id" text,
	"link_expires_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"payout_status" text DEFAULT 'none' NOT NULL,
	"payout_requested_at" timestamp with time zone,
	"paid_out_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_id_status_key" UNIQUE("id","payment_status"),
	CONSTRAINT "payments_status_valid" CHECK ("payments"."payment_status" in ('draft', 'pending', 'paid', 'canceled')),
	CONSTRAINT "payments_payout_valid" CHECK ("payments"."payout_status" in ('none', 'requested', 'paid_out')),
	CONSTRAINT "payments_amounts_valid" CHECK ("payments"."total_amount" >= 0 and "payments"."shipping_cost" >= 0)
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid,
	"company_id" text,
	"kind" text NOT NULL,
	"storage_key" text NOT NULL,
	"url" text NOT NULL,
	"thumbnail_key" text,
	"thumbnail_url" text,
	"content_type" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer,
	"height" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uploads_kind_valid" CHECK ("uploads"."kind" in ('auction_image', 'session_cover', 'quick_auction'))
);
--> statement-breakpoint
CREATE TABLE "user_profiles" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"first_name" text,
	"last_name" text,
	"display_name" text,
	"email" text NOT NULL,
	"company_name" text,
	"company_id" text,
	"whatsapp" text,
	"whatsapp_country_code" text,
	"whatsapp_local" text,
	"whatsapp_consent_given" boolean DEFAULT false NOT NULL,
	"whatsapp_consent_at" timestamp with time zone,
	"roles" text[] DEFAULT ARRAY['buyer']::text[] NOT NULL,
	"mp_access_token" text,
	"mp_refresh_token" text,
	"mp_token_expires_at" timestamp with time zone,
	"mp_live_mode" boolean,
	"mp_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_profiles_roles_valid" CHECK ("user_profiles"."roles" <@ ARRAY['admin', 'seller', 'buyer']::text[])
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"oidc_issuer" text,
	"oidc_subject" text,
	"email_verified" boolean DEFAULT false NOT NULL,
	"avatar_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	CONSTRAINT "users_email_lower" CHECK ("users"."email" = lower("users"."email"))
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"topic" text,
	"resource_id" text,
	"signature_valid" boolean NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_current_winner_id_users_id_fk" FOREIGN KEY ("current_winner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auctions" ADD CONSTRAINT "auctions_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bids" ADD CONSTRAINT "bids_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bids" ADD CONSTRAINT "bids_bidder_id_users_id_fk" FOREIGN KEY ("bidder_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_lots" ADD CONSTRAINT "live_lots_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_lots" ADD CONSTRAINT "live_lots_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_current_lot_id_live_lots_id_fk" FOREIGN KEY ("current_lot_id") REFERENCES "public"."live_lots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_items" ADD CONSTRAINT "payment_items_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_items" ADD CONSTRAINT "payment_items_payment_fk" FOREIGN KEY ("payment_id","payment_status") REFERENCES "public"."payments"("id","payment_status") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_winner_id_users_id_fk" FOREIGN KEY ("winner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD CONSTRAINT "user_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auctions_company_created_idx" ON "auctions" USING btree ("company_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "auctions_seller_created_idx" ON "auctions" USING btree ("seller_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "auctions_created_idx" ON "auctions" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "auctions_name_idx" ON "auctions" USING btree ("name");--> statement-breakpoint
CREATE INDEX "auctions_category_idx" ON "auctions" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "auctions_winner_idx" ON "auctions" USING btree ("current_winner_id");--> statement-breakpoint
CREATE INDEX "auctions_open_end_idx" ON "auctions" USING btree ("end_time") WHERE "auctions"."status" in ('active', 'live');--> statement-breakpoint
CREATE INDEX "auctions_name_tokens_idx" ON "auctions" USING gin ("name_tokens");--> statement-breakpoint
CREATE INDEX "auctions_search_trgm_idx" ON "auctions" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity_type","entity_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "auth_sessions_token_key" ON "auth_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "auth_sessions_user_idx" ON "auth_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_sessions_expires_idx" ON "auth_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "bids_auction_amount_idx" ON "bids" USING btree ("auction_id","amount" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bids_auction_created_idx" ON "bids" USING btree ("auction_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bids_bidder_idx" ON "bids" USING btree ("bidder_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "bids_idempotency_key" ON "bids" USING btree ("bidder_id","idempotency_key") WHERE "bids"."idempotency_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_name_key" ON "categories" USING btree ("name_key");--> statement-breakpoint
CREATE INDEX "live_lots_auction_idx" ON "live_lots" USING btree ("auction_id");--> statement-breakpoint
CREATE INDEX "live_sessions_company_scheduled_idx" ON "live_sessions" USING btree ("company_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "live_sessions_seller_scheduled_idx" ON "live_sessions" USING btree ("seller_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "live_sessions_scheduled_idx" ON "live_sessions" USING btree ("scheduled_at");--> statement-breakpoint
CREATE INDEX "live_sessions_slug_idx" ON "live_sessions" USING btree ("seller_slug");--> statement-breakpoint
CREATE INDEX "oidc_logins_expires_idx" ON "oidc_logins" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_items_one_holding_payment" ON "payment_items" USING btree ("auction_id") WHERE "payment_items"."payment_status" in ('draft', 'pending', 'paid');--> statement-breakpoint
CREATE INDEX "payment_items_auction_idx" ON "payment_items" USING btree ("auction_id","payment_status");--> statement-breakpoint
CREATE INDEX "payments_company_status_idx" ON "payments" USING btree ("company_id","payment_status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_seller_status_idx" ON "payments" USING btree ("seller_id","payment_status");--> statement-breakpoint
CREATE INDEX "payments_winner_idx" ON "payments" USING btree ("winner_id");--> statement-breakpoint
CREATE INDEX "payments_status_created_idx" ON "payments" USING btree ("payment_status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "payments_mp_payment_key" ON "payments" USING btree ("mp_payment_id") WHERE "payments"."mp_payment_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_mp_preference_idx" ON "payments" USING btree ("mp_preference_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_storage_key" ON "uploads" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "uploads_owner_idx" ON "uploads" USING btree ("owner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_profiles_company_idx" ON "user_profiles" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "user_profiles_roles_idx" ON "user_profiles" USING gin ("roles");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_identity_key" ON "users" USING btree ("oidc_issuer","oidc_subject");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_provider_event_key" ON "webhook_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "webhook_events_resource_idx" ON "webhook_events" USING btree ("provider","resource_id");--> statement-breakpoint
CREATE INDEX "webhook_events_received_idx" ON "webhook_events" USING btree ("received_at" DESC NULLS LAST);