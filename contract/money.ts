/**
 * Money is integer minor units everywhere (cents for USD). Conversions go through strings so a typed
 * "39.99" becomes exactly 3999, never 3998.9999.
 */
const FRACTION_DIGITS: Record<string, number> = {
  JPY: 0,
  KRW: 0,
  VND: 0,
  CLP: 0,
  ISK: 0,
  UGX: 0,
  XAF: 0,
  XOF: 0,
  KWD: 3,
  BHD: 3,
  OMR: 3,
  JOD: 3,
  TND: 3,
};

export function currencyDigits(currency: string): number {
  return FRACTION_DIGITS[currency.toUpperCase()] ?? 2;
}

/** "39.99" (or 39.99) in major units → 3999 minor units; null when the text is not an amount. */
export function toMinorUnits(value: string | number, currency = 'USD'): number | null {
  const text = typeof value === 'number' ? value.toFixed(currencyDigits(currency)) : value.trim();
  const m = /^(-)?(\d+)(?:[.,](\d*))?$/.exec(text);
  if (!m) return null;
  const digits = currencyDigits(currency);
  const frac = (m[3] ?? '').padEnd(digits, '0');
  if (frac.length > digits && /[1-9]/.test(frac.slice(digits))) return null;
  const minor = Number(m[2]) * 10 ** digits + Number(frac.slice(0, digits) || '0');
  return m[1] ? -minor : minor;
}

/** 3999 → "39.99" (no currency sign), for form inputs. */
export function toMajorString(minor: number, currency = 'USD'): string {
  const digits = currencyDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (digits === 0) return `${sign}${abs}`;
  const base = 10 ** digits;
  return `${sign}${Math.floor(abs / base)}.${String(abs % base).padStart(digits, '0')}`;
}

/**
 * The locale formatMoney uses when it is given none: the web app sets the reader's (their language, with their
 * browser's region: src/i18n/language.ts); undefined is Intl's default.
 */
let defaultLocale: string | undefined;
export function setDefaultMoneyLocale(locale: string | undefined): void {
  defaultLocale = locale;
}

/** 3999, "USD" → "$39.99" in the reader's locale. */
export function formatMoney(minor: number, currency = 'USD', locale?: string): string {
  const digits = currencyDigits(currency);
  return new Intl.NumberFormat(locale ?? defaultLocale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(minor / 10 ** digits);
}
