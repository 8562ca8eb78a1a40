import { DatePicker, Form, Input, Select } from 'antd';
import { getDefaultFilter } from '@refinedev/antd';
import type { CrudFilter } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import { t } from '../../i18n';
import { zodRules } from './rules';
import type { ResourceDecl } from './types';

const FROM = '__from';
const TO = '__to';

function asDay(value: unknown): Dayjs | undefined {
  return typeof value === 'string' && dayjs(value).isValid() ? dayjs(value) : undefined;
}

/**
 * The list's filters as a bar above the table: one select per filterable field with options (eq), a text box
 * per text filter (eq), a from and a to date per date-range filter (gte/lte) and a search box (contains on
 * "search"). Selects and dates apply at once, text boxes on Enter; every change replaces the table's filters,
 * which Refine keeps in the URL. A text box whose value its field's schema refuses keeps the old filters.
 */
export function FilterBar({ decl, filters, setFilters }: { decl: ResourceDecl; filters: CrudFilter[]; setFilters: (f: CrudFilter[]) => void }) {
  const selects = decl.fields.filter((f) => f.filter === true && f.options);
  const texts = decl.fields.filter((f) => f.filter === 'text');
  const ranges = decl.fields.filter((f) => f.filter === 'dateRange');
  const initialValues: Record<string, unknown> = { search: getDefaultFilter('search', filters, 'contains') };
  for (const f of [...selects, ...texts]) initialValues[f.name] = getDefaultFilter(f.name, filters, 'eq');
  for (const f of ranges) {
    initialValues[f.name + FROM] = asDay(getDefaultFilter(f.name, filters, 'gte'));
    initialValues[f.name + TO] = asDay(getDefaultFilter(f.name, filters, 'lte'));
  }

  const apply = (values: Record<string, unknown>) => {
    const next: CrudFilter[] = [...selects, ...texts].map((f) => {
      const v = values[f.name];
      return { field: f.name, operator: 'eq' as const, value: (typeof v === 'string' ? v.trim() : v) || undefined };
    });
    for (const f of ranges) {
      const from = values[f.name + FROM] as Dayjs | null | undefined;
      const to = values[f.name + TO] as Dayjs | null | undefined;
      next.push({ field: f.name, operator: 'gte', value: from ? from.startOf('day').toISOString() : undefined });
      next.push({ field: f.name, operator: 'lte', value: to ? to.endOf('day').toISOString() : undefined });
    }
    if (decl.search) next.push({ field: 'search', operator: 'contains', value: (values.search as string | undefined)?.trim() || undefined });
    setFilters(next);
  };

  const [form] = Form.useForm();
  const typed = new Set(['search', ...texts.map((f) => f.name)]);
  if (selects.length === 0 && texts.length === 0 && ranges.length === 0 && !decl.search) return null;
  return (
    <Form form={form} layout="inline" initialValues={initialValues} style={{ marginBottom: 16, rowGap: 8 }} data-testid="filter-bar"
      onValuesChange={(changed) => {
        // Typing in a text box waits for Enter or its search button; selects and dates apply at once (through
        // the form's checks, so a half-typed text box is not sent with them).
        if (!Object.keys(changed).some((k) => typed.has(k))) form.submit();
      }}
      onFinish={apply}
    >
      {decl.search && (
        <Form.Item name="search">
          <Input.Search allowClear placeholder={t('resource.search')} aria-label={t('resource.search')}
            onSearch={() => form.submit()} />
        </Form.Item>
      )}
      {texts.map((f) => (
        <Form.Item key={f.name} name={f.name} rules={zodRules(f.schema, f)}>
          <Input.Search allowClear style={{ width: 220, maxWidth: '100%' }} placeholder={t(f.filterPlaceholderKey ?? f.labelKey)} aria-label={t(f.labelKey)}
            onSearch={() => form.submit()} />
        </Form.Item>
      ))}
      {selects.map((f) => (
        <Form.Item key={f.name} name={f.name}>
          <Select allowClear style={{ minWidth: 160 }} placeholder={t(f.labelKey)} aria-label={t(f.labelKey)}
            options={f.options!.map((o) => ({ value: o.value, label: t(o.labelKey) }))} />
        </Form.Item>
      ))}
      {ranges.flatMap((f) => [
        <Form.Item key={f.name + FROM} name={f.name + FROM}>
          <DatePicker placeholder={t('resource.from', { field: t(f.labelKey) })} aria-label={t('resource.from', { field: t(f.labelKey) })} />
        </Form.Item>,
        <Form.Item key={f.name + TO} name={f.name + TO}>
          <DatePicker placeholder={t('resource.to', { field: t(f.labelKey) })} aria-label={t('resource.to', { field: t(f.labelKey) })} />
        </Form.Item>,
      ])}
    </Form>
  );
}
