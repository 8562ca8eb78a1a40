CREATE TABLE "ip_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network_id" uuid NOT NULL,
	"address" varchar(45) NOT NULL,
	"address_num" numeric(39, 0) NOT NULL,
	"subscription_id" uuid,
	"state" varchar(16) NOT NULL,
	"quarantine_until" timestamp with time zone,
	"note" varchar(200),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ip_assignments_static_has_subscription" CHECK ("ip_assignments"."state" <> 'static' or "ip_assignments"."subscription_id" is not null),
	CONSTRAINT "ip_assignments_quarantine_until" CHECK ("ip_assignments"."state" <> 'quarantined' or "ip_assignments"."quarantine_until" is not null)
);
--> statement-breakpoint
CREATE TABLE "ip_networks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(80) NOT NULL,
	"cidr" varchar(64) NOT NULL,
	"family" integer NOT NULL,
	"prefix_length" integer NOT NULL,
	"range_start" numeric(39, 0) NOT NULL,
	"range_end" numeric(39, 0) NOT NULL,
	"purpose" varchar(20) NOT NULL,
	"pool_name" varchar(64),
	"gateway" varchar(45),
	"dns_servers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"device_id" uuid,
	"site" varchar(120),
	"reserved_ranges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"quarantine_days" integer DEFAULT 30 NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ip_networks_family" CHECK ("ip_networks"."family" in (4, 6)),
	CONSTRAINT "ip_networks_range" CHECK ("ip_networks"."range_start" <= "ip_networks"."range_end"),
	CONSTRAINT "ip_networks_quarantine_days" CHECK ("ip_networks"."quarantine_days" between 0 and 3650)
);
--> statement-breakpoint
CREATE TABLE "subscription_addressing" (
	"subscription_id" uuid PRIMARY KEY NOT NULL,
	"pool_network_id" uuid,
	"framed_ipv6_prefix" varchar(64),
	"delegated_ipv6_prefix" varchar(64),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ip_assignments" ADD CONSTRAINT "ip_assignments_network_id_ip_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."ip_networks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_assignments" ADD CONSTRAINT "ip_assignments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_networks" ADD CONSTRAINT "ip_networks_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_addressing" ADD CONSTRAINT "subscription_addressing_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_addressing" ADD CONSTRAINT "subscription_addressing_pool_network_id_ip_networks_id_fk" FOREIGN KEY ("pool_network_id") REFERENCES "public"."ip_networks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ip_assignments_network_address_unique" ON "ip_assignments" USING btree ("network_id","address");--> statement-breakpoint
CREATE UNIQUE INDEX "ip_assignments_one_static_per_subscription" ON "ip_assignments" USING btree ("subscription_id") WHERE "ip_assignments"."state" = 'static';--> statement-breakpoint
CREATE INDEX "ip_assignments_network_num_idx" ON "ip_assignments" USING btree ("network_id","address_num");--> statement-breakpoint
CREATE INDEX "ip_assignments_address_idx" ON "ip_assignments" USING btree ("address");--> statement-breakpoint
CREATE UNIQUE INDEX "ip_networks_name_unique" ON "ip_networks" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "ip_networks_pool_name_idx" ON "ip_networks" USING btree ("pool_name");--> statement-breakpoint
CREATE INDEX "ip_networks_family_range_idx" ON "ip_networks" USING btree ("family","range_start","range_end");--> statement-breakpoint
CREATE INDEX "ip_networks_device_idx" ON "ip_networks" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "subscription_addressing_pool_idx" ON "subscription_addressing" USING btree ("pool_network_id");--> statement-breakpoint
CREATE INDEX "radius_sessions_framed_ip_started_idx" ON "radius_sessions" USING btree ("framed_ip","started_at");