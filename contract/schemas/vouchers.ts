import { z } from 'zod';
import { LANGUAGE_CODES } from '../languages';

/**
 * Prepaid vouchers (issue 22): staff generate a batch of single-use codes for a plan; a customer redeems one in
 * the portal, or a MikroTik hotspot logs in with one through RADIUS. Codes use an alphabet without look-alikes
 * (no 0/O, 1/I/L) and end in a check character (weighted sum mod 31), so a typo is refused before any look-up.
 */
export const VOUCHER_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const VOUCHER_STATES = ['unused', 'active', 'used_up', 'expired', 'revoked'] as const;
export type VoucherState = (typeof VOUCHER_STATES)[number];
export const VOUCHER_MAX_BATCH = 100_000;
/**
 * A batch up to this many codes is made in its create request (201, with the codes); a larger one by a job
 * (202): its `generated` count grows until its status is "ready" (issue 33).
 */
export const VOUCHER_INLINE_BATCH = 1_000;
export const VOUCHER_BATCH_STATUSES = ['generating', 'ready'] as const;

/** Upper-case, without spaces and dashes (a printed card may group the code as XXXX-XXXX). */
export const normalizeVoucherCode = (code: string): string => code.toUpperCase().replace(/[\s-]/g, '');

/**
 * Weighted sum mod 31 (a prime): the character at distance d from the right end counts d + 1 times. Weights 1..16
 * are distinct and non-zero mod 31, so every single wrong character and every swap of two neighbours is caught.
 */
function weightedSum(chars: string, firstWeight: number): number {
  const n = VOUCHER_ALPHABET.length;
  let sum = 0;
  for (let i = chars.length - 1, w = firstWeight; i >= 0; i--, w++) {
    const value = VOUCHER_ALPHABET.indexOf(chars[i]!);
    if (value < 0) return -1;
    sum = (sum + w * value) % n;
  }
  return sum;
}

/** The check character for a code's payload (all characters but the last). */
export function voucherCheckCharacter(payload: string): string {
  const sum = weightedSum(payload, 2);
  if (sum < 0) throw new Error('Not a voucher payload');
  const n = VOUCHER_ALPHABET.length;
  return VOUCHER_ALPHABET[(n - sum) % n]!;
}

/** True when a (normalized) code is made of the alphabet and its last character checks out. */
export function isWellFormedVoucherCode(code: string): boolean {
  return code.length >= 8 && code.length <= 16 && weightedSum(code, 1) === 0;
}

/**
 * A code of a card imported from another system (issue 39), once normalized: 4–32 letters and digits. Such codes
 * have no check character, so they are looked up only while imported cards exist (a miss counts as a guess).
 */
export const IMPORTED_VOUCHER_CODE = /^[A-Z0-9]{4,32}$/;
export const isImportedVoucherShape = (code: string): boolean => IMPORTED_VOUCHER_CODE.test(code);

const minutes = z
  .number()
  .int()
  .min(1, { message: 'Validity must be at least 1 minute' })
  .max(5_256_000, { message: 'Validity must be at most 10 years' });

export const voucherBatchCreateSchema = z
  .object({
    plan_id: z.string().uuid({ message: 'Plan is required' }),
    count: z
      .number({ message: 'Count is required' })
      .int()
      .min(1, { message: 'Count must be at least 1' })
      .max(VOUCHER_MAX_BATCH, { message: `Count must be at most ${VOUCHER_MAX_BATCH}` }),
    /** Time from first use; null/absent: no time limit (then a data allowance is required). */
    validity_minutes: minutes.nullable().optional(),
    data_allowance_mb: z
      .number()
      .int()
      .min(1, { message: 'Data allowance must be at least 1 MB' })
      .max(100_000_000)
      .nullable()
      .optional(),
    /** Integer minor units (what a card sells for). */
    price: z.number().int().min(0, { message: 'Price must not be negative' }).max(100_000_000),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, { message: 'Currency must be a 3-letter code, e.g. USD' })
      .optional(),
    /** Characters per code, the check character included. */
    code_length: z
      .number()
      .int()
      .min(8, { message: 'Code length must be at least 8' })
      .max(16, { message: 'Code length must be at most 16' })
      .default(10),
  })
  .refine((b) => b.validity_minutes != null || b.data_allowance_mb != null, {
    message: 'A validity or a data allowance is required',
    path: ['validity_minutes'],
  });
