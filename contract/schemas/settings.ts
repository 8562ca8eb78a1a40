import { z } from 'zod';
import { isLanguage, LANGUAGE_CODES } from '../languages';
import { isTimeZone } from '../time-zone';
import { autopayRetryDaysSchema } from './autopay';

/** Site settings (spec §3, §7). */
export const POLICY_TYPES = ['privacy-policy', 'terms-condition', 'refund-policy'] as const;
export type PolicyType = (typeof POLICY_TYPES)[number];

const socialSchema = z.object({
  facebook: z.string(),
  twitter: z.string(),
  instagram: z.string(),
  linkedin: z.string(),
});

export const achievementSchema = z.object({ label: z.string(), value: z.string() });
export const faqItemSchema = z.object({ question: z.string(), answer: z.string() });
export const coverageAreaSchema = z.object({ name: z.string(), postcode: z.string(), note: z.string() });

export const companySchema = z.object({
  name: z.string(),
  logo_url: z.string().nullable(),
  address: z.string(),
  support_email: z.string(),
  support_phone: z.string(),
  social: socialSchema,
});

/** The languages the ISP offers its customers and the one a visitor without a match gets (issue 37). */
export const languageSettingsSchema = z.object({
  default: z.enum(LANGUAGE_CODES),
  offered: z.array(z.enum(LANGUAGE_CODES)),
});

export const policiesSchema = z.object({
  'privacy-policy': z.string(),
  'terms-condition': z.string(),
  'refund-policy': z.string(),
});

/**
 * The ISP's own texts in another language than the default (issue 37): each field given replaces the default
 * language's for a reader of that language; a field left out (or empty) falls back to it.
 */
const publicContentTranslationSchema = z.object({
  achievements: z.array(achievementSchema).optional(),
  faq: z.array(faqItemSchema).optional(),
  about: z.string().optional(),
});
const contentTranslationSchema = publicContentTranslationSchema.extend({
  policies: policiesSchema.partial().optional(),
});
export type ContentTranslation = z.infer<typeof contentTranslationSchema>;

