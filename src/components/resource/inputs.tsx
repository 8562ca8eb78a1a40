import { Input, InputNumber, Switch, DatePicker, Form } from 'antd';
import { FormSelect } from '../FormSelect';
import type { BaseRecord } from '@refinedev/core';
import dayjs from 'dayjs';
import { t } from '../../i18n';
import { zodRules } from './rules';
import { MoneyInput } from './MoneyInput';
import type { FieldDef } from './types';

function control(field: FieldDef, currency: string) {
  const label = t(field.labelKey);
  switch (field.type) {
    case 'textarea':
      return <Input.TextArea rows={4} aria-label={label} />;
    case 'number':
      return (
        <InputNumber
          style={{ width: '100%' }}
          aria-label={label}
          suffix={field.unitKey ? t(field.unitKey) : undefined}
        />
      );
    case 'money':
      return <MoneyInput currency={currency} />;
    case 'boolean':
      return <Switch aria-label={label} />;
    case 'select':
    case 'status':
      return (
        <FormSelect
          aria-label={label}
          options={(field.options ?? []).map((o) => ({ value: o.value, label: t(o.labelKey) }))}
        />
      );
    case 'tags':
      return <FormSelect mode="tags" aria-label={label} tokenSeparators={[',']} open={false} />;
    case 'date':
      return <DatePicker showTime aria-label={label} />;
    case 'day':
      return <DatePicker aria-label={label} />;
    default:
      return <Input aria-label={label} />;
  }
}

/** One declared field as a form item: the right control, its label and the contract's validation; a custom field renders itself. */
export function FieldInput({
  field,
  currency,
  record,
  action = 'create',
}: {
  field: FieldDef;
  currency: string;
  record?: BaseRecord;
  action?: 'create' | 'edit';
}) {
  if (field.type === 'custom') return <>{field.input?.({ field, record, action })}</>;
  return (
    <Form.Item
      name={field.name}
      label={t(field.labelKey)}
      rules={zodRules(field.schema, field)}
      valuePropName={field.type === 'boolean' ? 'checked' : 'value'}
      getValueProps={
        field.type === 'date' || field.type === 'day'
          ? (v: unknown) => ({ value: typeof v === 'string' ? dayjs(v) : v })
          : undefined
      }
      normalize={
        field.type === 'date'
          ? (v: unknown) => (dayjs.isDayjs(v) ? v.toISOString() : v)
          : field.type === 'day'
            ? (v: unknown) => (dayjs.isDayjs(v) ? v.format('YYYY-MM-DD') : v)
            : undefined
      }
    >
      {control(field, currency)}
    </Form.Item>
  );
}
