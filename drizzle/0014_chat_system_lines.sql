ALTER TABLE "chat_messages" ADD COLUMN "system_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_system_key" ON "chat_messages" USING btree ("session_id","system_key");