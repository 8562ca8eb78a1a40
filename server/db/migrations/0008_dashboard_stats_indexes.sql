CREATE INDEX "invoices_stats_issue_idx" ON "invoices" USING btree ("issue_date","status","currency","due_date","total_amount");--> statement-breakpoint
CREATE INDEX "payments_stats_paid_date_idx" ON "payments" USING btree ("payment_date","currency","amount") WHERE "payments"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "subscriptions_stats_created_idx" ON "subscriptions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_stats_status_updated_idx" ON "subscriptions" USING btree ("status","updated_at","created_at");--> statement-breakpoint
CREATE INDEX "tickets_stats_created_idx" ON "tickets" USING btree ("created_at","status");--> statement-breakpoint
CREATE INDEX "tickets_stats_resolved_idx" ON "tickets" USING btree ("resolved_at") WHERE "tickets"."resolved_at" is not null;--> statement-breakpoint
CREATE INDEX "users_stats_role_created_idx" ON "users" USING btree ("role","created_at","status");