import { DatePicker, Form, Input, Select } from 'antd';
import { List, getDefaultFilter, useTable } from '@refinedev/antd';
import { useList, type BaseRecord, type CrudFilter } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import { useNavigate } from 'react-router';
import type { Gateway } from '../../contract/schemas/gateway';
import { FoldingFilters, ResponsiveTable, fieldColumns } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { PAYMENT_METHOD_OPTIONS, PAYMENT_STATUS_OPTIONS, paymentsResource as decl } from './resource';
import { HeaderTitle } from '../../src/components/Text';

const DAY = 'YYYY-MM-DD';

interface FilterValues {
  search?: string;
  status?: string;
  payment_method?: string;
  gateway_id?: string;
  user_id?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** The API's own query keys (GET /payments): days for the created range, inclusive. */
function toFilters(values: FilterValues): CrudFilter[] {
  const [from, to] = values.range ?? [];
  return [
    { field: 'search', operator: 'contains', value: values.search?.trim() || undefined },
    { field: 'status', operator: 'eq', value: values.status || undefined },
    { field: 'payment_method', operator: 'eq', value: values.payment_method || undefined },
    { field: 'gateway_id', operator: 'eq', value: values.gateway_id || undefined },
    { field: 'user_id', operator: 'eq', value: values.user_id?.trim() || undefined },
    { field: 'from', operator: 'eq', value: from ? from.format(DAY) : undefined },
    { field: 'to', operator: 'eq', value: to ? to.format(DAY) : undefined },
  ];
}

/** Search (reference, transaction id, e-mail, invoice number), status, method, gateway, customer id and created dates; kept in the URL. */
function PaymentFilters({ filters, setFilters }: { filters: CrudFilter[]; setFilters: (f: CrudFilter[]) => void }) {
  const [form] = Form.useForm<FilterValues>();
  const { result: gateways } = useList<Gateway>({
    resource: 'payment-gateways',
    pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
  });
  const from = getDefaultFilter('from', filters, 'eq') as string | undefined;
  const to = getDefaultFilter('to', filters, 'eq') as string | undefined;
  const initialValues: FilterValues = {
    search: getDefaultFilter('search', filters, 'contains') as string | undefined,
    status: getDefaultFilter('status', filters, 'eq') as string | undefined,
    payment_method: getDefaultFilter('payment_method', filters, 'eq') as string | undefined,
    gateway_id: getDefaultFilter('gateway_id', filters, 'eq') as string | undefined,
    user_id: getDefaultFilter('user_id', filters, 'eq') as string | undefined,
    range: from || to ? [from ? dayjs(from) : null, to ? dayjs(to) : null] : null,
  };
  const apply = (values: FilterValues) => setFilters(toFilters(values));
  const select = (name: keyof FilterValues, label: string, options: { value: string; label: string }[]) => ({
    name,
    label,
    control: (
      <Select
        allowClear
        style={{ minWidth: 160, maxWidth: '100%' }}
        placeholder={label}
        aria-label={label}
        options={options}
      />
    ),
  });
  return (
    <FoldingFilters
      form={form}
      initialValues={initialValues}
      onValuesChange={(changed, all) => {
        // Text boxes wait for Enter; selects and the date range apply at once.
        if (!('search' in changed) && !('user_id' in changed)) apply(all);
      }}
      onFinish={apply}
      visible={[
        {
          name: 'search',
          label: t('resource.search'),
          control: (
            <Input.Search
              allowClear
              placeholder={t('payments.filters.search')}
              aria-label={t('resource.search')}
              onSearch={() => form.submit()}
            />
          ),
        },
      ]}
      folded={[
        select(
          'status',
          t('payments.fields.status'),
          PAYMENT_STATUS_OPTIONS.map((o) => ({ value: o.value, label: t(o.labelKey) })),
        ),
        select(
          'payment_method',
          t('payments.fields.method'),
          PAYMENT_METHOD_OPTIONS.map((o) => ({ value: o.value, label: t(o.labelKey) })),
        ),
        select(
          'gateway_id',
          t('payments.fields.gateway'),
          (gateways.data ?? []).map((g) => ({ value: g.id, label: g.name })),
        ),
        {
          name: 'user_id',
          label: t('payments.fields.userId'),
          control: (
            <Input.Search
              allowClear
              placeholder={t('payments.fields.userId')}
              aria-label={t('payments.fields.userId')}
              onSearch={() => form.submit()}
              style={{ width: 240, maxWidth: '100%' }}
            />
          ),
        },
        {
          name: 'range',
          label: t('payments.fields.created'),
          control: (
            <DatePicker.RangePicker
              allowEmpty={[true, true]}
              aria-label={t('payments.fields.created')}
              placeholder={[t('payments.filters.from'), t('payments.filters.to')]}
            />
          ),
        },
      ]}
    />
  );
}

/** The payments list (admin, billing, support): read-only; a row's invoice link leads to where refunds are made. */
export function PaymentList() {
  const navigate = useNavigate();
  const { tableProps, filters, setFilters } = useTable({
    resource: decl.name,
    syncWithLocation: true,
    pagination: { mode: 'server', pageSize: 20 },
    meta: { fallbackMessage: t('errors.payments.list') },
  });
  return (
    <List title={<HeaderTitle>{t(decl.titleKey)}</HeaderTitle>} canCreate={false} resource={decl.name}>
      <PaymentFilters filters={filters} setFilters={(next) => setFilters(next, 'replace')} />
      <ResponsiveTable<BaseRecord>
        {...tableProps}
        rowKey="id"
        size="middle"
        data-testid="payments-table"
        columns={fieldColumns(decl.fields)}
        // A payment has no page of its own: its invoice's page shows it (and refunds it).
        onOpen={(record) =>
          navigate(`/dashboard/billing/invoices/show/${encodeURIComponent(String(record.invoice_id))}`)
        }
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: true } : false}
      />
    </List>
  );
}
