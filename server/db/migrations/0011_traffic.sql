CREATE TABLE "device_interfaces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"if_index" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"alias" varchar(255) DEFAULT '' NOT NULL,
	"oper_status" varchar(16) DEFAULT 'unknown' NOT NULL,
	"admin_status" varchar(16) DEFAULT 'unknown' NOT NULL,
	"high_speed_mbps" integer DEFAULT 0 NOT NULL,
	"mac" varchar(64) DEFAULT '' NOT NULL,
	"counter_bits" smallint DEFAULT 64 NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interface_rates_daily" (
	"interface_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"sample_count" integer NOT NULL,
	"seconds" double precision NOT NULL,
	"in_bytes" bigint NOT NULL,
	"out_bytes" bigint NOT NULL,
	"avg_in_bps" double precision NOT NULL,
	"avg_out_bps" double precision NOT NULL,
	"max_in_bps" double precision NOT NULL,
	"max_out_bps" double precision NOT NULL,
	"in_hist" jsonb NOT NULL,
	"out_hist" jsonb NOT NULL,
	CONSTRAINT "interface_rates_daily_pk" PRIMARY KEY("interface_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "interface_rates_hourly" (
	"interface_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"sample_count" integer NOT NULL,
	"seconds" double precision NOT NULL,
	"in_bytes" bigint NOT NULL,
	"out_bytes" bigint NOT NULL,
	"avg_in_bps" double precision NOT NULL,
	"avg_out_bps" double precision NOT NULL,
	"max_in_bps" double precision NOT NULL,
	"max_out_bps" double precision NOT NULL,
	"in_hist" jsonb NOT NULL,
	"out_hist" jsonb NOT NULL,
	CONSTRAINT "interface_rates_hourly_pk" PRIMARY KEY("interface_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "interface_samples" (
	"interface_id" uuid NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"in_octets" numeric(20, 0) NOT NULL,
	"out_octets" numeric(20, 0) NOT NULL,
	"uptime_ticks" bigint,
	"counter_bits" smallint NOT NULL,
	"interval_kind" varchar(8),
	"interval_seconds" double precision,
	"in_bps" double precision,
	"out_bps" double precision,
	"in_bytes" bigint,
	"out_bytes" bigint,
	CONSTRAINT "interface_samples_pk" PRIMARY KEY("interface_id","taken_at"),
	CONSTRAINT "interface_samples_counter_bits" CHECK ("interface_samples"."counter_bits" in (32, 64))
);
--> statement-breakpoint
ALTER TABLE "device_interfaces" ADD CONSTRAINT "device_interfaces_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interface_rates_daily" ADD CONSTRAINT "interface_rates_daily_interface_id_device_interfaces_id_fk" FOREIGN KEY ("interface_id") REFERENCES "public"."device_interfaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interface_rates_hourly" ADD CONSTRAINT "interface_rates_hourly_interface_id_device_interfaces_id_fk" FOREIGN KEY ("interface_id") REFERENCES "public"."device_interfaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interface_samples" ADD CONSTRAINT "interface_samples_interface_id_device_interfaces_id_fk" FOREIGN KEY ("interface_id") REFERENCES "public"."device_interfaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_interfaces_device_if_index_unique" ON "device_interfaces" USING btree ("device_id","if_index");--> statement-breakpoint
CREATE INDEX "interface_rates_hourly_bucket_idx" ON "interface_rates_hourly" USING btree ("bucket");--> statement-breakpoint
CREATE INDEX "interface_samples_taken_at_idx" ON "interface_samples" USING btree ("taken_at");