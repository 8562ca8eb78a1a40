import { LANGUAGE_CODES } from '../languages';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../product';
import { publicUserSchema } from './user';

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
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .nullable()
    .transform((v) => (v ? v : null));

/** Spec §5: login requires email, password and rememberMe to be sent. */
export const loginBodySchema = z.object({
  email,
  password: z.string().min(1, { message: 'Password is required' }).max(256),
  rememberMe: z.boolean(),
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const registerBodySchema = z.object({
  name: z.string().trim().min(2, { message: 'Name must be at least 2 characters' }).max(120),
  email,
  password,
  phone: z
    .string()
    .trim()
    .min(5, { message: 'Enter a valid phone number' })
    .max(32)
    .regex(/^[+0-9 ()-]+$/, {
      message: 'Enter a valid phone number',
    }),
  address: z.string().trim().min(3, { message: 'Address is required' }).max(300),
  company: optionalText(120),
  rememberMe: z.boolean().optional(),
  /** Issue 37: the language the visitor signed up in (the site's); the account's and its e-mails' language. */
  language: z.enum(LANGUAGE_CODES, { message: `Choose one of ${LANGUAGE_CODES.join(', ')}` }).optional(),
});
export type RegisterBody = z.input<typeof registerBodySchema>;

export const emailBodySchema = z.object({ email });
export const resetPasswordBodySchema = z.object({ token: z.string().min(10).max(200), password });
export const changePasswordBodySchema = z.object({
  currentPassword: z.string().min(1, { message: 'Current password is required' }).max(256),
  newPassword: password,
});
export const verifyEmailQuerySchema = z.object({ token: z.string().min(10).max(200) });
/** POST /auth/confirm-email: the token of the link sent to a new e-mail address. */
export const confirmEmailBodySchema = z.object({ token: z.string().min(10).max(200) });

/**
 * What a user may change on their own profile (not role or status). A new e-mail address is only pending until it
 * is confirmed from a link sent to it (issue 32).
 */
export const updateProfileBodySchema = z.object({
  email: email.optional(),
  name: z.string().trim().min(2, { message: 'Name must be at least 2 characters' }).max(120).optional(),
  phone: z
    .string()
    .trim()
    .min(5)
    .max(32)
    .regex(/^[+0-9 ()-]+$/, { message: 'Enter a valid phone number' })
    .optional(),
  address: z.string().trim().min(3).max(300).optional(),
  company: optionalText(120),
  /** Issue 37: the person's language; null goes back to the browser's. */
  language: z
    .enum(LANGUAGE_CODES, { message: `Choose one of ${LANGUAGE_CODES.join(', ')}` })
    .nullable()
    .optional(),
});
export type UpdateProfileBody = z.input<typeof updateProfileBodySchema>;

export const accessTokenSchema = z.object({ token: z.string(), expires: z.string() });

/** data of login, register and refresh-token responses. */
export const authDataSchema = z.object({
  user: publicUserSchema,
  tokens: z.object({ access: accessTokenSchema }),
});
export type AuthData = z.infer<typeof authDataSchema>;
