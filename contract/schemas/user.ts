import { z } from 'zod';
import { ROLES } from '../roles';

export const USER_STATUSES = ['active', 'suspended', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** A user as the API returns it (never the password hash). Timestamps are ISO strings. */
export const publicUserSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  company: z.string().nullable(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  isVerified: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  last_login_at: z.string().nullable(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;
