CREATE SEQUENCE "public"."customer_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "customer_number" varchar(20);--> statement-breakpoint
-- Backfill: existing users are numbered in the order they were created, then the sequence continues after them.
WITH "ordered" AS (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS "n" FROM "users")
UPDATE "users" SET "customer_number" = 'C-' || lpad("ordered"."n"::text, 6, '0') FROM "ordered" WHERE "users"."id" = "ordered"."id";--> statement-breakpoint
SELECT setval('customer_number_seq', GREATEST((SELECT count(*) FROM "users"), 1), (SELECT count(*) > 0 FROM "users"));--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "customer_number" SET DEFAULT 'C-' || lpad(nextval('customer_number_seq')::text, 6, '0');--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "customer_number" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_customer_number_unique" ON "users" USING btree ("customer_number" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_email_pattern_idx" ON "users" USING btree ("email" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_name_lower_idx" ON "users" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_phone_pattern_idx" ON "users" USING btree ("phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_created_at_id_idx" ON "users" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);