CREATE TABLE "device_backup_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"kind" varchar(16) NOT NULL,
	"trigger" varchar(16) NOT NULL,
	"status" varchar(16) DEFAULT 'queued' NOT NULL,
	"stage" varchar(16) DEFAULT 'queued' NOT NULL,
	"percent" integer DEFAULT 0 NOT NULL,
	"error" text,
	"backup_id" uuid,
	"requested_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "device_backup_jobs_percent_range" CHECK ("device_backup_jobs"."percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "device_backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"size_bytes" integer NOT NULL,
	"line_count" integer NOT NULL,
	"content_sealed" text NOT NULL,
	"trigger" varchar(16) NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_backups_version_positive" CHECK ("device_backups"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "device_backup_jobs" ADD CONSTRAINT "device_backup_jobs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_backup_jobs" ADD CONSTRAINT "device_backup_jobs_backup_id_device_backups_id_fk" FOREIGN KEY ("backup_id") REFERENCES "public"."device_backups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_backup_jobs" ADD CONSTRAINT "device_backup_jobs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_backups" ADD CONSTRAINT "device_backups_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_backups" ADD CONSTRAINT "device_backups_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_backup_jobs_device_created_idx" ON "device_backup_jobs" USING btree ("device_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "device_backup_jobs_status_idx" ON "device_backup_jobs" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "device_backups_device_version_unique" ON "device_backups" USING btree ("device_id","version");--> statement-breakpoint
CREATE INDEX "device_backups_device_created_idx" ON "device_backups" USING btree ("device_id","created_at" DESC NULLS LAST);