import { z } from 'zod';
import { uploadedFileFields } from './uploaded-file';

/** Support tickets (spec §3, §4, §7, issue 5). JSON is snake_case; timestamps are ISO strings. */
export const TICKET_CATEGORIES = ['billing', 'technical', 'installation', 'account', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

export const TICKET_STATUSES = ['open', 'in_progress', 'waiting_customer', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Categories in the queue of the "shared" ticket view (spec §2): technicians and billing staff. */
export const TICKET_QUEUE_CATEGORIES = {
  technician: ['technical', 'installation'],
  billing: ['billing'],
} as const satisfies Record<string, readonly TicketCategory[]>;

/** Attachment limits (issue 5): per file and per upload. */
export const TICKET_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const TICKET_ATTACHMENT_MAX_FILES = 5;
/** Content types accepted (decided from the file's bytes, not its name). */
export const TICKET_ATTACHMENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
] as const;
export type TicketAttachmentType = (typeof TICKET_ATTACHMENT_TYPES)[number];

export const TICKET_PAGE_DEFAULT_LIMIT = 20;

export const ticketSchema = z.object({
  id: z.string().uuid(),
  /** Human-readable, e.g. T-000123. */
  number: z.string(),
  subject: z.string(),
  description: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  priority: z.enum(TICKET_PRIORITIES),
  status: z.enum(TICKET_STATUSES),
  created_by: z.string().uuid(),
  created_by_name: z.string(),
  created_by_email: z.string(),
  assigned_to: z.string().uuid().nullable(),
  assigned_to_name: z.string().nullable(),
  subscription_id: z.string().uuid().nullable(),
  created_at: z.string(),
  /** Last activity visible to everyone (edits, status, public replies, attachments): the list's order. */
  updated_at: z.string(),
  resolved_at: z.string().nullable(),
  /** Last public reply. */
  last_reply_at: z.string().nullable(),
  /** The first public reply by staff (for response-time statistics). */
  first_response_at: z.string().nullable(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketReplySchema = z.object({
  id: z.string().uuid(),
  ticket_id: z.string().uuid(),
  author_id: z.string().uuid(),
  author_name: z.string(),
  /** The author's role, so a screen can tell staff answers from the customer's. */
  author_role: z.string(),
  message: z.string(),
  /** Internal notes are shown to staff only; customers never receive them. */
  is_internal: z.boolean(),
  created_at: z.string(),
});
export type TicketReply = z.infer<typeof ticketReplySchema>;

export const ticketAttachmentSchema = z.object({
  id: z.string().uuid(),
  ticket_id: z.string().uuid(),
  reply_id: z.string().uuid().nullable(),
  /** Sanitised file name (metadata only; the stored file has a random name). */
  original_name: z.string(),
  ...uploadedFileFields,
});
export type TicketAttachment = z.infer<typeof ticketAttachmentSchema>;

/** GET /tickets/{id}: the ticket with the replies the caller may see (oldest first) and its attachments. */
export const ticketDetailSchema = ticketSchema.extend({
  replies: z.array(ticketReplySchema),
  attachments: z.array(ticketAttachmentSchema),
});
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

const subject = z
  .string({ message: 'Subject is required' })
  .trim()
  .min(3, { message: 'Subject must be at least 3 characters' })
  .max(200, { message: 'Subject must be at most 200 characters' });
const description = z
  .string({ message: 'Description is required' })
  .trim()
  .min(1, { message: 'Description is required' })
  .max(10_000, { message: 'Description must be at most 10000 characters' });
const category = z.enum(TICKET_CATEGORIES, { message: `Category must be one of ${TICKET_CATEGORIES.join(', ')}` });
const priority = z.enum(TICKET_PRIORITIES, { message: `Priority must be one of ${TICKET_PRIORITIES.join(', ')}` });

/** POST /tickets. created_for: staff only, opens the ticket on behalf of that customer. */
export const ticketCreateSchema = z.object({
  subject,
  description,
  category: category.optional().default('other'),
  priority: priority.optional().default('normal'),
  subscription_id: z.string().uuid({ message: 'subscription_id must be a valid id' }).nullable().optional(),
  created_for: z.string().uuid({ message: 'created_for must be a valid id' }).optional(),
});
export type TicketCreateInput = z.input<typeof ticketCreateSchema>;
export type TicketCreateParsed = z.output<typeof ticketCreateSchema>;

/** PUT /tickets/{id}: only the fields sent change. */
export const ticketUpdateSchema = z
  .object({
    subject: subject.optional(),
    description: description.optional(),
    category: category.optional(),
    priority: priority.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to update' });
export type TicketUpdateInput = z.input<typeof ticketUpdateSchema>;
export type TicketUpdateParsed = z.output<typeof ticketUpdateSchema>;

/** POST /tickets/{id}/replies. is_internal is for staff only. */
export const ticketReplyCreateSchema = z.object({
  message: z
    .string({ message: 'Message is required' })
    .trim()
    .min(1, { message: 'Message is required' })
    .max(10_000, { message: 'Message must be at most 10000 characters' }),
  is_internal: z.boolean().optional().default(false),
});
export type TicketReplyCreateInput = z.input<typeof ticketReplyCreateSchema>;
export type TicketReplyCreateParsed = z.output<typeof ticketReplyCreateSchema>;

/** PATCH /tickets/{id}/status */
export const ticketStatusSchema = z.object({
  status: z.enum(TICKET_STATUSES, { message: `Status must be one of ${TICKET_STATUSES.join(', ')}` }),
});
export type TicketStatusInput = z.infer<typeof ticketStatusSchema>;

/** PATCH /tickets/{id}/assign: an active staff user's id, or null to unassign. */
export const ticketAssignSchema = z.object({
  assigned_to: z
    .string({ message: 'assigned_to is required' })
    .uuid({ message: 'assigned_to must be a valid id' })
    .nullable(),
});
export type TicketAssignInput = z.infer<typeof ticketAssignSchema>;

const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);

/** GET /tickets and /tickets/assigned. assigned_to: a user id, or "none" for unassigned tickets. */
export const ticketListQuerySchema = z.object({
  status: z.preprocess(emptyAsAbsent, z.enum(TICKET_STATUSES).optional()),
  priority: z.preprocess(emptyAsAbsent, z.enum(TICKET_PRIORITIES).optional()),
  category: z.preprocess(emptyAsAbsent, z.enum(TICKET_CATEGORIES).optional()),
  assigned_to: z.preprocess(
    emptyAsAbsent,
    z.union([z.literal('none'), z.string().uuid({ message: 'assigned_to must be a valid id or "none"' })]).optional(),
  ),
  /** Matches the number, the subject, and the creator's name or e-mail. */
  search: z.preprocess(emptyAsAbsent, z.string().trim().max(100).optional()),
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(TICKET_PAGE_DEFAULT_LIMIT),
});
export type TicketListQuery = z.input<typeof ticketListQuerySchema>;
export type TicketListQueryParsed = z.output<typeof ticketListQuerySchema>;

/**
 * A count per value of an enum, every value present: an object with one integer property per value (a record
 * keyed by the enum says the same to zod, but its JSON Schema requires properties it never declares).
 */
function countsOf<const T extends readonly string[]>(values: T) {
  return z.object(Object.fromEntries(values.map((v) => [v, z.number().int()])) as { [K in T[number]]: z.ZodNumber });
}

/** GET /tickets/stats, over the tickets the caller may see. Times in seconds (null: no ticket yet). */
export const ticketStatsSchema = z.object({
  total: z.number().int(),
  by_status: countsOf(TICKET_STATUSES),
  by_priority: countsOf(TICKET_PRIORITIES),
  avg_first_response_seconds: z.number().nullable(),
  avg_resolution_seconds: z.number().nullable(),
});
export type TicketStats = z.infer<typeof ticketStatsSchema>;
