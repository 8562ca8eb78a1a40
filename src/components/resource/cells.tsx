import type { ReactNode } from 'react';
import { Space, Tag, Typography } from 'antd';
import type { BaseRecord } from '@refinedev/core';
import { t } from '../../i18n';
import { currencyOf, isEmptyValue, moneyText, optionLabel } from './format';
import type { FieldDef } from './types';
import { formatDateTime, formatDay } from '../dates';

export function MoneyCell({ minor, currency }: { minor: unknown; currency: string }) {
  return <span className="money-cell">{moneyText(minor, currency)}</span>;
}

export function DateCell({ value }: { value: unknown }) {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return <>—</>;
  return <time dateTime={value}>{/^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDay(value) : formatDateTime(value)}</time>;
}

export function StatusTag({ field, value }: { field: FieldDef; value: unknown }) {
  const color = field.options?.find((o) => o.value === value)?.color ?? 'default';
  return <Tag color={color}>{optionLabel(field, value)}</Tag>;
}

/** A field's value as the list and the show page display it. */
export function renderField(field: FieldDef, value: unknown, record: BaseRecord): ReactNode {
  if (field.render) return field.render(value, record);
  if (isEmptyValue(value) && field.type !== 'boolean' && field.type !== 'money') {
    return field.emptyKey ? t(field.emptyKey) : '—';
  }
  switch (field.type) {
    case 'money':
      return <MoneyCell minor={value} currency={currencyOf(field, record)} />;
    case 'date':
    case 'day':
      return <DateCell value={value} />;
    case 'status':
      return <StatusTag field={field} value={value} />;
    case 'select':
      return optionLabel(field, value);
    case 'boolean':
      return value ? t('resource.yes') : t('resource.no');
    case 'tags':
      return (
        <Space size={[0, 4]} wrap>
          {(Array.isArray(value) ? value : []).map((v) => (
            <Tag key={String(v)}>{String(v)}</Tag>
          ))}
        </Space>
      );
    case 'number':
      return field.unitKey ? `${String(value)} ${t(field.unitKey)}` : String(value);
    case 'textarea':
      return <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{String(value)}</Typography.Paragraph>;
    default:
      return String(value);
  }
}
