CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(120) NOT NULL,
	"vendor" varchar(16) DEFAULT 'generic' NOT NULL,
	"model" varchar(120),
	"host" varchar(255) NOT NULL,
	"location" varchar(200),
	"snmp_version" varchar(4) DEFAULT 'v2c' NOT NULL,
	"snmp_port" integer DEFAULT 161 NOT NULL,
	"snmp_community" text,
	"snmp_v3_user" varchar(64),
	"snmp_v3_auth_protocol" varchar(8),
	"snmp_v3_auth_key" text,
	"snmp_v3_priv_protocol" varchar(8),
	"snmp_v3_priv_key" text,
	"api_type" varchar(8),
	"api_port" integer,
	"api_tls" boolean DEFAULT true NOT NULL,
	"api_username" varchar(120),
	"api_password" text,
	"radius_secret" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text,
	"status" varchar(8) DEFAULT 'unknown' NOT NULL,
	"status_changed_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"last_error" text,
	"poll_failures" integer DEFAULT 0 NOT NULL,
	"next_poll_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_snmp_port_range" CHECK ("devices"."snmp_port" between 1 and 65535),
	CONSTRAINT "devices_api_port_range" CHECK ("devices"."api_port" is null or "devices"."api_port" between 1 and 65535)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "devices_name_unique" ON "devices" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "devices_host_idx" ON "devices" USING btree ("host");--> statement-breakpoint
CREATE INDEX "devices_status_idx" ON "devices" USING btree ("status");--> statement-breakpoint
CREATE INDEX "devices_next_poll_at_idx" ON "devices" USING btree ("next_poll_at");--> statement-breakpoint
CREATE INDEX "devices_created_at_id_idx" ON "devices" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);