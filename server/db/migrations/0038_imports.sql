CREATE TABLE "import_mappings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" varchar(16) NOT NULL,
	"kind" varchar(24) NOT NULL,
	"source_key" varchar(200) NOT NULL,
	"target_id" varchar(100),
	"run_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" varchar(16) NOT NULL,
	"source_label" varchar(300) NOT NULL,
	"status" varchar(16) DEFAULT 'running' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" varchar(2000)
);
--> statement-breakpoint
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_run_id_import_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."import_runs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "import_mappings_source_kind_key_unique" ON "import_mappings" USING btree ("source","kind","source_key");--> statement-breakpoint
CREATE INDEX "import_mappings_run_idx" ON "import_mappings" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "import_runs_started_at_idx" ON "import_runs" USING btree ("started_at" DESC NULLS LAST);