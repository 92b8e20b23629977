CREATE TABLE "recording_segments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"source" text NOT NULL,
	"files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"host" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recording_segments_source_valid" CHECK ("recording_segments"."source" in ('embedded', 'janus'))
);
--> statement-breakpoint
CREATE TABLE "replay_clips" (
	"auction_id" uuid PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"video_key" text,
	"start_ms" integer NOT NULL,
	"end_ms" integer NOT NULL,
	"duration_ms" integer,
	"error" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "replay_clips_status_valid" CHECK ("replay_clips"."status" in ('pending', 'ready', 'failed')),
	CONSTRAINT "replay_clips_span_valid" CHECK ("replay_clips"."end_ms" > "replay_clips"."start_ms")
);
--> statement-breakpoint
CREATE TABLE "replays" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'recording' NOT NULL,
	"visibility" text DEFAULT 'public' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"video_key" text,
	"poster_key" text,
	"duration_ms" integer,
	"height" integer,
	"chapters" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"leased_until" timestamp with time zone,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "replays_status_valid" CHECK ("replays"."status" in ('recording', 'processing', 'ready', 'failed')),
	CONSTRAINT "replays_visibility_valid" CHECK ("replays"."visibility" in ('public', 'hidden')),
	CONSTRAINT "replays_progress_valid" CHECK ("replays"."progress" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "record_shows" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "live_sessions" ADD COLUMN "recording" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "recording_segments" ADD CONSTRAINT "recording_segments_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_clips" ADD CONSTRAINT "replay_clips_auction_id_auctions_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_clips" ADD CONSTRAINT "replay_clips_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replays" ADD CONSTRAINT "replays_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recording_segments_session_idx" ON "recording_segments" USING btree ("session_id","started_at");--> statement-breakpoint
CREATE INDEX "replay_clips_session_idx" ON "replay_clips" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "replay_clips_expires_idx" ON "replay_clips" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "replays_processing_idx" ON "replays" USING btree ("leased_until") WHERE "replays"."status" = 'processing';--> statement-breakpoint
CREATE INDEX "replays_expires_idx" ON "replays" USING btree ("expires_at");