ALTER TABLE "live_sessions" DROP CONSTRAINT "live_sessions_stream_valid";--> statement-breakpoint
-- 'p2p' was a placeholder no broadcast ever used; the embedded SFU replaces it.
UPDATE "live_sessions" SET "stream_type" = 'embedded' WHERE "stream_type" = 'p2p';--> statement-breakpoint
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_stream_valid" CHECK ("live_sessions"."stream_type" in ('none', 'embedded', 'janus', 'agora'));
