-- Dashboard roll-ups (issue 6): triggers keep the dashboard_daily_* tables in the same transaction as every
-- insert, update, delete and truncate of users, subscriptions, payments, invoices and tickets; the tables are
-- then filled from the existing rows. Days are UTC days ((ts AT TIME ZONE 'UTC')::date, the same bucket as
-- date_bin('1 day', ts, '2000-01-01Z')). A change takes the old row's contribution away and adds the new one's.
CREATE FUNCTION "dashboard_rollup_users"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.role = 'user' THEN
    UPDATE dashboard_daily_users SET n = n - 1
    WHERE day = (OLD.created_at AT TIME ZONE 'UTC')::date AND status = OLD.status;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.role = 'user' THEN
    INSERT INTO dashboard_daily_users (day, status, n) VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.status, 1)
    ON CONFLICT (day, status) DO UPDATE SET n = dashboard_daily_users.n + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollup_subscriptions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE dashboard_daily_subscriptions SET n = n - 1
    WHERE day = (OLD.created_at AT TIME ZONE 'UTC')::date AND status = OLD.status;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO dashboard_daily_subscriptions (day, status, n) VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.status, 1)
    ON CONFLICT (day, status) DO UPDATE SET n = dashboard_daily_subscriptions.n + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollup_payments"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status = 'paid' AND OLD.payment_date IS NOT NULL THEN
    UPDATE dashboard_daily_revenue SET amount = amount - OLD.amount, n = n - 1
    WHERE day = (OLD.payment_date AT TIME ZONE 'UTC')::date AND currency = OLD.currency;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status = 'paid' AND NEW.payment_date IS NOT NULL THEN
    INSERT INTO dashboard_daily_revenue (day, currency, amount, n)
    VALUES ((NEW.payment_date AT TIME ZONE 'UTC')::date, NEW.currency, NEW.amount, 1)
    ON CONFLICT (day, currency) DO UPDATE SET amount = dashboard_daily_revenue.amount + EXCLUDED.amount, n = dashboard_daily_revenue.n + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollup_invoices"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status IN ('unpaid', 'overdue') THEN
    UPDATE dashboard_daily_open_invoices SET amount = amount - OLD.total_amount, n = n - 1
    WHERE issue_date = OLD.issue_date AND due_date = OLD.due_date AND status = OLD.status AND currency = OLD.currency;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status IN ('unpaid', 'overdue') THEN
    INSERT INTO dashboard_daily_open_invoices (issue_date, due_date, status, currency, amount, n)
    VALUES (NEW.issue_date, NEW.due_date, NEW.status, NEW.currency, NEW.total_amount, 1)
    ON CONFLICT (issue_date, due_date, status, currency)
    DO UPDATE SET amount = dashboard_daily_open_invoices.amount + EXCLUDED.amount, n = dashboard_daily_open_invoices.n + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollup_tickets"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE dashboard_daily_tickets SET n = n - 1
    WHERE day = (OLD.created_at AT TIME ZONE 'UTC')::date AND status = OLD.status;
    IF OLD.resolved_at IS NOT NULL THEN
      UPDATE dashboard_daily_resolved_tickets SET n = n - 1 WHERE day = (OLD.resolved_at AT TIME ZONE 'UTC')::date;
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO dashboard_daily_tickets (day, status, n) VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.status, 1)
    ON CONFLICT (day, status) DO UPDATE SET n = dashboard_daily_tickets.n + 1;
    IF NEW.resolved_at IS NOT NULL THEN
      INSERT INTO dashboard_daily_resolved_tickets (day, n) VALUES ((NEW.resolved_at AT TIME ZONE 'UTC')::date, 1)
      ON CONFLICT (day) DO UPDATE SET n = dashboard_daily_resolved_tickets.n + 1;
    END IF;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- TRUNCATE of a source table (also through CASCADE) empties its roll-ups, named as the trigger's arguments.
CREATE FUNCTION "dashboard_rollup_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target text;
BEGIN
  FOREACH target IN ARRAY TG_ARGV LOOP
    EXECUTE format('TRUNCATE %I', target);
  END LOOP;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_dashboard_rollup" AFTER INSERT OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION dashboard_rollup_users();--> statement-breakpoint
CREATE TRIGGER "users_dashboard_rollup_update" AFTER UPDATE ON "users" FOR EACH ROW
  WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION dashboard_rollup_users();--> statement-breakpoint
