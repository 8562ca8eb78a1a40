import { z } from 'zod';

/**
 * Personal API tokens for integrations (issue 12): an admin creates a named token that acts as a staff role,
 * sees its secret once, and revokes it. The secret is `isp_` + 32 random bytes in base64url; only its SHA-256
 * is stored, with a short prefix to tell tokens apart on screen.
 */
export const API_TOKEN_MARKER = 'isp_';
/** Characters of the secret after the marker that are kept (and shown) as the token's prefix. */
export const API_TOKEN_PREFIX_LENGTH = 8;

/** The roles a token may act as (super_admin only when its creator is a super_admin). */
export const API_TOKEN_ROLES = ['admin', 'billing', 'support', 'technician', 'super_admin'] as const;
export type ApiTokenRole = (typeof API_TOKEN_ROLES)[number];

export const API_TOKEN_STATUSES = ['active', 'revoked', 'expired'] as const;
export type ApiTokenStatus = (typeof API_TOKEN_STATUSES)[number];

/** Does a bearer value look like an API token (rather than a JWT)? */
export const isApiTokenSecret = (value: string): boolean => value.startsWith(API_TOKEN_MARKER);

/** How a token is shown: the marker and its prefix, the rest elided. */
export const apiTokenHint = (prefix: string): string => `${API_TOKEN_MARKER}${prefix}…`;

export const apiTokenCreateSchema = z.object({
  name: z
    .string({ message: 'Name is required' })
    .trim()
    .min(1, { message: 'Name is required' })
    .max(100, { message: 'Name must be at most 100 characters' }),
  role: z.enum(API_TOKEN_ROLES, { message: `Role must be one of ${API_TOKEN_ROLES.join(', ')}` }),
  /** When the token stops working; absent or null: never. Must lie in the future (checked by the server's clock). */
  expiresAt: z.iso
    .datetime({ offset: true, message: 'Expiry must be an ISO date-time, e.g. 2030-01-31T00:00:00Z' })
    .nullable()
    .optional(),
});
export type ApiTokenCreate = z.input<typeof apiTokenCreateSchema>;
export type ApiTokenCreateParsed = z.output<typeof apiTokenCreateSchema>;

/** A token as listed: never its secret or hash. */
export const apiTokenSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  role: z.enum(API_TOKEN_ROLES),
  prefix: z.string(),
  created_by: z.string().uuid(),
  created_by_name: z.string(),
  created_by_email: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  /** Derived from revoked_at and expires_at at the time of the answer. */
  status: z.enum(API_TOKEN_STATUSES),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The create answer: the token and, this once only, its secret. */
export const createdApiTokenSchema = apiTokenSchema.extend({ secret: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

export const apiTokenListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20),
});
export type ApiTokenListQuery = z.input<typeof apiTokenListQuerySchema>;