export type VoucherBatchCreate = z.input<typeof voucherBatchCreateSchema>;
export type VoucherBatchCreateParsed = z.output<typeof voucherBatchCreateSchema>;

export const voucherBatchSchema = z.object({
  id: z.string().uuid(),
  plan_id: z.string().uuid(),
  plan_name: z.string(),
  count: z.number(),
  validity_minutes: z.number().nullable(),
  data_allowance_mb: z.number().nullable(),
  price: z.number(),
  currency: z.string(),
  code_length: z.number(),
  created_by: z.string().uuid().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  /** The system its cards were imported from (issue 39: "phpnuxbill", "daloradius"); null for the portal's own. */
  imported_from: z.string().nullable(),
  /** "generating" while a job makes its codes (see `generated`), then "ready". */
  status: z.enum(VOUCHER_BATCH_STATUSES),
  /** Codes made so far: `count` once ready (fewer only when it was revoked while being made). */
  generated: z.number(),
  /** Until when the plain codes can be exported (CSV, cards): an hour from when the batch was ready; null before and after. */
  export_until: z.string().nullable(),
  states: z.record(z.string(), z.number()),
});
export type VoucherBatch = z.infer<typeof voucherBatchSchema>;

/** The create answer: the batch and, this once, its plain codes (none yet for a batch a job makes: 202). */
export const createdVoucherBatchSchema = voucherBatchSchema.extend({ codes: z.array(z.string()) });

export const voucherSchema = z.object({
  id: z.string().uuid(),
  batch_id: z.string().uuid(),
  code_hint: z.string(),
  state: z.enum(VOUCHER_STATES),
  first_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  used_bytes: z.number(),
  redeemed_by: z.string().uuid().nullable(),
  subscription_id: z.string().uuid().nullable(),
  created_at: z.string(),
});
export type Voucher = z.infer<typeof voucherSchema>;

const page = z.coerce.number().int().min(1, { message: 'Page must be at least 1' }).default(1);
const limit = z.coerce.number().int().min(1).max(500, { message: 'Limit must be at most 500' }).default(50);

export const voucherBatchListQuerySchema = z.object({ page, limit });
/** GET /vouchers/batches/:id/cards.pdf: the sheet's language (issue 37); the ISP's default when left out. */
export const voucherCardsQuerySchema = z.object({
  language: z.enum(LANGUAGE_CODES, { message: `Choose one of ${LANGUAGE_CODES.join(', ')}` }).optional(),
});
export const voucherListQuerySchema = z.object({
  page,
  limit,
  state: z.enum(VOUCHER_STATES, { message: `State must be one of ${VOUCHER_STATES.join(', ')}` }).optional(),
});

export const voucherRedeemSchema = z.object({
  code: z
    .string({ message: 'Code is required' })
    .trim()
    .min(1, { message: 'Code is required' })
    .max(40, { message: 'Code is too long' }),
});

export const voucherRedeemedSchema = z.object({
  voucher_id: z.string().uuid(),
  subscription_id: z.string().uuid(),
  plan_id: z.string().uuid(),
  /** true: an existing subscription of this plan was extended (or its data line topped up); false: a new one started. */
  extended: z.boolean(),
  /** null: a data line without a time limit (it ends when its data is used). */
  period_end: z.string().nullable(),
  /** A voucher with data (issue 31): the line's allowance and use in bytes after the redemption; null for time only. */
  data_allowance_bytes: z.number().int().nullable(),
  data_used_bytes: z.number().int(),
});
