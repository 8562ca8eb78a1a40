CREATE TABLE "radius_disconnects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"subscription_id" uuid,
	"kind" varchar(16) NOT NULL,
	"reason" varchar(32) NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"result" varchar(20) DEFAULT 'pending' NOT NULL,
	"error_cause" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"detail" text
);
--> statement-breakpoint
CREATE TABLE "radius_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"acct_session_id" varchar(253) NOT NULL,
	"nas_device_id" uuid,
	"nas_ip" varchar(45) NOT NULL,
	"username" varchar(253) NOT NULL,
	"subscription_id" uuid,
	"framed_ip" varchar(45),
	"calling_station_id" varchar(64),
	"nas_port_id" varchar(64),
	"started_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"last_interim_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"terminate_cause" varchar(64),
	"session_time" integer DEFAULT 0 NOT NULL,
	"input_octets" bigint DEFAULT 0 NOT NULL,
	"output_octets" bigint DEFAULT 0 NOT NULL,
	"interim_interval" integer,
	"status" varchar(8) DEFAULT 'open' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radius_usage_daily" (
	"subscription_id" uuid NOT NULL,
	"day" date NOT NULL,
	"input_octets" bigint DEFAULT 0 NOT NULL,
	"output_octets" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "radius_usage_daily_subscription_id_day_pk" PRIMARY KEY("subscription_id","day")
);
--> statement-breakpoint
CREATE TABLE "service_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"username" varchar(64) NOT NULL,
	"password_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "data_cap_action" varchar(16) DEFAULT 'reject' NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "throttle_download_kbps" integer;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "throttle_upload_kbps" integer;--> statement-breakpoint
ALTER TABLE "radius_disconnects" ADD CONSTRAINT "radius_disconnects_session_id_radius_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."radius_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radius_disconnects" ADD CONSTRAINT "radius_disconnects_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radius_sessions" ADD CONSTRAINT "radius_sessions_nas_device_id_devices_id_fk" FOREIGN KEY ("nas_device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radius_sessions" ADD CONSTRAINT "radius_sessions_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radius_usage_daily" ADD CONSTRAINT "radius_usage_daily_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_credentials" ADD CONSTRAINT "service_credentials_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "radius_disconnects_session_idx" ON "radius_disconnects" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "radius_disconnects_requested_idx" ON "radius_disconnects" USING btree ("requested_at");--> statement-breakpoint
CREATE INDEX "radius_disconnects_next_check_idx" ON "radius_disconnects" USING btree ("next_check_at");--> statement-breakpoint
CREATE UNIQUE INDEX "radius_sessions_nas_session_unique" ON "radius_sessions" USING btree ("nas_device_id","acct_session_id");--> statement-breakpoint
CREATE INDEX "radius_sessions_subscription_started_idx" ON "radius_sessions" USING btree ("subscription_id","started_at");--> statement-breakpoint
CREATE INDEX "radius_sessions_status_updated_idx" ON "radius_sessions" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "radius_sessions_username_idx" ON "radius_sessions" USING btree ("username");--> statement-breakpoint
CREATE UNIQUE INDEX "service_credentials_subscription_unique" ON "service_credentials" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_credentials_username_unique" ON "service_credentials" USING btree ("username");