CREATE SEQUENCE "public"."installation_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "installation_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"installation_id" uuid NOT NULL,
	"original_name" varchar(255) NOT NULL,
	"size" integer NOT NULL,
	"content_type" varchar(100) NOT NULL,
	"stored_name" varchar(64) NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "installations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" varchar(20) DEFAULT 'I-' || lpad(nextval('installation_number_seq')::text, 6, '0') NOT NULL,
	"subscription_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"address" varchar(300) NOT NULL,
	"contact_phone" varchar(32),
	"preferred_date" date,
	"scheduled_start" timestamp with time zone,
	"scheduled_end" timestamp with time zone,
	"technician_id" uuid,
	"status" varchar(16) DEFAULT 'requested' NOT NULL,
	"checklist" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"notes" text,
	"equipment" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"readings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"failure_reason" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "installation_photos" ADD CONSTRAINT "installation_photos_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installation_photos" ADD CONSTRAINT "installation_photos_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installations" ADD CONSTRAINT "installations_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installations" ADD CONSTRAINT "installations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "installations" ADD CONSTRAINT "installations_technician_id_users_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "installation_photos_installation_idx" ON "installation_photos" USING btree ("installation_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "installation_photos_stored_name_unique" ON "installation_photos" USING btree ("stored_name");--> statement-breakpoint
CREATE UNIQUE INDEX "installations_number_unique" ON "installations" USING btree ("number");--> statement-breakpoint
CREATE INDEX "installations_subscription_idx" ON "installations" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "installations_user_idx" ON "installations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "installations_status_idx" ON "installations" USING btree ("status");--> statement-breakpoint
CREATE INDEX "installations_technician_scheduled_idx" ON "installations" USING btree ("technician_id","scheduled_start");--> statement-breakpoint
CREATE INDEX "installations_scheduled_idx" ON "installations" USING btree ("scheduled_start");--> statement-breakpoint
CREATE INDEX "installations_created_at_id_idx" ON "installations" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);