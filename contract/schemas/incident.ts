import { z } from 'zod';
import { INCIDENT_KINDS, INCIDENT_SOURCES } from './messaging';

/**
 * Outages and maintenance windows (issue 38): the staff resource (/api/incidents), the customer's home banner
 * (GET /me/home `incidents`) and the public status page (GET /status). JSON is snake_case.
 */

const moment = z.iso.datetime({ offset: true, message: 'Must be a date and time (ISO 8601)' });

/** An incident as staff see it. */
export const incidentSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(INCIDENT_KINDS),
  source: z.enum(INCIDENT_SOURCES),
  title: z.string(),
  description: z.string().nullable(),
  area: z.string().nullable(),
  device_id: z.string().uuid().nullable(),
  interface_name: z.string().nullable(),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type Incident = z.infer<typeof incidentSchema>;

const title = z
  .string({ message: 'Title is required' })
  .trim()
  .min(3, { message: 'Title must be at least 3 characters' })
  .max(200, { message: 'Title must be at most 200 characters' });
const description = z.string().trim().max(4000, { message: 'Description must be at most 4000 characters' });
const area = z.string().trim().max(200, { message: 'Area must be at most 200 characters' });

/**
 * Staff create an incident: a maintenance window or a manual outage notice, about a device (its customers: those
 * with sessions through it) or an area (the customers of the devices at that location). Staff incidents are
 * source "staff"; the poller opens its own.
 */
export const incidentInputSchema = z
  .object({
    kind: z.enum(INCIDENT_KINDS, { message: `Kind must be one of ${INCIDENT_KINDS.join(', ')}` }),
    title,
    description: description.nullable().optional().default(null),
    area: area.nullable().optional().default(null),
    device_id: z.string().uuid({ message: 'Device must be a device id' }).nullable().optional().default(null),
    starts_at: moment,
    ends_at: moment.nullable().optional().default(null),
  })
  .superRefine((v, ctx) => {
    if (!v.device_id && !v.area?.trim())
      ctx.addIssue({ code: 'custom', path: ['area'], message: 'Give a device or an area' });
    if (v.ends_at && Date.parse(v.ends_at) <= Date.parse(v.starts_at))
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'The end must be after the start' });
  });
export type IncidentInput = z.output<typeof incidentInputSchema>;

/** Staff edit an incident: its kind, texts, device or area, and times. */
export const incidentUpdateSchema = z.object({
  kind: z.enum(INCIDENT_KINDS, { message: `Kind must be one of ${INCIDENT_KINDS.join(', ')}` }).optional(),
  title: title.optional(),
  device_id: z.string().uuid({ message: 'Device must be a device id' }).nullable().optional(),
  description: description.nullable().optional(),
  area: area.nullable().optional(),
  starts_at: moment.optional(),
  ends_at: moment.nullable().optional(),
});

/** What the home banner and the status page show of an incident: no device, no customer, nothing internal. */
export const publicIncidentSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(INCIDENT_KINDS),
  source: z.enum(INCIDENT_SOURCES),
  /** Staff's title; a poller incident's is a standard text the screens write in the reader's language. */
  title: z.string(),
  description: z.string().nullable(),
  area: z.string().nullable(),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
});
export type PublicIncident = z.infer<typeof publicIncidentSchema>;

/** GET /status: current incidents and upcoming maintenance by area, and those resolved in the last days. */
export const publicStatusSchema = z.object({
  areas: z.array(
    z.object({
      /** null: incidents staff gave no area. */
      area: z.string().nullable(),
      current: z.array(publicIncidentSchema),
      upcoming: z.array(publicIncidentSchema),
    }),
  ),
  resolved: z.array(publicIncidentSchema),
});
export type PublicStatus = z.infer<typeof publicStatusSchema>;

export const INCIDENT_MESSAGES = {
  status: 'Service status retrieved successfully',
  resolved: 'Incident resolved',
  notFound: 'Incident not found',
  alreadyResolved: 'This incident is already resolved',
} as const;
