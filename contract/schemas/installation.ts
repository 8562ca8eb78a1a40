import { z } from 'zod';
import { uploadedFileFields } from './uploaded-file';

/** Installations (issue 8): the technician's job that switches a subscription's service on. JSON is snake_case. */
export const INSTALLATION_STATUSES = [
  'requested',
  'scheduled',
  'en_route',
  'in_progress',
  'completed',
  'failed',
  'cancelled',
] as const;
export type InstallationStatus = (typeof INSTALLATION_STATUSES)[number];

/** Statuses in which the job is still to be done (a subscription has at most one such job). */
export const OPEN_INSTALLATION_STATUSES: readonly InstallationStatus[] = [
  'requested',
  'scheduled',
  'en_route',
  'in_progress',
  'failed',
];

/** Photos: the ticket attachments' limits, images only. */
export const INSTALLATION_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const INSTALLATION_PHOTO_MAX_FILES = 5;
export const INSTALLATION_PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export const INSTALLATION_PAGE_DEFAULT_LIMIT = 20;

/** The checklist every new job starts with (the technician ticks it off; staff may edit it). */
export const DEFAULT_INSTALLATION_CHECKLIST = [
  'Survey the site and the cable route',
  'Run and terminate the cable',
  'Mount and power the CPE / ONT',
  'Configure PPPoE on the customer router',
  'Speed test with the customer',
  'Customer sign-off',
] as const;

