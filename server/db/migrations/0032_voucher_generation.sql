ALTER TABLE "voucher_batches" ADD COLUMN "generated" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "voucher_batches" ADD COLUMN "generated_at" timestamp with time zone;--> statement-breakpoint
-- Batches made before this migration were made whole, in their create request.
UPDATE "voucher_batches" SET "generated" = "count", "generated_at" = "created_at";--> statement-breakpoint
ALTER TABLE "voucher_batches" ADD CONSTRAINT "voucher_batches_generated_range" CHECK ("voucher_batches"."generated" >= 0 and "voucher_batches"."generated" <= "voucher_batches"."count");