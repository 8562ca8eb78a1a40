CREATE TABLE "dashboard_daily_open_invoices" (
	"issue_date" date NOT NULL,
	"due_date" date NOT NULL,
	"status" varchar(16) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_daily_open_invoices_issue_date_due_date_status_currency_pk" PRIMARY KEY("issue_date","due_date","status","currency")
);
--> statement-breakpoint
CREATE TABLE "dashboard_daily_resolved_tickets" (
	"day" date PRIMARY KEY NOT NULL,
	"n" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard_daily_revenue" (
	"day" date NOT NULL,
	"currency" varchar(3) NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_daily_revenue_day_currency_pk" PRIMARY KEY("day","currency")
);
--> statement-breakpoint
CREATE TABLE "dashboard_daily_subscriptions" (
	"day" date NOT NULL,
	"status" varchar(32) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_daily_subscriptions_day_status_pk" PRIMARY KEY("day","status")
);
--> statement-breakpoint
CREATE TABLE "dashboard_daily_tickets" (
	"day" date NOT NULL,
	"status" varchar(20) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_daily_tickets_day_status_pk" PRIMARY KEY("day","status")
);
--> statement-breakpoint
CREATE TABLE "dashboard_daily_users" (
	"day" date NOT NULL,
	"status" varchar(16) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_daily_users_day_status_pk" PRIMARY KEY("day","status")
);
