CREATE TABLE "autopay_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"subscription_id" uuid,
	"attempt" integer NOT NULL,
	"status" varchar(16) DEFAULT 'scheduled' NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"attempted_at" timestamp with time zone,
	"payment_method_id" uuid,
	"payment_id" uuid,
	"amount" integer,
	"failure_code" varchar(64),
	"failure_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" varchar(24) NOT NULL,
	"amount" integer NOT NULL,
	"currency" varchar(3) NOT NULL,
	"reason" text,
	"invoice_id" uuid,
	"payment_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_entries_amount_nonzero" CHECK ("credit_entries"."amount" <> 0),
	CONSTRAINT "credit_entries_sign" CHECK (("credit_entries"."kind" = 'applied_to_invoice' and "credit_entries"."amount" < 0) or ("credit_entries"."kind" in ('overpayment', 'refund_to_credit') and "credit_entries"."amount" > 0) or "credit_entries"."kind" = 'adjustment')
);
--> statement-breakpoint
CREATE TABLE "payment_method_setups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"subscription_id" uuid,
	"gateway_id" uuid,
	"provider" varchar(32) NOT NULL,
	"transaction_id" varchar(200) NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"payment_method_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"gateway_id" uuid,
	"provider" varchar(32) NOT NULL,
	"provider_customer_id" varchar(200),
	"provider_method_id" varchar(200) NOT NULL,
	"brand" varchar(32) NOT NULL,
	"last4" varchar(4) NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"expiry_reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_methods_exp_month" CHECK ("payment_methods"."exp_month" between 1 and 12)
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "credit_applied" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "autopay_method_id" uuid;--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autopay_charges" ADD CONSTRAINT "autopay_charges_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_method_setups" ADD CONSTRAINT "payment_method_setups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_method_setups" ADD CONSTRAINT "payment_method_setups_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_method_setups" ADD CONSTRAINT "payment_method_setups_gateway_id_payment_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."payment_gateways"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_method_setups" ADD CONSTRAINT "payment_method_setups_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_gateway_id_payment_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."payment_gateways"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "autopay_charges_invoice_attempt_unique" ON "autopay_charges" USING btree ("invoice_id","attempt");--> statement-breakpoint
CREATE INDEX "autopay_charges_due_idx" ON "autopay_charges" USING btree ("status","scheduled_at");--> statement-breakpoint
CREATE INDEX "autopay_charges_subscription_idx" ON "autopay_charges" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "credit_entries_user_created_idx" ON "credit_entries" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "credit_entries_invoice_idx" ON "credit_entries" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_entries_one_apply_per_invoice" ON "credit_entries" USING btree ("invoice_id") WHERE "credit_entries"."kind" = 'applied_to_invoice';--> statement-breakpoint
CREATE UNIQUE INDEX "credit_entries_one_per_payment_kind" ON "credit_entries" USING btree ("payment_id","kind") WHERE "credit_entries"."payment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_method_setups_provider_tx_unique" ON "payment_method_setups" USING btree ("provider","transaction_id");--> statement-breakpoint
CREATE INDEX "payment_method_setups_user_idx" ON "payment_method_setups" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payment_methods_user_idx" ON "payment_methods" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_provider_method_unique" ON "payment_methods" USING btree ("provider","provider_method_id");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_autopay_method_id_payment_methods_id_fk" FOREIGN KEY ("autopay_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credit_applied_range" CHECK ("invoices"."credit_applied" >= 0 and "invoices"."credit_applied" <= greatest("invoices"."total_amount", 0));