/** Readable by everybody (GET /settings/public; injected into index.html). */
export const publicSettingsSchema = z.object({
  company: companySchema,
  currency: z.string(),
  /** basis points: 1500 = 15% */
  tax_rate_bp: z.number().int(),
  achievements: z.array(achievementSchema),
  faq: z.array(faqItemSchema),
  /** The about page's text (plain paragraphs); '' shows the portal's own text. Optional: older servers lack it. */
  about: z.string().optional(),
  coverage_areas: z.array(coverageAreaSchema),
  languages: languageSettingsSchema,
  /**
   * The ISP's time zone (IANA name, issue 37) the portal writes moments in; null: the reader's own (web) and UTC
   * (e-mails, PDFs). Calendar days (due dates, billing periods) are never moved by it. Optional: older servers lack it.
   */
  time_zone: z.string().nullable().optional(),
  /** The language achievements, faq and about are in here (GET /settings/public?lang=es); absent: the default's. */
  content_language: z.enum(LANGUAGE_CODES).optional(),
  /** The offered languages' own versions of achievements, faq and about (issue 37); the web app picks the reader's. */
  content_translations: z.partialRecord(z.enum(LANGUAGE_CODES), publicContentTranslationSchema).optional(),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

export const policySchema = z.object({
  type: z.enum(POLICY_TYPES),
  markdown: z.string(),
  updated_at: z.string().nullable(),
  /** The language of markdown (GET /settings/policies/:type?lang=es), the default's when there is none in it. */
  language: z.enum(LANGUAGE_CODES).optional(),
});
export type Policy = z.infer<typeof policySchema>;

export const billingSettingsSchema = z.object({
  invoice_prefix: z.string(),
  invoice_next_number: z.number().int().min(1),
  grace_days: z.number().int().min(0).max(90),
  /** The billing job issues the next period's invoice this many days before the current period ends. */
  renewal_days_before: z.number().int().min(0).max(60),
  /** Autopay: a failed automatic payment is tried again this many days after the first attempt (issue 21). */
  autopay_retry_days: z.array(z.number().int()).optional(),
});

/**
 * Dunning (issue 38): the reminders the daily billing run sends about an open invoice, each step a number of days
 * from its due date (−3: three days before, 0: on the day, 7: a week late), and an optional late fee, its own
 * invoice, added once when the invoice is after_days past due and still unpaid (docs/dunning.md).
 */
export const LATE_FEE_TYPES = ['none', 'fixed', 'percent'] as const;
export const DUNNING_OFFSET_MIN = -30;
export const DUNNING_OFFSET_MAX = 90;
export const DUNNING_MAX_STEPS = 10;

export const dunningSettingsSchema = z.object({
  /** Off: no reminders and no late fees (the overdue and suspension e-mails go out as always). */
  enabled: z.boolean(),
  /** Sorted by offset, each offset once. */
  steps: z.array(z.object({ offset_days: z.number().int() })),
  late_fee: z.object({
    type: z.enum(LATE_FEE_TYPES),
    /** type fixed: the fee in minor units of the invoice's currency. */
    amount: z.number().int(),
    /** type percent: basis points of the invoice's total (250 = 2.5%). */
    percent_bp: z.number().int(),
    /** Added when the invoice is this many days past due and still unpaid. */
    after_days: z.number().int(),
  }),
});
export type DunningSettings = z.infer<typeof dunningSettingsSchema>;

/** PUT /settings dunning: every field optional (the stored ones are kept); steps and late_fee replace the stored. */
export const dunningUpdateSchema = z
  .object({
    enabled: z.boolean(),
    steps: z
      .array(
        z.object({
          offset_days: z
            .number()
            .int({ message: 'A step is a whole number of days' })
            .min(DUNNING_OFFSET_MIN, { message: 'A step is between 30 days before and 90 days after the due date' })
            .max(DUNNING_OFFSET_MAX, { message: 'A step is between 30 days before and 90 days after the due date' }),
        }),
      )
      .max(DUNNING_MAX_STEPS, { message: 'At most 10 dunning steps' })
      .refine((steps) => new Set(steps.map((s) => s.offset_days)).size === steps.length, {
        message: 'Each step day once',
      }),
    late_fee: z
      .object({
        type: z.enum(LATE_FEE_TYPES, { message: 'Choose none, fixed or percent' }),
        amount: z
          .number()
          .int({ message: 'The late fee is a whole amount in minor units' })
          .min(0, { message: 'The late fee cannot be negative' })
          .max(100_000_000, { message: 'The late fee is too large' })
          .optional(),
        percent_bp: z
          .number()
          .int({ message: 'The late fee percentage is a whole number of basis points' })
          .min(0, { message: 'The late fee percentage must be between 0 and 100%' })
          .max(10_000, { message: 'The late fee percentage must be between 0 and 100%' })
          .optional(),
        after_days: z
          .number()
          .int({ message: 'The late fee days must be a whole number' })
          .min(1, { message: 'The late fee is added between 1 and 90 days after the due date' })
          .max(90, { message: 'The late fee is added between 1 and 90 days after the due date' })
          .optional(),
      })
      .superRefine((fee, ctx) => {
        if (fee.type === 'fixed' && !fee.amount)
          ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Enter the late fee amount' });
        if (fee.type === 'percent' && !fee.percent_bp)
          ctx.addIssue({ code: 'custom', path: ['percent_bp'], message: 'Enter the late fee percentage' });
      }),
  })
  .partial();

/** Upload quotas in MB (issue 32): all attachments of a ticket, all photos of an installation, a customer's 24 hours. */
export const uploadQuotasSchema = z.object({
  ticket_mb: z.number().int().min(1).max(10_240),
  installation_mb: z.number().int().min(1).max(10_240),
  customer_daily_mb: z.number().int().min(1).max(10_240),
});

/** SMTP as the admin sees it: the password itself is never returned, only whether one is set. */
export const smtpSettingsSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  secure: z.boolean(),
  user: z.string(),
  from: z.string(),
  password_set: z.boolean(),
});

/** GET /settings (admin): the default language's content and every stored translation (policies included). */
export const adminSettingsSchema = publicSettingsSchema.extend({
  billing: billingSettingsSchema,
  /** Optional: older servers lack it. */
  dunning: dunningSettingsSchema.optional(),
  uploads: uploadQuotasSchema,
  smtp: smtpSettingsSchema,
  policies: policiesSchema,
  content_translations: z.partialRecord(z.enum(LANGUAGE_CODES), contentTranslationSchema).optional(),
});
export type AdminSettings = z.infer<typeof adminSettingsSchema>;

const text = (max: number) => z.string().trim().max(max);
const url = z
  .string()
  .trim()
  .max(300)
  .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), {
    message: 'Enter a full http(s) address or leave it empty',
  });

/**
 * An input's texts by language code (issue 37): any key that is not one of the portal's languages is refused at
 * its own path (content_translations.de), with the codes to choose from.
 */
export const byLanguage = <T extends z.ZodType>(value: T) =>
  z.record(z.string(), value).superRefine((map, ctx) => {
    for (const code of Object.keys(map))
      if (!isLanguage(code))
        ctx.addIssue({ code: 'custom', path: [code], message: `Choose from ${LANGUAGE_CODES.join(', ')}` });
  });

const achievementsInput = z
  .array(z.object({ label: text(80).min(1), value: text(40).min(1) }))
  .max(12, { message: 'At most 12 achievements' });
const faqInput = z
  .array(z.object({ question: text(300).min(3), answer: text(5000).min(1) }))
  .max(50, { message: 'At most 50 FAQ entries' });
const policiesInput = z
  .object({
    'privacy-policy': z.string().max(100_000),
    'terms-condition': z.string().max(100_000),
    'refund-policy': z.string().max(100_000),
  })
  .partial();

