import { Button, DatePicker, Form, Input, Select, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DownloadOutlined } from '@ant-design/icons';
import { DeleteButton, List, ShowButton, getDefaultFilter, useTable } from '@refinedev/antd';
import type { BaseRecord, CrudFilter } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import { renderField } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { invoicePdfUrl } from './api';
import { INVOICE_STATUS_OPTIONS, invoicesResource as decl, isDeletable, isPayable } from './index';
import { RecordPaymentButton, useCanManageInvoices } from './RecordPayment';
import { RunBillingButton } from './RunBilling';

const DAY = 'YYYY-MM-DD';

interface FilterValues {
  search?: string;
  status?: string;
  user_id?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

function toFilters(values: FilterValues): CrudFilter[] {
  const [from, to] = values.range ?? [];
  return [
    { field: 'search', operator: 'contains', value: values.search?.trim() || undefined },
    { field: 'status', operator: 'eq', value: values.status || undefined },
    { field: 'user_id', operator: 'eq', value: values.user_id?.trim() || undefined },
    { field: 'from', operator: 'eq', value: from ? from.format(DAY) : undefined },
    { field: 'to', operator: 'eq', value: to ? to.format(DAY) : undefined },
  ];
}

/** Status, customer (id, or name/e-mail through the search), issue-date range and search; kept in the URL. */
function InvoiceFilters({ filters, setFilters }: { filters: CrudFilter[]; setFilters: (f: CrudFilter[]) => void }) {
  const [form] = Form.useForm<FilterValues>();
  const from = getDefaultFilter('from', filters, 'eq') as string | undefined;
  const to = getDefaultFilter('to', filters, 'eq') as string | undefined;
  const initialValues: FilterValues = {
    search: getDefaultFilter('search', filters, 'contains') as string | undefined,
    status: getDefaultFilter('status', filters, 'eq') as string | undefined,
    user_id: getDefaultFilter('user_id', filters, 'eq') as string | undefined,
    range: from || to ? [from ? dayjs(from) : null, to ? dayjs(to) : null] : null,
  };
  const apply = (values: FilterValues) => setFilters(toFilters(values));
  return (
    <Form
      form={form}
      layout="inline"
      initialValues={initialValues}
      style={{ marginBottom: 16, rowGap: 8 }}
      data-testid="filter-bar"
      onValuesChange={(changed, all) => {
        // Text boxes wait for Enter; selects and the date range apply at once.
        if (!('search' in changed) && !('user_id' in changed)) apply(all);
      }}
      onFinish={apply}
    >
      <Form.Item name="search">
        <Input.Search allowClear placeholder={t('resource.search')} aria-label={t('resource.search')} onSearch={() => form.submit()} />
      </Form.Item>
      <Form.Item name="status">
        <Select
          allowClear
          style={{ minWidth: 140 }}
          placeholder={t('invoices.fields.status')}
          aria-label={t('invoices.fields.status')}
          options={INVOICE_STATUS_OPTIONS.map((o) => ({ value: o.value, label: t(o.labelKey) }))}
        />
      </Form.Item>
      <Form.Item name="user_id">
        <Input.Search allowClear placeholder={t('invoices.fields.userId')} aria-label={t('invoices.fields.userId')} onSearch={() => form.submit()} style={{ width: 240 }} />
      </Form.Item>
      <Form.Item name="range">
        <DatePicker.RangePicker allowEmpty={[true, true]} aria-label={t('invoices.fields.dateRange')} placeholder={[t('invoices.fields.dateRange'), '']} />
      </Form.Item>
    </Form>
  );
}

/** The staff invoices list (admin, billing, support): delete and record payment for admin and billing only. */
export function InvoiceList() {
  const { tableProps, filters, setFilters } = useTable({
    resource: decl.name,
    syncWithLocation: true,
    pagination: { mode: 'server', pageSize: 10 },
  });
  const canManage = useCanManageInvoices();

  const columns: ColumnsType<BaseRecord> = decl.fields
    .filter((f) => f.column)
    .map((f) => ({ key: f.name, dataIndex: f.name, title: t(f.labelKey), render: (value: unknown, record: BaseRecord) => renderField(f, value, record) }));
  columns.push({
    key: 'actions',
    title: t('resource.actions'),
    render: (_: unknown, record: BaseRecord) => (
      <Space size="small" wrap>
        <ShowButton hideText size="small" recordItemId={record.id} resource={decl.name} />
        <Button size="small" icon={<DownloadOutlined />} href={invoicePdfUrl(String(record.id))} download={`${String(record.number)}.pdf`} aria-label={t('invoices.actions.pdf')}>
          {t('invoices.actions.pdf')}
        </Button>
        {canManage && isPayable(record) && (
          <RecordPaymentButton invoice={{ id: record.id!, number: record.number, total_amount: record.total_amount, currency: record.currency }} />
        )}
        {canManage && isDeletable(record) && (
          <DeleteButton
            hideText
            size="small"
            recordItemId={record.id}
            resource={decl.name}
            accessControl={{ enabled: false }}
            confirmTitle={t('resource.confirmDelete')}
            confirmOkText={t('resource.delete')}
            confirmCancelText={t('resource.cancel')}
            successNotification={() => ({ type: 'success', message: t('invoices.toast.deleted') })}
          />
        )}
      </Space>
    ),
  });

  return (
    <List title={t(decl.titleKey)} canCreate={false} resource={decl.name} headerButtons={<RunBillingButton />}>
      <InvoiceFilters filters={filters} setFilters={(next) => setFilters(next, 'replace')} />
      <Table<BaseRecord>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: true } : false}
      />
    </List>
  );
}
