import { z } from 'zod';

/** Invoices (spec §3, issue 4). Money is integer minor units; dates are YYYY-MM-DD. */
export const INVOICE_STATUSES = ['unpaid', 'paid', 'overdue', 'cancelled', 'refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** Days between an invoice's issue date and its due date. */
export const INVOICE_DUE_DAYS = 7;

export const invoiceLineItemSchema = z.object({
  description: z.string(),
  quantity: z.number().int(),
  unit_amount: z.number().int(),
  /** quantity × unit_amount (negative for a credit). */
  amount: z.number().int(),
  /** What the line is for (absent on older lines): the plan's first period, a renewal, an upgrade, a credit, a
   *  fair-use top-up (issue 36), a late fee for another invoice (issue 38). */
  kind: z.enum(['plan', 'setup_fee', 'renewal', 'upgrade', 'credit', 'top_up', 'late_fee']).optional(),
  /** The service period a plan/renewal/upgrade line covers (ISO timestamps). */
  period_start: z.string().optional(),
  period_end: z.string().optional(),
});
export type InvoiceLineItem = z.infer<typeof invoiceLineItemSchema>;

export const invoiceSchema = z.object({
  /** Unguessable (random uuid): the public /invoice/{id} page is reached through it. */
  id: z.string().uuid(),
  /** settings invoice_prefix + zero-padded sequence, unique and gap-free. */
  number: z.string(),
  user_id: z.string().uuid(),
  subscription_id: z.string().uuid().nullable(),
  status: z.enum(INVOICE_STATUSES),
  currency: z.string().regex(/^[A-Z]{3}$/),
  line_items: z.array(invoiceLineItemSchema),
  subtotal: z.number().int(),
  /** Tax rate applied, in basis points (1000 = 10%). */
  tax_rate_bp: z.number().int(),
  tax: z.number().int(),
  total_amount: z.number().int(),
  /** Customer credit used when the invoice was issued (issue 21); 0 when none. */
  credit_applied: z.number().int(),
  /** What is still to pay: total_amount − credit_applied (0 when credit covered it all). */
  amount_due: z.number().int(),
  issue_date: z.string(),
  due_date: z.string(),
  paid_date: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** A staff list row: the invoice with who it is for and which plan. */
export const invoiceListItemSchema = invoiceSchema.extend({
  user_name: z.string(),
  user_email: z.string(),
  plan_name: z.string().nullable(),
});
export type InvoiceListItem = z.infer<typeof invoiceListItemSchema>;

/** GET /payments/invoices/{id} (public through the unguessable id): no personal data beyond a name. */
export const publicInvoiceSchema = invoiceSchema.omit({ user_id: true }).extend({
  customer_name: z.string(),
  plan_name: z.string().nullable(),
});
export type PublicInvoice = z.infer<typeof publicInvoiceSchema>;

export const INVOICE_PAGE_DEFAULT_LIMIT = 20;
const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Dates must be YYYY-MM-DD' });

/** GET /payments/user/invoices */
export const userInvoiceQuerySchema = z.object({
  status: z.preprocess(emptyAsAbsent, z.enum(INVOICE_STATUSES).optional()),
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(INVOICE_PAGE_DEFAULT_LIMIT),
});
export type UserInvoiceQueryParsed = z.output<typeof userInvoiceQuerySchema>;

/** GET /payments/invoices (staff): status, user, issue-date range (inclusive), search on number/name/e-mail. */
export const invoiceListQuerySchema = userInvoiceQuerySchema.extend({
  user_id: z.preprocess(emptyAsAbsent, z.string().uuid({ message: 'user_id must be a valid id' }).optional()),
  from: z.preprocess(emptyAsAbsent, isoDay.optional()),
  to: z.preprocess(emptyAsAbsent, isoDay.optional()),
  search: z.preprocess(emptyAsAbsent, z.string().trim().max(100).optional()),
});
export type InvoiceListQuery = z.input<typeof invoiceListQuerySchema>;
export type InvoiceListQueryParsed = z.output<typeof invoiceListQuerySchema>;