const text = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` });
const optionalText = (max: number, label: string) =>
  text(max, label)
    .nullable()
    .optional()
    .transform((v) => (v ? v : v === undefined ? undefined : null));
const isoDateTime = z.string().datetime({ offset: true, message: 'Must be an ISO date-time' });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Dates must be YYYY-MM-DD' });

export const checklistItemSchema = z.object({
  item: text(200, 'Checklist item').min(1, { message: 'Checklist item is required' }),
  done: z.boolean(),
});
export type ChecklistItem = z.infer<typeof checklistItemSchema>;

const MAC = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i;
export const equipmentItemSchema = z.object({
  type: text(60, 'Equipment type').min(1, { message: 'Equipment type is required' }),
  serial: text(100, 'Serial number').min(1, { message: 'Serial number is required' }),
  mac: z
    .string()
    .trim()
    .nullable()
    .optional()
    .transform((v) => (v ? v.toLowerCase().replace(/-/g, ':') : null))
    .refine((v) => v === null || MAC.test(v), { message: 'MAC address must look like aa:bb:cc:dd:ee:ff' }),
});
export type EquipmentItem = z.output<typeof equipmentItemSchema>;

/** Readings taken on site; every value optional. */
export const readingsSchema = z.object({
  signal_dbm: z.number().min(-100).max(20).nullable().optional(),
  download_mbps: z.number().min(0).max(100_000).nullable().optional(),
  upload_mbps: z.number().min(0).max(100_000).nullable().optional(),
  latency_ms: z.number().min(0).max(10_000).nullable().optional(),
  notes: text(500, 'Reading notes').nullable().optional(),
});
export type Readings = z.infer<typeof readingsSchema>;

export const installationSchema = z.object({
  id: z.string().uuid(),
  /** Human-readable, e.g. I-000123. */
  number: z.string(),
  subscription_id: z.string().uuid(),
  subscription_status: z.string(),
  plan_name: z.string(),
  user_id: z.string().uuid(),
  customer_name: z.string(),
  customer_email: z.string(),
  address: z.string(),
  contact_phone: z.string().nullable(),
  preferred_date: z.string().nullable(),
  scheduled_start: z.string().nullable(),
  scheduled_end: z.string().nullable(),
  technician_id: z.string().uuid().nullable(),
  technician_name: z.string().nullable(),
  status: z.enum(INSTALLATION_STATUSES),
  checklist: z.array(checklistItemSchema),
  notes: z.string().nullable(),
  equipment: z.array(z.object({ type: z.string(), serial: z.string(), mac: z.string().nullable() })),
  readings: readingsSchema,
  failure_reason: z.string().nullable(),
  completed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Installation = z.infer<typeof installationSchema>;

export const installationPhotoSchema = z.object({
  id: z.string().uuid(),
  installation_id: z.string().uuid(),
  name: z.string(),
  ...uploadedFileFields,
});
export type InstallationPhoto = z.infer<typeof installationPhotoSchema>;

export const installationDetailSchema = installationSchema.extend({
  photos: z.array(installationPhotoSchema),
  /** The statuses the caller may move this job to now. */
  next_statuses: z.array(z.enum(INSTALLATION_STATUSES)),
});
export type InstallationDetail = z.infer<typeof installationDetailSchema>;

const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);
export const installationListQuerySchema = z.object({
  status: z.preprocess(emptyAsAbsent, z.enum(INSTALLATION_STATUSES).optional()),
  technician_id: z.preprocess(
    emptyAsAbsent,
    z.string().uuid({ message: 'technician_id must be a valid id' }).optional(),
  ),
  /** Scheduled (or, unscheduled, preferred) day range, inclusive UTC days. */
  from: z.preprocess(emptyAsAbsent, day.optional()),
  to: z.preprocess(emptyAsAbsent, day.optional()),
  /** Number, customer name or e-mail, address. */
  search: z.preprocess(emptyAsAbsent, z.string().trim().max(100).optional()),
  /** Technician's view: today's and upcoming jobs (and unfinished ones from before) only. */
  upcoming: z.preprocess(
    (v) => (v === 'true' || v === true ? true : v === 'false' || v === false || v === '' ? false : v),
    z.boolean().optional().default(false),
  ),
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(200).optional().default(INSTALLATION_PAGE_DEFAULT_LIMIT),
});
export type InstallationListQuery = z.input<typeof installationListQuerySchema>;
export type InstallationListQueryParsed = z.output<typeof installationListQuerySchema>;

const slotRefine = <T extends { scheduled_start?: string | null; scheduled_end?: string | null }>(v: T) =>
  !v.scheduled_start || !v.scheduled_end || new Date(v.scheduled_end).getTime() > new Date(v.scheduled_start).getTime();
const slotMessage = { message: 'The slot must end after it starts', path: ['scheduled_end'] };

/** POST /installations (admin/support): a job for a subscription, scheduled when technician and slot are given. */
export const installationCreateSchema = z
  .object({
    subscription_id: z
      .string({ message: 'Subscription is required' })
      .uuid({ message: 'subscription_id must be a valid id' }),
    address: optionalText(300, 'Address'),
    contact_phone: optionalText(32, 'Contact phone'),
    preferred_date: day.nullable().optional(),
    technician_id: z.string().uuid({ message: 'technician_id must be a valid id' }).nullable().optional(),
    scheduled_start: isoDateTime.nullable().optional(),
    scheduled_end: isoDateTime.nullable().optional(),
    notes: optionalText(5000, 'Notes'),
  })
  .refine(slotRefine, slotMessage);
export type InstallationCreateInput = z.input<typeof installationCreateSchema>;
export type InstallationCreateParsed = z.output<typeof installationCreateSchema>;

/**
 * PUT/PATCH /installations/{id}: only the fields sent change. The assigned technician may change checklist,
 * notes, equipment and readings; admin/support also address, phone, preferred date and slot.
 */
export const installationUpdateSchema = z
  .object({
    address: text(300, 'Address').min(1, { message: 'Address is required' }).optional(),
    contact_phone: optionalText(32, 'Contact phone'),
    preferred_date: day.nullable().optional(),
    scheduled_start: isoDateTime.nullable().optional(),
    scheduled_end: isoDateTime.nullable().optional(),
    checklist: z.array(checklistItemSchema).max(50).optional(),
    notes: optionalText(5000, 'Notes'),
    equipment: z.array(equipmentItemSchema).max(20).optional(),
    readings: readingsSchema.optional(),
  })
  .refine(slotRefine, slotMessage);
export type InstallationUpdateInput = z.input<typeof installationUpdateSchema>;
export type InstallationUpdateParsed = z.output<typeof installationUpdateSchema>;
export const TECHNICIAN_EDITABLE_FIELDS = ['checklist', 'notes', 'equipment', 'readings'] as const;

export const installationStatusInputSchema = z.object({
  status: z.enum(INSTALLATION_STATUSES, { message: `Status must be one of ${INSTALLATION_STATUSES.join(', ')}` }),
  /** Required when failing a job. */
  failure_reason: optionalText(1000, 'Failure reason'),
  /**
   * Completing: every checklist item counts as required, so a job with unticked items is refused (409 naming
   * them) unless the technician confirms completing without them (true); which ones is then kept in the audit.
   */
  confirm_unticked: z.boolean({ message: 'confirm_unticked must be true or false' }).optional(),
});
export type InstallationStatusInput = z.input<typeof installationStatusInputSchema>;

/** PATCH /installations/{id}/assign (admin/support): a technician (null unassigns) and optionally the slot. */
export const installationAssignSchema = z
  .object({
    technician_id: z.string().uuid({ message: 'technician_id must be a valid id' }).nullable(),
    scheduled_start: isoDateTime.nullable().optional(),
    scheduled_end: isoDateTime.nullable().optional(),
  })
  .refine(slotRefine, slotMessage);
export type InstallationAssignInput = z.input<typeof installationAssignSchema>;

/** What a customer (or staff) sees of a subscription's service: its PPPoE login and its installation's progress. */
export const serviceAccessSchema = z.object({
  credentials: z.object({ username: z.string(), password: z.string().nullable(), created_at: z.string() }).nullable(),
  installation: z
    .object({
      id: z.string().uuid(),
      number: z.string(),
      status: z.enum(INSTALLATION_STATUSES),
      scheduled_start: z.string().nullable(),
      scheduled_end: z.string().nullable(),
      completed_at: z.string().nullable(),
    })
    .nullable(),
});
export type ServiceAccess = z.infer<typeof serviceAccessSchema>;
