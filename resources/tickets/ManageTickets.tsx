import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Select, Space } from 'antd';
import { getDefaultFilter, useTable } from '@refinedev/antd';
import { useDataProvider, useNotification, type HttpError } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import type { Ticket, TicketStatus } from '../../contract/schemas/ticket';
import { FoldingFilters } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { staleAfterChange, ticketUrl, useAssignees } from './api';
import { ticketColumns, ticketOptions, ticketsResource } from './resource';
import { canMove, type Viewer } from './rules';
import { StatsCards } from './StatsCards';
import { AssignSelect, TicketsTable, useCanAssign } from './ui';
import { PageTitle } from '../../src/components/Text';

interface FilterValues {
  status?: string;
  priority?: string;
  category?: string;
  assigned_to?: string;
  search?: string;
}

export function toFilters(values: FilterValues) {
  return [
    { field: 'status', operator: 'eq' as const, value: values.status || undefined },
    { field: 'priority', operator: 'eq' as const, value: values.priority || undefined },
    { field: 'category', operator: 'eq' as const, value: values.category || undefined },
    { field: 'assigned_to', operator: 'eq' as const, value: values.assigned_to || undefined },
    { field: 'search', operator: 'contains' as const, value: values.search?.trim() || undefined },
  ];
}

/**
 * View one of the ticket area (admin, support): the stats cards, every ticket in a table with filters
 * (status, priority, category, assignee, search) kept in the URL, assignment from the row and a bulk status
 * change over the selected rows (one PATCH each; the outcome reports successes and failures).
 */
