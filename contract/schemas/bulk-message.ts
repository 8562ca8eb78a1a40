import { z } from 'zod';
import { BULK_SEGMENTS, BULK_STATUSES, MESSAGE_CATEGORIES, MESSAGE_CHANNELS, MESSAGE_STATUSES } from './messaging';

/**
 * Bulk messages (issue 38): one text staff write, sent to a segment of customers on the channels they chose, by a
 * background job. The segment's value is a plan id (plan), a NAS device id (nas) or a device location (area);
 * all and unpaid take none. JSON is snake_case.
 */
export const BULK_SEGMENTS_WITH_VALUE = ['plan', 'nas', 'area'] as const;

export const bulkMessageCreateSchema = z
  .object({
    segment: z.enum(BULK_SEGMENTS, { message: 'Choose who receives the message' }),
    segment_value: z.string().trim().max(200, { message: 'Segment value must be at most 200 characters' }).nullish(),
    channels: z
      .array(z.enum(MESSAGE_CHANNELS))
      .min(1, { message: 'Choose at least one channel' })
      .max(MESSAGE_CHANNELS.length)
      .refine((c) => new Set(c).size === c.length, { message: 'A channel is listed twice' }),
    category: z.enum(MESSAGE_CATEGORIES, { message: 'Choose a category' }),
    subject: z
      .string()
      .trim()
      .min(1, { message: 'Subject is required' })
      .max(200, { message: 'Subject must be at most 200 characters' }),
    body: z
      .string()
      .trim()
      .min(1, { message: 'Message is required' })
      .max(5000, { message: 'Message must be at most 5000 characters' }),
  })
  .refine((b) => !(BULK_SEGMENTS_WITH_VALUE as readonly string[]).includes(b.segment) || !!b.segment_value, {
    message: 'Choose a plan, a NAS or an area',
    path: ['segment_value'],
  });
export type BulkMessageCreate = z.infer<typeof bulkMessageCreateSchema>;

/** How many customers a segment reaches now, and how many of them each channel can reach for the category. */
export const bulkPreviewSchema = z.object({
  recipients: z.number().int(),
  reachable: z.object({ email: z.number().int(), sms: z.number().int(), whatsapp: z.number().int() }),
});
export type BulkPreview = z.infer<typeof bulkPreviewSchema>;

export const bulkPreviewQuerySchema = z.object({
  segment: z.enum(BULK_SEGMENTS, { message: 'Choose who receives the message' }),
  segment_value: z.string().trim().max(200, { message: 'Segment value must be at most 200 characters' }).optional(),
  category: z.enum(MESSAGE_CATEGORIES).default('service'),
});

export const bulkMessageSchema = z.object({
  id: z.string().uuid(),
  segment: z.enum(BULK_SEGMENTS),
  segment_value: z.string().nullable(),
  /** What the segment's value names: the plan's or the NAS's name, the area itself; null for all/unpaid. */
  segment_label: z.string().nullable(),
  channels: z.array(z.enum(MESSAGE_CHANNELS)),
  category: z.enum(MESSAGE_CATEGORIES),
  subject: z.string(),
  body: z.string(),
  status: z.enum(BULK_STATUSES),
  /** The customers in the segment: counted when it was created, then those the job went through once done. */
  recipients: z.number().int(),
  /** Customers with at least one message queued on one of the channels. */
  sent: z.number().int(),
  /** Customers the job could not notify (an error). */
  failed: z.number().int(),
  /** Customers reached on none of the channels (turned the category off, marketing not opted in, no number). */
  skipped: z.number().int(),
  created_by: z.string().uuid().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type BulkMessage = z.infer<typeof bulkMessageSchema>;

/** One message of a bulk message (one customer, one channel). */
export const bulkMessageItemSchema = z.object({
  id: z.string().uuid(),
  user_id: z.string().uuid().nullable(),
  user_name: z.string().nullable(),
  channel: z.enum(MESSAGE_CHANNELS),
  to: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  error: z.string().nullable(),
  created_at: z.string(),
});

/** What the create form's selects offer: the plans, the NAS devices and the areas (device locations). */
export const bulkSegmentOptionsSchema = z.object({
  plans: z.array(z.object({ id: z.string().uuid(), name: z.string() })),
  nas: z.array(z.object({ id: z.string().uuid(), name: z.string(), location: z.string().nullable() })),
  areas: z.array(z.string()),
});
export type BulkSegmentOptions = z.infer<typeof bulkSegmentOptionsSchema>;

const page = z.coerce.number().int().min(1, { message: 'Page must be at least 1' }).default(1);
const limit = z.coerce.number().int().min(1).max(500, { message: 'Limit must be at most 500' }).default(50);
export const bulkMessageListQuerySchema = z.object({ page, limit, status: z.enum(BULK_STATUSES).optional() });
export const bulkMessageItemsQuerySchema = z.object({ page, limit });
