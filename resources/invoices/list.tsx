import { Button, DatePicker, Form, Input, Select, Space } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { DeleteButton, List, ShowButton, getDefaultFilter, useTable } from '@refinedev/antd';
import { useNavigation, type BaseRecord, type CrudFilter } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import {
  FoldingFilters,
  ResponsiveTable,
  actionsColumn,
  fieldColumns,
  useViewport,
} from '../../src/components/resource';
import { t } from '../../src/i18n';
import { invoicePdfUrl } from './api';
import { INVOICE_STATUS_OPTIONS, invoicesResource as decl, isDeletable, isPayable } from './resource';
import { RecordPaymentButton, useCanManageInvoices } from './RecordPayment';
import { RunBillingButton } from './RunBilling';
import { HeaderTitle } from '../../src/components/Text';

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
              placeholder={t('resource.search')}
              aria-label={t('resource.search')}
              onSearch={() => form.submit()}
            />
          ),
        },
      ]}
      folded={[
        {
          name: 'status',
          label: t('invoices.fields.status'),
          control: (
            <Select
              allowClear
              style={{ minWidth: 140 }}
              placeholder={t('invoices.fields.status')}
              aria-label={t('invoices.fields.status')}
              options={INVOICE_STATUS_OPTIONS.map((o) => ({ value: o.value, label: t(o.labelKey) }))}
            />
          ),
        },
        {
          name: 'user_id',
          label: t('invoices.fields.userId'),
          control: (
            <Input.Search
              allowClear
              placeholder={t('invoices.fields.userId')}
              aria-label={t('invoices.fields.userId')}
              onSearch={() => form.submit()}
              style={{ width: 240 }}
            />
          ),
        },
        {
          name: 'range',
          label: t('invoices.fields.dateRange'),
          control: (
            <DatePicker.RangePicker
              allowEmpty={[true, true]}
              aria-label={t('invoices.fields.dateRange')}
              placeholder={[t('invoices.fields.dateRange'), '']}
            />
          ),
        },
      ]}
    />
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
  const { narrow } = useViewport();
  const { show } = useNavigation();

  const columns = fieldColumns(decl.fields);
  columns.push(
    actionsColumn((record: BaseRecord) => (
      <Space size={4} wrap>
        <ShowButton
          hideText
          size="small"
          recordItemId={record.id}
          resource={decl.name}
          aria-label={t('resource.showOne', { name: t(decl.singularKey) })}
        />
        <Button
          size="small"
          icon={<DownloadOutlined />}
          href={invoicePdfUrl(String(record.id))}
          download={`${String(record.number)}.pdf`}
          aria-label={t('invoices.actions.pdf')}
        >
          {narrow ? null : t('invoices.actions.pdf')}
        </Button>
        {canManage.recordPayment && isPayable(record) && (
          <RecordPaymentButton
            invoice={{
              id: record.id!,
              number: record.number,
              total_amount: record.total_amount,
              amount_due: record.amount_due,
              currency: record.currency,
            }}
          />
        )}
        {canManage.delete && isDeletable(record) && (
          <DeleteButton
            hideText
            size="small"
            recordItemId={record.id}
            resource={decl.name}
            accessControl={{ enabled: false }}
            aria-label={t('resource.deleteOne', { name: t(decl.singularKey) })}
            confirmTitle={t('resource.confirmDelete')}
            confirmOkText={t('resource.delete')}
            confirmCancelText={t('resource.cancel')}
            successNotification={() => ({ type: 'success', message: t('invoices.toast.deleted') })}
          />
        )}
      </Space>
    )),
  );

  return (
    <List
      title={<HeaderTitle>{t(decl.titleKey)}</HeaderTitle>}
      canCreate={false}
      resource={decl.name}
      headerButtons={<RunBillingButton />}
    >
      <InvoiceFilters filters={filters} setFilters={(next) => setFilters(next, 'replace')} />
      <ResponsiveTable<BaseRecord>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        onOpen={(record) => show(decl.name, record.id!)}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: true } : false}
      />
    </List>
  );
}
