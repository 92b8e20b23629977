ALTER TABLE "show_alerts" ADD COLUMN "served_through" uuid;--> statement-breakpoint
CREATE INDEX "seller_follows_seller_follower_idx" ON "seller_follows" USING btree ("seller_id","follower_id");--> statement-breakpoint
CREATE INDEX "session_reminders_session_user_idx" ON "session_reminders" USING btree ("session_id","user_id");--> statement-breakpoint
DROP INDEX "seller_follows_seller_idx";--> statement-breakpoint
DROP INDEX "session_reminders_session_idx";
