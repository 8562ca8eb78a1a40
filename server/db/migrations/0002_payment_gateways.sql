CREATE TABLE "payment_gateways" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(80) NOT NULL,
	"provider" varchar(32) NOT NULL,
	"mode" varchar(8) DEFAULT 'test' NOT NULL,
	"credentials" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_gateways_name_unique" ON "payment_gateways" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "payment_gateways_one_default" ON "payment_gateways" USING btree ("is_default") WHERE "payment_gateways"."is_default";--> statement-breakpoint
CREATE INDEX "payment_gateways_display_order_idx" ON "payment_gateways" USING btree ("display_order");