/** PUT /settings: every section optional; a section that is sent replaces the fields it names. */
export const settingsUpdateSchema = z.object({
  company: z
    .object({
      name: z.string().trim().min(2, { message: 'Company name must be at least 2 characters' }).max(100),
      address: text(300),
      support_email: z.union([
        z.literal(''),
        z
          .string()
          .trim()
          .toLowerCase()
          .pipe(z.email({ message: 'Enter a valid e-mail address' })),
      ]),
      support_phone: text(40),
      social: z.object({ facebook: url, twitter: url, instagram: url, linkedin: url }).partial(),
    })
    .partial()
    .optional(),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, { message: 'Currency must be a 3-letter code' })
    .optional(),
  tax_rate_bp: z
    .number()
    .int({ message: 'Tax rate must be a whole number of basis points' })
    .min(0, { message: 'Tax rate cannot be negative' })
    .max(10000, { message: 'Tax rate cannot exceed 100%' })
    .optional(),
  achievements: achievementsInput.optional(),
  faq: faqInput.optional(),
  about: text(5000).optional(),
  coverage_areas: z
    .array(z.object({ name: text(120).min(1), postcode: text(20), note: text(300) }))
    .max(500, { message: 'At most 500 coverage areas' })
    .optional(),
  languages: z
    .object({
      default: z.enum(LANGUAGE_CODES, { message: `Choose one of ${LANGUAGE_CODES.join(', ')}` }),
      offered: z
        .array(z.enum(LANGUAGE_CODES, { message: `Choose from ${LANGUAGE_CODES.join(', ')}` }))
        .min(1, { message: 'Offer at least one language' })
        .refine((codes) => new Set(codes).size === codes.length, { message: 'Each language once' }),
    })
    .refine((l) => l.offered.includes(l.default), {
      message: 'The default language must be one of the offered languages',
      path: ['default'],
    })
    .optional(),
  /** An IANA time zone name Intl knows (America/Mexico_City); null: none (the reader's own on the web, UTC in mail). */
  time_zone: z
    .string()
    .trim()
    .refine(isTimeZone, { message: 'Enter a time zone name such as America/Mexico_City' })
    .nullable()
    .optional(),
  billing: z
    .object({
      invoice_prefix: text(20),
      invoice_next_number: z.number().int().min(1, { message: 'Next invoice number must be at least 1' }),
      grace_days: z.number().int().min(0).max(90, { message: 'Grace period must be between 0 and 90 days' }),
      renewal_days_before: z
        .number()
        .int({ message: 'Renewal days must be a whole number' })
        .min(0, { message: 'Renewal invoices must be issued between 0 and 60 days before the period ends' })
        .max(60, { message: 'Renewal invoices must be issued between 0 and 60 days before the period ends' }),
      autopay_retry_days: autopayRetryDaysSchema,
    })
    .partial()
    .optional(),
  dunning: dunningUpdateSchema.optional(),
  uploads: z
    .object({
      ticket_mb: z
        .number()
        .int({ message: 'The quota per ticket must be a whole number of MB' })
        .min(1, { message: 'The quota per ticket must be between 1 and 10240 MB' })
        .max(10_240, { message: 'The quota per ticket must be between 1 and 10240 MB' }),
      installation_mb: z
        .number()
        .int({ message: 'The quota per installation must be a whole number of MB' })
        .min(1, { message: 'The quota per installation must be between 1 and 10240 MB' })
        .max(10_240, { message: 'The quota per installation must be between 1 and 10240 MB' }),
      customer_daily_mb: z
        .number()
        .int({ message: "A customer's daily quota must be a whole number of MB" })
        .min(1, { message: "A customer's daily quota must be between 1 and 10240 MB" })
        .max(10_240, { message: "A customer's daily quota must be between 1 and 10240 MB" }),
    })
    .partial()
    .optional(),
  smtp: z
    .object({
      host: text(255),
      port: z.number().int().min(1).max(65535),
      secure: z.boolean(),
      user: text(255),
      from: text(255),
      /** '' or absent: keep the stored password; null: clear it; anything else: replace it. */
      password: z.string().max(1000).nullable(),
    })
    .partial()
    .optional(),
  policies: policiesInput.optional(),
  /**
   * Other languages' versions of the content (issue 37), by language code: a language sent replaces its stored
   * version (null removes it), languages not sent are kept. Only offered languages other than the default.
   */
  content_translations: byLanguage(
    z
      .object({
        achievements: achievementsInput.optional(),
        faq: faqInput.optional(),
        about: text(5000).optional(),
        policies: policiesInput.optional(),
      })
      .nullable(),
  ).optional(),
});
export type SettingsUpdate = z.input<typeof settingsUpdateSchema>;
export type SettingsUpdateParsed = z.output<typeof settingsUpdateSchema>;

export const testEmailSchema = z.object({
  to: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'Enter a valid e-mail address' })),
});
