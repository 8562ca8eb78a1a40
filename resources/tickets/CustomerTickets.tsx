import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Modal, Select, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import type { Ticket } from '../../contract/schemas/ticket';
import { FoldingFilters, ResponsiveTable } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { NewTicketForm } from './NewTicketForm';
import { ticketColumns, ticketOptions } from './resource';
import { ticketPath } from './rules';
import { useNavigate } from 'react-router';

/**
 * /dashboard/tickets for a customer: their tickets (newest activity first, as the server orders them) with a
 * status filter and a search, server paging kept in the URL, and the "New ticket" form.
 */
export function CustomerTickets() {
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const { tableProps, tableQuery, filters, setFilters } = useTable<Ticket>({
    resource: 'tickets',
    syncWithLocation: true,
    pagination: { mode: 'server', pageSize: 10 },
    sorters: { mode: 'off' },
    meta: { fallbackMessage: t('errors.tickets.list') },
  });
  const [form] = Form.useForm();
  const apply = (values: { status?: string; search?: string }) =>
    setFilters(
      [
        { field: 'status', operator: 'eq', value: values.status || undefined },
        { field: 'search', operator: 'contains', value: values.search?.trim() || undefined },
      ],
      'replace',
    );

  const columns = ticketColumns<Ticket>(['number', 'subject', 'status', 'priority', 'updated_at']);

  return (
    <Card
      title={<Typography.Title level={4} style={{ margin: 0 }}>{t('tickets.myTitle')}</Typography.Title>}
      extra={<Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>{t('tickets.new')}</Button>}
    >
      <FoldingFilters form={form}
        initialValues={{ status: getDefaultFilter('status', filters, 'eq'), search: getDefaultFilter('search', filters, 'contains') }}
        onValuesChange={(changed, all) => { if (!('search' in changed)) apply(all); }} onFinish={apply}
        visible={[{
          name: 'search',
          label: t('tickets.filters.search'),
          control: <Input.Search allowClear placeholder={t('tickets.filters.search')} aria-label={t('tickets.filters.search')} onSearch={() => form.submit()} />,
        }]}
        folded={[{
          name: 'status',
          label: t('tickets.fields.status'),
          control: <Select allowClear style={{ minWidth: 180 }} placeholder={t('tickets.fields.status')} aria-label={t('tickets.fields.status')} options={ticketOptions('status')} />,
        }]}
      />
      {tableQuery.isError && <Alert type="error" showIcon message={tableQuery.error?.message || t('errors.tickets.list')} style={{ marginBottom: 16 }} />}
      <ResponsiveTable<Ticket>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        onOpen={(r) => navigate(ticketPath(r.id))}
        locale={{ emptyText: t('tickets.empty') }}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: false } : false}
      />
      <Modal open={creating} title={t('tickets.form.title')} footer={null} onCancel={() => setCreating(false)} destroyOnHidden width={720}>
        <NewTicketForm onCancel={() => setCreating(false)} />
      </Modal>
    </Card>
  );
}
