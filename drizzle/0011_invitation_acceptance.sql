DROP INDEX "invitations_open_email_key";--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "declined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "declined_by" uuid;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_declined_by_users_id_fk" FOREIGN KEY ("declined_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_open_email_company_key" ON "invitations" USING btree ("email","company_id") WHERE "invitations"."accepted_at" IS NULL AND "invitations"."revoked_at" IS NULL AND "invitations"."declined_at" IS NULL;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_answered_once" CHECK ("invitations"."accepted_at" IS NULL OR "invitations"."declined_at" IS NULL);