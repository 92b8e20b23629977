CREATE TABLE "chat_address_pace" (
	"session_id" uuid NOT NULL,
	"address_hash" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chat_address_pace_session_id_address_hash_pk" PRIMARY KEY("session_id","address_hash")
);
--> statement-breakpoint
ALTER TABLE "chat_address_pace" ADD CONSTRAINT "chat_address_pace_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE cascade ON UPDATE no action;