import type { BaseRecord } from '@refinedev/core';
import { formatMoney } from '../../../contract/money';
import { t } from '../../i18n';
import type { FieldDef } from './types';

/** The currency of a money field on a record (falls back to USD when the record has none). */
export function currencyOf(field: FieldDef, record: BaseRecord | undefined): string {
  const c = record?.[field.currencyField ?? 'currency'];
  return typeof c === 'string' && /^[A-Z]{3}$/.test(c) ? c : 'USD';
}

export function moneyText(minor: unknown, currency: string): string {
  return typeof minor === 'number' && Number.isFinite(minor) ? formatMoney(minor, currency) : '—';
}

export function optionLabel(field: FieldDef, value: unknown): string {
  const opt = field.options?.find((o) => o.value === value);
  return opt ? t(opt.labelKey) : String(value ?? '—');
}

export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}
