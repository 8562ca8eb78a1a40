import { LANGUAGE_CODES } from '../languages';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../product';
import { ROLES, type Role } from '../roles';

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
  /** An e-mail change waiting for confirmation from the new address (issue 32); `email` is still the address in use. */
  pending_email: z.string().nullable().optional(),
  /** Their language (issue 37); null: the browser's among the ISP's offered languages. */
  language: z.enum(LANGUAGE_CODES).nullable().optional(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

// ---------------------------------------------------------------------------------------------------------
// User management (issue 6): /api/users. Staff screens see the customer number too.

/** A user as the user-management endpoints return it: the public fields and the customer number (C-000123). */
export const managedUserSchema = publicUserSchema.extend({ customer_number: z.string() });
export type ManagedUser = z.infer<typeof managedUserSchema>;

/** Empty query values ("role=") mean "no filter", as the screen sends every filter of spec §3. */
const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const userListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).optional().default(1),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20),
  search: z.preprocess(emptyToUndefined, z.string().trim().max(100).optional()),
  role: z.preprocess(emptyToUndefined, z.enum(ROLES).optional()),
  status: z.preprocess(emptyToUndefined, z.enum(USER_STATUSES).optional()),
  company: z.preprocess(emptyToUndefined, z.string().trim().max(120).optional()),
});
export type UserListQuery = z.input<typeof userListQuerySchema>;
export type UserListQueryParsed = z.output<typeof userListQuerySchema>;

/** Spec §3 / §9: the user list's filters, all empty by default. */
export const USER_FILTER_KEYS = ['search', 'role', 'status', 'company'] as const;
export type UserFilters = Record<(typeof USER_FILTER_KEYS)[number], string>;

const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid e-mail address' }))
  .pipe(z.string().max(254));
const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(256, { message: 'Password must be at most 256 characters' });
const name = z.string().trim().min(2, { message: 'Name must be at least 2 characters' }).max(120);
const nullableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v ? v : null));
const phone = z
  .string()
  .trim()
  .max(32)
  .regex(/^[+0-9 ()-]*$/, { message: 'Enter a valid phone number' })
  .nullable()
  .optional()
  .transform((v) => (v === undefined ? undefined : v ? v : null));

export const userCreateSchema = z.object({
  name,
  email,
  password,
  role: z.enum(ROLES).optional().default('user'),
  status: z.enum(USER_STATUSES).optional().default('active'),
  phone,
  address: nullableText(300),
  company: nullableText(120),
});
export type UserCreate = z.input<typeof userCreateSchema>;
export type UserCreateParsed = z.output<typeof userCreateSchema>;

/** Update body: absent fields are unchanged. Status and password have their own endpoints. */
export const userUpdateSchema = z.object({
  name: name.optional(),
  email: email.optional(),
  role: z.enum(ROLES).optional(),
  phone,
  address: nullableText(300),
  company: nullableText(120),
});
export type UserUpdate = z.input<typeof userUpdateSchema>;
export type UserUpdateParsed = z.output<typeof userUpdateSchema>;

export const userStatusBodySchema = z.object({
  status: z.enum(USER_STATUSES, { message: `Status must be one of ${USER_STATUSES.join(', ')}` }),
});
export const userPasswordBodySchema = z.object({ newPassword: password });

// ---------------------------------------------------------------------------------------------------------
// Who may manage whom. Pure, shared by the server (which enforces it) and the screens (which offer only
// what the server would accept).

const PRIVILEGED: readonly Role[] = ['admin', 'super_admin'];

/** The roles a caller may give a user (on create, or as a new role on edit). */
export function assignableRoles(actor: Role): Role[] {
  switch (actor) {
    case 'super_admin':
      return [...ROLES];
    case 'admin':
      return ROLES.filter((r) => !PRIVILEGED.includes(r));
    case 'support':
      return ['user'];
    default:
      return [];
  }
}

/**
 * May the caller act on (edit, change the status of, reset the password of) a user who has this role?
 * super_admin: anybody; admin: everybody but admins and super_admins; support: customers only.
 */
export function canManageRole(actor: Role, target: Role): boolean {
  if (actor === 'super_admin') return true;
  if (actor === 'admin') return !PRIVILEGED.includes(target);
  if (actor === 'support') return target === 'user';
  return false;
}

/** Only admin and super_admin delete users (within canManageRole). */
export function canDeleteRole(actor: Role, target: Role): boolean {
  return PRIVILEGED.includes(actor) && canManageRole(actor, target);
}

/** Only admin and super_admin set passwords for others (within canManageRole). */
export function canResetPasswordOf(actor: Role, target: Role): boolean {
  return PRIVILEGED.includes(actor) && canManageRole(actor, target);
}

// ---------------------------------------------------------------------------------------------------------
// CSV of the user list (the screen's export and GET /users/export.csv write the same columns and escaping).

/**
 * One CSV field (RFC 4180): always quoted, quotes doubled; a value a spreadsheet would run as a formula
 * (starting with =, +, -, @, tab or carriage return) gets a leading apostrophe so it stays text.
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export const csvLine = (fields: readonly unknown[]) => `${fields.map(csvField).join(',')}\r\n`;

export const USER_CSV_HEADER = [
  'Customer number',
  'Name',
  'E-mail',
  'Phone',
  'Company',
  'Role',
  'Status',
  'Verified',
  'Created',
] as const;

export function userCsvFields(
  u: Pick<
    ManagedUser,
    'customer_number' | 'name' | 'email' | 'phone' | 'company' | 'role' | 'status' | 'isVerified' | 'created_at'
  >,
): unknown[] {
  return [
    u.customer_number,
    u.name,
    u.email,
    u.phone,
    u.company,
    u.role,
    u.status,
    u.isVerified ? 'yes' : 'no',
    u.created_at,
  ];
}

/** A whole CSV document (header and one line per user), with a BOM so spreadsheets read it as UTF-8. */
export function usersCsv(list: Parameters<typeof userCsvFields>[0][]): string {
  return `\uFEFF${csvLine(USER_CSV_HEADER)}${list.map((u) => csvLine(userCsvFields(u))).join('')}`;
}
