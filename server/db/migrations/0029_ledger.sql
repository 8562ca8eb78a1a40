CREATE TABLE "ledger_postings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"currency" varchar(3) NOT NULL,
	"account" varchar(16) NOT NULL,
	"kind" varchar(24) NOT NULL,
	"amount" integer NOT NULL,
	"payment_id" uuid,
	"invoice_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_postings_amount_nonzero" CHECK ("ledger_postings"."amount" <> 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_postings_user_account_idx" ON "ledger_postings" USING btree ("user_id","currency","account","amount");--> statement-breakpoint
CREATE INDEX "ledger_postings_transfer_idx" ON "ledger_postings" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_payment_idx" ON "ledger_postings" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_invoice_idx" ON "ledger_postings" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_created_idx" ON "ledger_postings" USING btree ("created_at");--> statement-breakpoint
-- Opening balances (issue 31): the money already on the books, one balanced transfer per customer and currency,
-- each account set to what the payments, invoices and credit history say today (the reconciliation's sides).
-- Whatever did not balance before is booked to the shortfall account, where the reconciliation alarm shows it.
-- The payer account gets two postings, money received and money given back, as the movements write them.
INSERT INTO "ledger_postings" ("transfer_id", "user_id", "currency", "account", "kind", "amount", "created_at")
WITH r AS (
  SELECT p.user_id, p.currency,
    coalesce(sum(p.amount) FILTER (WHERE p.status IN ('paid', 'refunded') OR (p.status = 'failed' AND p.provider <> 'manual' AND p.failure_reason IN ('Invoice already paid: not counted, refund needed', 'Invoice not payable: not counted, refund needed', 'Amount or currency does not match the invoice', 'Refund in progress'))), 0) AS received,
    coalesce(sum(p.amount) FILTER (WHERE p.status = 'refunded' AND NOT EXISTS (SELECT 1 FROM credit_entries c WHERE c.payment_id = p.id AND c.kind = 'refund_to_credit')), 0) AS refunded,
    coalesce(sum(p.amount) FILTER (WHERE p.status = 'failed' AND p.provider <> 'manual' AND p.failure_reason IN ('Invoice already paid: not counted, refund needed', 'Invoice not payable: not counted, refund needed', 'Amount or currency does not match the invoice', 'Refund in progress')), 0) AS held
  FROM payments p GROUP BY p.user_id, p.currency
), c AS (
  SELECT e.user_id, e.currency, sum(e.amount) AS credit, coalesce(sum(e.amount) FILTER (WHERE e.kind = 'adjustment'), 0) AS granted
  FROM credit_entries e GROUP BY e.user_id, e.currency
), a AS (
  SELECT i.user_id, i.currency,
    sum(CASE
      WHEN i.status = 'paid' THEN i.total_amount
      WHEN i.status = 'cancelled' THEN i.credit_applied - coalesce((SELECT sum(x.amount) FROM credit_entries x WHERE x.invoice_id = i.id AND x.kind = 'released_from_invoice'), 0)
      ELSE i.credit_applied END) AS applied
  FROM invoices i GROUP BY i.user_id, i.currency
), k AS (
  SELECT user_id, currency FROM r UNION SELECT user_id, currency FROM c UNION SELECT user_id, currency FROM a
), s AS MATERIALIZED (
  SELECT gen_random_uuid() AS transfer_id, k.user_id, k.currency,
    coalesce(r.received, 0) AS received, coalesce(c.granted, 0) AS granted, coalesce(a.applied, 0) AS applied,
    coalesce(c.credit, 0) AS credit, coalesce(r.refunded, 0) AS refunded, coalesce(r.held, 0) AS held
  FROM k
    LEFT JOIN r ON r.user_id = k.user_id AND r.currency = k.currency
    LEFT JOIN c ON c.user_id = k.user_id AND c.currency = k.currency
    LEFT JOIN a ON a.user_id = k.user_id AND a.currency = k.currency
)
SELECT s.transfer_id, s.user_id, s.currency, v.account, 'opening_balance', v.amount, now()
FROM s CROSS JOIN LATERAL (VALUES
  ('payer', (-s.received)::integer),
  ('payer', s.refunded::integer),
  ('grants', (-s.granted)::integer),
  ('revenue', s.applied::integer),
  ('credit', s.credit::integer),
  ('held', s.held::integer),
  ('shortfall', (s.received + s.granted - s.applied - s.credit - s.refunded - s.held)::integer)
) AS v(account, amount)
WHERE v.amount <> 0;
