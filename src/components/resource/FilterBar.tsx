import { DatePicker, Form, Input, Select } from 'antd';
import { getDefaultFilter } from '@refinedev/antd';
import type { CrudFilter } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import { t } from '../../i18n';
import { FoldingFilters, type FilterItem } from './FoldingFilters';
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
 * which Refine keeps in the URL. A text box whose value its field's schema refuses keeps the old filters. On
 * phones all but the search box fold into a "Filters" drawer (FoldingFilters).
 */
export function FilterBar({
  decl,
  filters,
  setFilters,
}: {
  decl: ResourceDecl;
  filters: CrudFilter[];
  setFilters: (f: CrudFilter[]) => void;
}) {
  const selects = (decl.fields ?? []).filter((f) => f.filter === true && f.options);
  const texts = (decl.fields ?? []).filter((f) => f.filter === 'text');
  const ranges = (decl.fields ?? []).filter((f) => f.filter === 'dateRange');
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
    if (decl.search)
      next.push({
        field: 'search',
        operator: 'contains',
        value: (values.search as string | undefined)?.trim() || undefined,
      });
    setFilters(next);
  };

  const [form] = Form.useForm();
  const typed = new Set(['search', ...texts.map((f) => f.name)]);
  if (selects.length === 0 && texts.length === 0 && ranges.length === 0 && !decl.search) return null;

  const visible: FilterItem[] = decl.search
    ? [
        {
          name: 'search',
          label: t('resource.search'),
          control: (
            <Input.Search
              allowClear
              placeholder={t('resource.search')}
              aria-label={t('resource.search')}
              onSearch={() => form.submit()}
            />
          ),
        },
      ]
    : [];
  const folded: FilterItem[] = [
    ...texts.map((f) => ({
      name: f.name,
      label: t(f.labelKey),
      rules: zodRules(f.schema, f),
      control: (
        <Input.Search
          allowClear
          style={{ width: 220, maxWidth: '100%' }}
          placeholder={t(f.filterPlaceholderKey ?? f.labelKey)}
          aria-label={t(f.labelKey)}
          onSearch={() => form.submit()}
        />
      ),
    })),
    ...selects.map((f) => ({
      name: f.name,
      label: t(f.labelKey),
      control: (
        <Select
          allowClear
          style={{ minWidth: 160 }}
          placeholder={t(f.labelKey)}
          aria-label={t(f.labelKey)}
          options={f.options!.map((o) => ({ value: o.value, label: t(o.labelKey) }))}
        />
      ),
    })),
    ...ranges.flatMap((f) => [
      {
        name: f.name + FROM,
        label: t('resource.from', { field: t(f.labelKey) }),
        control: (
          <DatePicker
            placeholder={t('resource.from', { field: t(f.labelKey) })}
            aria-label={t('resource.from', { field: t(f.labelKey) })}
          />
        ),
      },
      {
        name: f.name + TO,
        label: t('resource.to', { field: t(f.labelKey) }),
        control: (
          <DatePicker
            placeholder={t('resource.to', { field: t(f.labelKey) })}
            aria-label={t('resource.to', { field: t(f.labelKey) })}
          />
        ),
      },
    ]),
  ];
  return (
    <FoldingFilters
      form={form}
      initialValues={initialValues}
      visible={visible}
      folded={folded}
      onValuesChange={(changed) => {
        // Typing in a text box waits for Enter or its search button; selects and dates apply at once (through
        // the form's checks, so a half-typed text box is not sent with them).
        if (!Object.keys(changed).some((k) => typed.has(k))) form.submit();
      }}
      onFinish={apply}
    />
  );
}
