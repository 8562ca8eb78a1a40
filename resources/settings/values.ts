import type { AdminSettings, SettingsUpdate } from '../../contract/schemas/settings';
import { toMajorString, toMinorUnits } from '../../contract/money';

/**
 * The settings form's values: the API's shape, with the tax rate in percent, an SMTP password to type and the time
 * zone as '' for none.
 */
export type SettingsFormValues = Omit<AdminSettings, 'tax_rate_bp' | 'smtp' | 'time_zone'> & {
  time_zone: string;
  tax_rate_percent: string;
  smtp: Omit<AdminSettings['smtp'], 'password_set'> & { password?: string };
};

/** 750 basis points → "7.50" percent (exact: both have two decimals). */
export function bpToPercent(bp: number): string {
  return toMajorString(bp, 'USD');
}

/** "7.5" percent → 750 basis points; null when the text is not a percentage with at most two decimals. */
export function percentToBp(text: string): number | null {
  return toMinorUnits(text, 'USD');
}

/** "1, 3, 5" → [1, 3, 5]; "" → []; null when a part is not a whole number. */
export function parseRetryDays(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  return parts.every((p) => /^\d+$/.test(p)) ? parts.map(Number) : null;
}

/** "-3, 0, 3, 7" (a minus sign or a hyphen) → dunning steps; "" → []; null when a part is not a whole number. */
export function parseDunningSteps(text: string): Array<{ offset_days: number }> | null {
  const parts = text
    .replace(/\u2212/g, '-')
    .split(/[\s,;]+/)
    .filter(Boolean);
  return parts.every((p) => /^-?\d+$/.test(p)) ? parts.map((p) => ({ offset_days: Number(p) })) : null;
}

/** GET /settings → form. The SMTP password is never pre-filled (the API does not send it). */
export function toFormValues(s: AdminSettings): SettingsFormValues {
  const { tax_rate_bp, smtp, time_zone, ...rest } = s;
  const { password_set: _set, ...smtpRest } = smtp;
  return {
    ...rest,
    time_zone: time_zone ?? '',
    tax_rate_percent: bpToPercent(tax_rate_bp),
    smtp: { ...smtpRest, password: '' },
  };
}

/**
 * The content's other languages (issue 37) as the form has them: one entry per offered language other than the
 * default (null: none, which removes a stored one). Languages no longer offered are not sent (the server keeps them).
 */
function contentTranslations(v: SettingsFormValues): SettingsUpdate['content_translations'] {
  const { offered, default: base } = v.languages;
  return Object.fromEntries(
    offered.filter((code) => code !== base).map((code) => [code, v.content_translations?.[code] ?? null]),
  );
}

/** Form → PUT /settings. An empty password keeps the stored one (''); logo_url is set by the upload only. */
export function toSettingsPayload(v: SettingsFormValues): SettingsUpdate {
  const { logo_url: _logo, ...company } = v.company;
  return {
    company,
    currency: v.currency,
    tax_rate_bp: percentToBp(String(v.tax_rate_percent ?? '')) ?? undefined,
    billing: v.billing,
    // Absent when the server predates dunning (issue 38).
    ...(v.dunning ? { dunning: v.dunning } : {}),
    uploads: v.uploads,
    smtp: { ...v.smtp, password: v.smtp.password ?? '' },
    policies: v.policies,
    achievements: v.achievements ?? [],
    faq: v.faq ?? [],
    ...(v.about === undefined ? {} : { about: v.about }),
    coverage_areas: v.coverage_areas ?? [],
    languages: v.languages,
    // '' (the reader's own) clears it.
    time_zone: v.time_zone || null,
    content_translations: contentTranslations(v),
  };
}
