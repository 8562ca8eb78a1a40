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
  issue_date: z.string(),
  due_date: z.string(),
  paid_date: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
