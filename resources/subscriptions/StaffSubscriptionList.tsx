import { DatePicker, Form, Input, Select } from 'antd';
import { List, getDefaultFilter, useTable } from '@refinedev/antd';
import { useList, type BaseRecord, type CrudFilter } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import { useNavigate } from 'react-router';
import type { Plan } from '../../contract/schemas/plan';
import { FoldingFilters, ResponsiveTable, fieldColumns } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { staffDetailPath, subscriptionsResource as decl } from './resource';
import { HeaderTitle } from '../../src/components/Text';

const DAY = 'YYYY-MM-DD';

interface FilterValues {
  status?: string;
  plan_id?: string;
  search?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** The filters as the API's query keys (all eq; the data provider drops empty ones). */
export function toFilters(values: FilterValues): CrudFilter[] {
  const [from, to] = values.range ?? [];
  return [
    { field: 'status', operator: 'eq', value: values.status || undefined },
    { field: 'plan_id', operator: 'eq', value: values.plan_id || undefined },
    { field: 'search', operator: 'contains', value: values.search?.trim() || undefined },
    { field: 'from', operator: 'eq', value: from ? from.format(DAY) : undefined },
    { field: 'to', operator: 'eq', value: to ? to.format(DAY) : undefined },
  ];
}

/**
 * /dashboard/subscriptions for staff: the subscriptions resource's declared columns over the server's
 * paging (page/limit), filtered by status, plan, customer name/e-mail and creation date range, all
 * kept in the URL. The generic FilterBar only knows fixed-option selects, so the plan (loaded) and date range
 * filters are added here. A row opens the staff detail.
 */
export function StaffSubscriptionList() {
  const navigate = useNavigate();
  const { tableProps, filters, setFilters } = useTable({
    resource: decl.name,
    syncWithLocation: true,
    pagination: { mode: 'server', pageSize: 10 },
    sorters: { mode: 'off' },
  });
  const { result: plansResult } = useList<Plan>({
    resource: 'plans',
    pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
    sorters: [{ field: 'sort_order', order: 'asc' }],
  });
  const plans = plansResult.data ?? [];
  const statusField = decl.fields.find((f) => f.name === 'status')!;

  const from = getDefaultFilter('from', filters, 'eq') as string | undefined;
  const to = getDefaultFilter('to', filters, 'eq') as string | undefined;
  const initialValues: FilterValues = {
    status: getDefaultFilter('status', filters, 'eq'),
    plan_id: getDefaultFilter('plan_id', filters, 'eq'),
    search: getDefaultFilter('search', filters, 'contains'),
    range: from || to ? [from ? dayjs(from) : null, to ? dayjs(to) : null] : null,
  };
  const [form] = Form.useForm<FilterValues>();
  const apply = (values: FilterValues) => setFilters(toFilters(values), 'replace');

  const columns = fieldColumns(decl.fields);

  return (
    <List title={<HeaderTitle>{t(decl.titleKey)}</HeaderTitle>} canCreate={false} resource={decl.name}>
      <FoldingFilters
        form={form}
        initialValues={initialValues}
        onValuesChange={(changed, all) => {
          if (!('search' in changed)) apply(all);
        }}
        onFinish={apply}
        visible={[
          {
            name: 'search',
            label: t('subscriptions.filters.search'),
            control: (
              <Input.Search
                allowClear
                placeholder={t('subscriptions.filters.search')}
                aria-label={t('subscriptions.filters.search')}
                onSearch={() => form.submit()}
                style={{ minWidth: 240 }}
              />
            ),
          },
        ]}
        folded={[
          {
            name: 'status',
            label: t('subscriptions.fields.status'),
            control: (
              <Select
                allowClear
                style={{ minWidth: 150 }}
                placeholder={t('subscriptions.fields.status')}
                aria-label={t('subscriptions.fields.status')}
                options={statusField.options!.map((o) => ({ value: o.value, label: t(o.labelKey) }))}
              />
            ),
          },
          {
            name: 'plan_id',
            label: t('subscriptions.fields.plan'),
            control: (
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                style={{ minWidth: 180 }}
                placeholder={t('subscriptions.fields.plan')}
                aria-label={t('subscriptions.fields.plan')}
                options={plans.map((p) => ({ value: p.id, label: p.name }))}
              />
            ),
          },
          {
            name: 'range',
            label: t('subscriptions.fields.dateRange'),
            control: (
              <DatePicker.RangePicker
                allowEmpty={[true, true]}
                format={DAY}
                aria-label={t('subscriptions.fields.dateRange')}
                placeholder={[t('subscriptions.filters.from'), t('subscriptions.filters.to')]}
              />
            ),
          },
        ]}
      />
      <ResponsiveTable<BaseRecord>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        onRow={(record) => ({
          onClick: () => navigate(staffDetailPath(String(record.id))),
          style: { cursor: 'pointer' },
        })}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: true } : false}
      />
    </List>
  );
}