CREATE TRIGGER "users_dashboard_rollup_truncate" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_truncate('dashboard_daily_users');--> statement-breakpoint
CREATE TRIGGER "subscriptions_dashboard_rollup" AFTER INSERT OR DELETE ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION dashboard_rollup_subscriptions();--> statement-breakpoint
CREATE TRIGGER "subscriptions_dashboard_rollup_update" AFTER UPDATE ON "subscriptions" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION dashboard_rollup_subscriptions();--> statement-breakpoint
CREATE TRIGGER "subscriptions_dashboard_rollup_truncate" AFTER TRUNCATE ON "subscriptions"
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_truncate('dashboard_daily_subscriptions');--> statement-breakpoint
CREATE TRIGGER "payments_dashboard_rollup" AFTER INSERT OR DELETE ON "payments"
  FOR EACH ROW EXECUTE FUNCTION dashboard_rollup_payments();--> statement-breakpoint
CREATE TRIGGER "payments_dashboard_rollup_update" AFTER UPDATE ON "payments" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.payment_date IS DISTINCT FROM NEW.payment_date
        OR OLD.currency IS DISTINCT FROM NEW.currency OR OLD.amount IS DISTINCT FROM NEW.amount)
  EXECUTE FUNCTION dashboard_rollup_payments();--> statement-breakpoint
CREATE TRIGGER "payments_dashboard_rollup_truncate" AFTER TRUNCATE ON "payments"
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_truncate('dashboard_daily_revenue');--> statement-breakpoint
CREATE TRIGGER "invoices_dashboard_rollup" AFTER INSERT OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION dashboard_rollup_invoices();--> statement-breakpoint
CREATE TRIGGER "invoices_dashboard_rollup_update" AFTER UPDATE ON "invoices" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.issue_date IS DISTINCT FROM NEW.issue_date OR OLD.due_date IS DISTINCT FROM NEW.due_date
        OR OLD.currency IS DISTINCT FROM NEW.currency OR OLD.total_amount IS DISTINCT FROM NEW.total_amount)
  EXECUTE FUNCTION dashboard_rollup_invoices();--> statement-breakpoint
CREATE TRIGGER "invoices_dashboard_rollup_truncate" AFTER TRUNCATE ON "invoices"
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_truncate('dashboard_daily_open_invoices');--> statement-breakpoint
CREATE TRIGGER "tickets_dashboard_rollup" AFTER INSERT OR DELETE ON "tickets"
  FOR EACH ROW EXECUTE FUNCTION dashboard_rollup_tickets();--> statement-breakpoint
CREATE TRIGGER "tickets_dashboard_rollup_update" AFTER UPDATE ON "tickets" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.resolved_at IS DISTINCT FROM NEW.resolved_at)
  EXECUTE FUNCTION dashboard_rollup_tickets();--> statement-breakpoint
CREATE TRIGGER "tickets_dashboard_rollup_truncate" AFTER TRUNCATE ON "tickets"
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollup_truncate('dashboard_daily_tickets', 'dashboard_daily_resolved_tickets');--> statement-breakpoint
-- Backfill from the rows already there (the triggers above keep the tables from here on).
INSERT INTO "dashboard_daily_users" (day, status, n)
  SELECT (created_at AT TIME ZONE 'UTC')::date, status, count(*) FROM users WHERE role = 'user' GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "dashboard_daily_subscriptions" (day, status, n)
  SELECT (created_at AT TIME ZONE 'UTC')::date, status, count(*) FROM subscriptions GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "dashboard_daily_revenue" (day, currency, amount, n)
  SELECT (payment_date AT TIME ZONE 'UTC')::date, currency, sum(amount), count(*) FROM payments
  WHERE status = 'paid' AND payment_date IS NOT NULL GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "dashboard_daily_open_invoices" (issue_date, due_date, status, currency, amount, n)
  SELECT issue_date, due_date, status, currency, sum(total_amount), count(*) FROM invoices
  WHERE status IN ('unpaid', 'overdue') GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "dashboard_daily_tickets" (day, status, n)
  SELECT (created_at AT TIME ZONE 'UTC')::date, status, count(*) FROM tickets GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "dashboard_daily_resolved_tickets" (day, n)
  SELECT (resolved_at AT TIME ZONE 'UTC')::date, count(*) FROM tickets WHERE resolved_at IS NOT NULL GROUP BY 1;
