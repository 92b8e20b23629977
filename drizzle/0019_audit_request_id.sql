ALTER TABLE "audit_log" ADD COLUMN "request_id" text;--> statement-breakpoint
CREATE INDEX "audit_log_request_idx" ON "audit_log" USING btree ("request_id");--> statement-breakpoint
-- Actions keep one spelling, in the snake_case and the 'payment' area most of them already had: old rows are rewritten so a filter on an action finds them all.
UPDATE "audit_log" SET "action" = 'payment.add_auctions' WHERE "action" = 'payment.addAuctions';--> statement-breakpoint
UPDATE "audit_log" SET "action" = 'payment.request_payout' WHERE "action" = 'payment.requestPayout';--> statement-breakpoint
UPDATE "audit_log" SET "action" = 'payment.mark_paid_out' WHERE "action" = 'payment.markPaidOut';--> statement-breakpoint
UPDATE "audit_log" SET "action" = 'unpaid.second_chance.decline' WHERE "action" = 'unpaid.secondChance.decline';--> statement-breakpoint
UPDATE "audit_log" SET "action" = 'payment.connect' WHERE "action" = 'payments.connect';
