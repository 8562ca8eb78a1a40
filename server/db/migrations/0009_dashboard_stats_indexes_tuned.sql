DROP INDEX "invoices_stats_issue_idx";--> statement-breakpoint
CREATE INDEX "invoices_stats_open_issue_idx" ON "invoices" USING btree ("issue_date","status","currency","due_date","total_amount") WHERE "invoices"."status" in ('unpaid', 'overdue');--> statement-breakpoint
CREATE INDEX "tickets_stats_status_created_idx" ON "tickets" USING btree ("status","created_at");