ALTER TABLE "credit_entries" DROP CONSTRAINT "credit_entries_sign";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "period_paid_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "payments_created_at_id_idx" ON "payments" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Issue 31, existing data: a customer keeps only their newest pending order; older ones are cancelled with their
-- open invoices, and any credit those invoices had applied goes back to the customer (released_from_invoice).
UPDATE "subscriptions" SET "status" = 'cancelled', "updated_at" = now()
WHERE "status" = 'pending' AND "id" NOT IN (
  SELECT DISTINCT ON ("user_id") "id" FROM "subscriptions" WHERE "status" = 'pending' ORDER BY "user_id", "created_at" DESC, "id" DESC
);--> statement-breakpoint
UPDATE "invoices" SET "status" = 'cancelled', "updated_at" = now()
WHERE "status" IN ('unpaid', 'overdue') AND "subscription_id" IN (SELECT "id" FROM "subscriptions" WHERE "status" = 'cancelled' AND "current_period_start" IS NULL);--> statement-breakpoint
INSERT INTO "credit_entries" ("user_id", "kind", "amount", "currency", "reason", "invoice_id", "created_at")
SELECT i."user_id", 'released_from_invoice', i."credit_applied", i."currency", 'Invoice ' || i."number" || ' cancelled: credit returned', i."id", now()
FROM "invoices" i
WHERE i."status" = 'cancelled' AND i."credit_applied" > 0
  AND NOT EXISTS (SELECT 1 FROM "credit_entries" c WHERE c."invoice_id" = i."id" AND c."kind" = 'released_from_invoice');--> statement-breakpoint
-- Credit applied to invoices deleted before this release was lost with them (the entry kept, its invoice gone): returned.
INSERT INTO "credit_entries" ("user_id", "kind", "amount", "currency", "reason", "created_at")
SELECT c."user_id", 'released_from_invoice', -c."amount", c."currency", 'Credit of a deleted invoice returned', now()
FROM "credit_entries" c WHERE c."kind" = 'applied_to_invoice' AND c."invoice_id" IS NULL;--> statement-breakpoint
-- A period that is running was paid for under the old rules: its plan's price is the unused-days basis.
UPDATE "subscriptions" s SET "period_paid_amount" = p."price" FROM "plans" p
WHERE p."id" = s."plan_id" AND s."status" IN ('active', 'suspended') AND s."current_period_end" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_one_pending_per_user" ON "subscriptions" USING btree ("user_id") WHERE "subscriptions"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "credit_entries_one_release_per_invoice" ON "credit_entries" USING btree ("invoice_id") WHERE "credit_entries"."kind" = 'released_from_invoice';--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_sign" CHECK (("credit_entries"."kind" in ('applied_to_invoice', 'overpayment_reversed') and "credit_entries"."amount" < 0) or ("credit_entries"."kind" in ('overpayment', 'refund_to_credit', 'released_from_invoice') and "credit_entries"."amount" > 0) or "credit_entries"."kind" = 'adjustment');