import { Form, Input, Select } from 'antd';
import { getDefaultFilter } from '@refinedev/antd';
import type { CrudFilter } from '@refinedev/core';
import { t } from '../../i18n';
import type { ResourceDecl } from './types';

/**
 * The list's filters as a bar above the table: one select per filterable field (eq) and a search box
 * (contains on "search"). Every change replaces the table's filters, which Refine keeps in the URL.
 */
export function FilterBar({ decl, filters, setFilters }: { decl: ResourceDecl; filters: CrudFilter[]; setFilters: (f: CrudFilter[]) => void }) {
  const selects = decl.fields.filter((f) => f.filter && f.options);
  const initialValues: Record<string, unknown> = { search: getDefaultFilter('search', filters, 'contains') };
  for (const f of selects) initialValues[f.name] = getDefaultFilter(f.name, filters, 'eq');

  const apply = (values: Record<string, unknown>) => {
    const next: CrudFilter[] = selects.map((f) => ({ field: f.name, operator: 'eq' as const, value: values[f.name] || undefined }));
    if (decl.search) next.push({ field: 'search', operator: 'contains', value: (values.search as string | undefined)?.trim() || undefined });
    setFilters(next);
  };

  const [form] = Form.useForm();
  if (selects.length === 0 && !decl.search) return null;
  return (
    <Form form={form} layout="inline" initialValues={initialValues} style={{ marginBottom: 16, rowGap: 8 }} data-testid="filter-bar"
      onValuesChange={(changed, all) => {
        // Typing in the search box waits for Enter or the search button; selects apply at once.
        if (!('search' in changed)) apply(all);
      }}
      onFinish={apply}
    >
      {decl.search && (
        <Form.Item name="search">
          <Input.Search allowClear placeholder={t('resource.search')} aria-label={t('resource.search')}
            onSearch={() => form.submit()} />
        </Form.Item>
      )}
      {selects.map((f) => (
        <Form.Item key={f.name} name={f.name}>
          <Select allowClear style={{ minWidth: 160 }} placeholder={t(f.labelKey)} aria-label={t(f.labelKey)}
            options={f.options!.map((o) => ({ value: o.value, label: t(o.labelKey) }))} />
        </Form.Item>
      ))}
    </Form>
  );
}
