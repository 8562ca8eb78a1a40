import { z } from 'zod';

/** Contact form (spec §3, §7). */
export const contactInputSchema = z.object({
  name: z
    .string({ message: 'Name is required' })
    .trim()
    .min(2, { message: 'Name must be at least 2 characters' })
    .max(100, { message: 'Name must be at most 100 characters' }),
  email: z
    .string({ message: 'E-mail is required' })
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'Enter a valid e-mail address' }))
    .pipe(z.string().max(254)),
  phone: z
    .string()
    .trim()
    .max(32)
    .regex(/^[+0-9 ()-]*$/, { message: 'Enter a valid phone number' })
    .optional(),
  subject: z
    .string({ message: 'Subject is required' })
    .trim()
    .min(2, { message: 'Subject must be at least 2 characters' })
    .max(150, { message: 'Subject must be at most 150 characters' }),
  message: z
    .string({ message: 'Message is required' })
    .trim()
    .min(10, { message: 'Message must be at least 10 characters' })
    .max(5000, { message: 'Message must be at most 5000 characters' }),
  /** Honeypot: humans leave it empty (the field is hidden). A filled one is accepted and silently dropped. */
  website: z.string().max(500).optional(),
});
export type ContactInput = z.input<typeof contactInputSchema>;

export const CONTACT_STATUSES = ['new', 'handled'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const contactMessageSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  subject: z.string(),
  message: z.string(),
  status: z.enum(CONTACT_STATUSES),
  handled_by: z.string().uuid().nullable(),
  handled_at: z.string().nullable(),
  created_at: z.string(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

export const contactListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20),
  status: z.enum(CONTACT_STATUSES).optional(),
  search: z.string().trim().max(100).optional(),
});
export type ContactListQuery = z.input<typeof contactListQuerySchema>;

export const contactUpdateSchema = z.object({ status: z.enum(CONTACT_STATUSES) });
export type ContactUpdate = z.input<typeof contactUpdateSchema>;
