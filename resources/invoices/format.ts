import { formatMoney } from '../../contract/money';
import { formatDay, formatMomentDay } from '../../src/components/dates';

/** An invoice date (YYYY-MM-DD, or an ISO timestamp) as its day; '—' when absent. */
export function dayText(value: unknown): string {
  return formatDay(value);
}

/** The day a moment (a payment, a credit entry) fell on in the ISP's time zone, else its UTC day; '—' when absent. */
export function momentDayText(value: unknown): string {
  return formatMomentDay(value);
}

/** Minor units in the invoice's currency ('—' when not a number). */
export function money(minor: unknown, currency: unknown): string {
  const c = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : 'USD';
  return typeof minor === 'number' && Number.isFinite(minor) ? formatMoney(minor, c) : '—';
}

/** 1500 basis points → "15". */
export function percentOf(bp: unknown): string {
  return typeof bp === 'number' ? String(Math.round(bp) / 100) : '0';
}
