import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Modal, Select } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import type { Ticket } from '../../contract/schemas/ticket';
import { PhoneCard, PhoneCardList } from '../../src/components/PhoneCards';
import { FoldingFilters, renderField, useViewport } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { NewTicketForm } from './NewTicketForm';
import { ticketColumns, ticketField, ticketOptions } from './resource';
import { ticketPath } from './rules';
import { Link } from 'react-router';
import { TicketsTable } from './ui';
import { PageTitle } from '../../src/components/Text';

/** A ticket as a card (phones): its number and subject, status and priority as labels, and when it last moved. */
function TicketCard({ ticket }: { ticket: Ticket }) {
  const cell = (name: string) =>
    renderField(ticketField(name), (ticket as unknown as Record<string, unknown>)[name], ticket as never);
  return (
    <PhoneCard
      testId="ticket-card"
      title={<Link to={ticketPath(ticket.id)}>{`${ticket.number} · ${ticket.subject}`}</Link>}
      status={cell('status')}
      facts={[
        { key: 'priority', label: t('tickets.fields.priority'), value: cell('priority') },
        { key: 'updated', label: t('tickets.fields.updated'), value: cell('updated_at') },
      ]}
    />
  );
}

/**
 * /dashboard/tickets for a customer: their tickets (newest activity first, as the server orders them) with a
 * status filter and a search, server paging kept in the URL, and the "New ticket" form.
 */
export function CustomerTickets() {
  const [creating, setCreating] = useState(false);
  const { narrow } = useViewport();
  const { tableProps, tableQuery, filters, setFilters, currentPage, setCurrentPage } = useTable<Ticket>({
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
      title={<PageTitle>{t('tickets.myTitle')}</PageTitle>}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('tickets.new')}
        </Button>
      }
    >
      <FoldingFilters
        form={form}
        initialValues={{
          status: getDefaultFilter('status', filters, 'eq'),
          search: getDefaultFilter('search', filters, 'contains'),
        }}
        onValuesChange={(changed, all) => {
          if (!('search' in changed)) apply(all);
        }}
        onFinish={apply}
        visible={[
          {
            name: 'search',
            label: t('tickets.filters.search'),
            control: (
              <Input.Search
                allowClear
                placeholder={t('tickets.filters.search')}
                aria-label={t('tickets.filters.search')}
                onSearch={() => form.submit()}
              />
            ),
          },
        ]}
        folded={[
          {
            name: 'status',
            label: t('tickets.fields.status'),
            control: (
              <Select
                allowClear
                style={{ minWidth: 180 }}
                placeholder={t('tickets.fields.status')}
                aria-label={t('tickets.fields.status')}
                options={ticketOptions('status')}
              />
            ),
          },
        ]}
      />
      {tableQuery.isError && (
        <Alert
          type="error"
          showIcon
          message={tableQuery.error?.message || t('errors.tickets.list')}
          style={{ marginBottom: 16 }}
        />
      )}
      {narrow ? (
        <PhoneCardList<Ticket>
          testId="ticket-cards"
          items={tableProps.dataSource ?? []}
          rowKey={(r) => r.id}
          loading={!!tableProps.loading}
          empty={t('tickets.empty')}
          pagination={{
            current: currentPage,
            pageSize: 10,
            total: tableProps.pagination ? Number(tableProps.pagination.total ?? 0) : 0,
            onChange: setCurrentPage,
          }}
          render={(r) => <TicketCard ticket={r} />}
        />
      ) : (
        <TicketsTable tableProps={tableProps} columns={columns} />
      )}
      <Modal
        open={creating}
        title={t('tickets.form.title')}
        footer={null}
        onCancel={() => setCreating(false)}
        destroyOnHidden
        width={720}
      >
        <NewTicketForm onCancel={() => setCreating(false)} />
      </Modal>
    </Card>
  );
}