export function ManageTickets({ viewer }: { viewer: Viewer }) {
  const { tableProps, tableQuery, filters, setFilters } = useTable<Ticket>({
    resource: ticketsResource.name,
    syncWithLocation: true,
    pagination: { mode: 'server', pageSize: 10 },
    sorters: { mode: 'off' },
    meta: ticketsResource.meta,
  });
  const mayAssign = useCanAssign();
  const { assignees } = useAssignees(mayAssign);
  const [form] = Form.useForm<FilterValues>();
  const apply = (values: FilterValues) => setFilters(toFilters(values), 'replace');
  const [selected, setSelected] = useState<Ticket[]>([]);
  const [bulkStatus, setBulkStatus] = useState<TicketStatus | undefined>();
  const [bulkBusy, setBulkBusy] = useState(false);
  const [bulkReport, setBulkReport] = useState<{ ok: number; total: number; failures: string[] } | null>(null);
  const getProvider = useDataProvider();
  const queryClient = useQueryClient();
  const { open } = useNotification();

  const runBulk = async () => {
    if (!bulkStatus || selected.length === 0) return;
    setBulkBusy(true);
    setBulkReport(null);
    const provider = getProvider();
    const failures: string[] = [];
    let done = 0;
    for (const ticket of selected) {
      // A ticket that cannot reach the status (e.g. closed, for a move to in_progress) fails without a call.
      if (ticket.status === bulkStatus) {
        done++;
        continue;
      }
      if (!canMove(viewer, ticket, bulkStatus)) {
        failures.push(`${ticket.number}: ${t('tickets.actions.noStatus')}`);
        continue;
      }
      try {
        await provider.custom!({
          url: `${ticketUrl(ticket.id)}/status`,
          method: 'patch',
          payload: { status: bulkStatus },
          meta: { fallbackMessage: t('errors.tickets.status') },
        });
        done++;
      } catch (error) {
        failures.push(`${ticket.number}: ${(error as HttpError)?.message || t('errors.tickets.status')}`);
      }
    }
    const report = { ok: done, total: selected.length, failures };
    setBulkReport(report);
    setBulkBusy(false);
    setSelected([]);
    open?.({
      type: failures.length ? 'error' : 'success',
      message: t('tickets.bulk.done', { ok: done, total: selected.length }),
      description: failures.join('; ') || undefined,
    });
    void queryClient.invalidateQueries(staleAfterChange);
  };

  const columns = ticketColumns<Ticket>(undefined, {
    assigned_to_name: (v, r) => (mayAssign ? <AssignSelect ticket={r} size="small" /> : String(v ?? '—')),
  });

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle>{t(ticketsResource.titleKey)}</PageTitle>
      <StatsCards />
      <Card>
        <FoldingFilters
          form={form}
          initialValues={{
            status: getDefaultFilter('status', filters, 'eq'),
            priority: getDefaultFilter('priority', filters, 'eq'),
            category: getDefaultFilter('category', filters, 'eq'),
            assigned_to: getDefaultFilter('assigned_to', filters, 'eq'),
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
                  style={{ minWidth: 240 }}
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
                  style={{ minWidth: 170 }}
                  placeholder={t('tickets.fields.status')}
                  aria-label={t('tickets.fields.status')}
                  options={ticketOptions('status')}
                />
              ),
            },
            {
              name: 'priority',
              label: t('tickets.fields.priority'),
              control: (
                <Select
                  allowClear
                  style={{ minWidth: 130 }}
                  placeholder={t('tickets.fields.priority')}
                  aria-label={t('tickets.fields.priority')}
                  options={ticketOptions('priority')}
                />
              ),
            },
            {
              name: 'category',
              label: t('tickets.fields.category'),
              control: (
                <Select
                  allowClear
                  style={{ minWidth: 150 }}
                  placeholder={t('tickets.fields.category')}
                  aria-label={t('tickets.fields.category')}
                  options={ticketOptions('category')}
                />
              ),
            },
            {
              name: 'assigned_to',
              label: t('tickets.filters.assignee'),
              control: (
                <Select
                  allowClear
                  showSearch
                  optionFilterProp="label"
                  style={{ minWidth: 180 }}
                  placeholder={t('tickets.filters.assignee')}
                  aria-label={t('tickets.filters.assignee')}
                  options={[
                    { value: 'none', label: t('tickets.filters.unassigned') },
                    ...assignees.map((a) => ({ value: a.id, label: a.name })),
                  ]}
                />
              ),
            },
          ]}
        />
        {(tableProps.dataSource?.length ?? 0) > 0 && (
          <Button
            style={{ marginBottom: 16 }}
            onClick={() => setSelected(selected.length ? [] : [...(tableProps.dataSource ?? [])])}
          >
            {selected.length ? t('tickets.bulk.clear') : t('tickets.bulk.selectPage')}
          </Button>
        )}
        {selected.length > 0 && (
          <Space style={{ marginBottom: 16, marginInlineStart: 8 }} wrap data-testid="bulk-bar">
            <span>{t('tickets.bulk.selected', { count: selected.length })}</span>
            <Select<TicketStatus>
              style={{ minWidth: 190 }}
              placeholder={t('tickets.bulk.status')}
              aria-label={t('tickets.bulk.status')}
              value={bulkStatus}
              onChange={setBulkStatus}
              options={ticketOptions('status') as { value: TicketStatus; label: string }[]}
            />
            <Button type="primary" disabled={!bulkStatus} loading={bulkBusy} onClick={() => void runBulk()}>
              {t('tickets.bulk.apply')}
            </Button>
          </Space>
        )}
        {bulkReport && (
          <Alert
            style={{ marginBottom: 16 }}
            type={bulkReport.failures.length ? 'warning' : 'success'}
            showIcon
            closable
            onClose={() => setBulkReport(null)}
            message={t('tickets.bulk.done', { ok: bulkReport.ok, total: bulkReport.total })}
            description={
              bulkReport.failures.length
                ? t('tickets.bulk.failures', {
                    count: bulkReport.failures.length,
                    details: bulkReport.failures.join('; '),
                  })
                : undefined
            }
            data-testid="bulk-report"
          />
        )}
        {tableQuery.isError && (
          <Alert
            type="error"
            showIcon
            message={tableQuery.error?.message || t('errors.tickets.list')}
            style={{ marginBottom: 16 }}
          />
        )}
        <TicketsTable
          tableProps={tableProps}
          columns={columns}
          sizeChanger
          // Each row's box is named after its ticket. antd's "select all" box in the header is left out: the
          // table copies its column titles into a hidden measuring row, where the copy stays focusable (axe
          // aria-hidden-focus); the button above the table does the same.
          rowSelection={{
            selectedRowKeys: selected.map((s) => s.id),
            onChange: (_keys, rows) => setSelected(rows),
            hideSelectAll: true,
            getCheckboxProps: (record) =>
              ({
                'aria-label': t('tickets.bulk.select', { number: record.number, subject: record.subject }),
              }) as object,
          }}
        />
      </Card>
    </Space>
  );
}
