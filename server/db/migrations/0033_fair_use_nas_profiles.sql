CREATE TABLE "subscription_top_ups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"package_id" uuid,
	"kind" varchar(16) NOT NULL,
	"extra_bytes" bigint DEFAULT 0 NOT NULL,
	"price" integer NOT NULL,
	"currency" varchar(3) NOT NULL,
	"cycle_start" timestamp with time zone NOT NULL,
	"cycle_end" timestamp with time zone NOT NULL,
	"invoice_id" uuid,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"activated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "top_up_packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(80) NOT NULL,
	"kind" varchar(16) NOT NULL,
	"data_gb" integer,
	"price" integer NOT NULL,
	"currency" varchar(3) NOT NULL,
	"status" varchar(16) DEFAULT 'active' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "top_up_packages_price_non_negative" CHECK ("top_up_packages"."price" >= 0),
	CONSTRAINT "top_up_packages_data" CHECK (("top_up_packages"."kind" <> 'extra_data') OR ("top_up_packages"."data_gb" IS NOT NULL AND "top_up_packages"."data_gb" > 0))
);
--> statement-breakpoint
CREATE TABLE "usage_cycle_counters" (
	"subscription_id" uuid NOT NULL,
	"cycle_start" timestamp with time zone NOT NULL,
	"input_octets" bigint DEFAULT 0 NOT NULL,
	"output_octets" bigint DEFAULT 0 NOT NULL,
	"tier" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_cycle_counters_subscription_id_cycle_start_pk" PRIMARY KEY("subscription_id","cycle_start")
);
--> statement-breakpoint
CREATE TABLE "usage_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"cycle_start" timestamp with time zone NOT NULL,
	"tier" integer NOT NULL,
	"threshold" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "usage_tiers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "radius_disconnects" ADD COLUMN "expected_policy" varchar(255);--> statement-breakpoint
ALTER TABLE "radius_disconnects" ADD COLUMN "verify_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "radius_sessions" ADD COLUMN "reported_policy" varchar(255);--> statement-breakpoint
ALTER TABLE "subscription_top_ups" ADD CONSTRAINT "subscription_top_ups_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_top_ups" ADD CONSTRAINT "subscription_top_ups_package_id_top_up_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."top_up_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_top_ups" ADD CONSTRAINT "subscription_top_ups_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_cycle_counters" ADD CONSTRAINT "usage_cycle_counters_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_notices" ADD CONSTRAINT "usage_notices_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_top_ups_subscription_cycle_idx" ON "subscription_top_ups" USING btree ("subscription_id","cycle_start");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_top_ups_invoice_unique" ON "subscription_top_ups" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "top_up_packages_status_idx" ON "top_up_packages" USING btree ("status","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_notices_unique" ON "usage_notices" USING btree ("subscription_id","cycle_start","tier","threshold");--> statement-breakpoint
CREATE INDEX "radius_disconnects_verify_by_idx" ON "radius_disconnects" USING btree ("verify_by");