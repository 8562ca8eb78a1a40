CREATE TABLE "portal_nodes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hostname" varchar(255) NOT NULL,
	"pid" integer NOT NULL,
	"version" varchar(40) NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radius_request_counts" (
	"minute" timestamp with time zone NOT NULL,
	"node_id" uuid NOT NULL,
	"type" varchar(16) NOT NULL,
	"result" varchar(16) NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "radius_request_counts_minute_node_id_type_result_pk" PRIMARY KEY("minute","node_id","type","result")
);
--> statement-breakpoint
CREATE INDEX "portal_nodes_last_seen_idx" ON "portal_nodes" USING btree ("last_seen_at");