import { Alert, Card, Space, Typography } from 'antd';
import { useTable } from '@refinedev/antd';
import { TICKET_QUEUE_CATEGORIES, type Ticket } from '../../contract/schemas/ticket';
import type { ResponsiveColumn } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { ticketColumns } from './resource';
import type { Viewer } from './rules';
import { StatusSelect, TicketsTable } from './ui';
import { PageTitle } from '../../src/components/Text';

/** One staff table (no URL sync: two of them share the page) with a status change per row. */
function TicketTable({
  resource,
  meta,
  fallbackKey,
  viewer,
  testId,
}: {
  resource: string;
  meta: Record<string, unknown>;
  fallbackKey: string;
  viewer: Viewer;
  testId: string;
}) {
  const { tableProps, tableQuery } = useTable<Ticket>({
    resource,
    syncWithLocation: false,
    pagination: { mode: 'server', pageSize: 10 },
    sorters: { mode: 'off' },
    meta: { ...meta, fallbackMessage: t(fallbackKey) },
  });
  const columns: ResponsiveColumn<Ticket>[] = [
    ...ticketColumns<Ticket>([
      'number',
      'subject',
      'created_by_name',
      'category',
      'priority',
      'status',
      'assigned_to_name',
      'updated_at',
    ]),
    // The row's action: always in view.
    {
      key: 'change',
      title: t('tickets.actions.status'),
      priority: 1,
      render: (_: unknown, r) => <StatusSelect ticket={r} viewer={viewer} size="small" />,
    },
  ];
  return (
    <div data-testid={testId}>
      {tableQuery.isError && (
        <Alert
          type="error"
          showIcon
          message={tableQuery.error?.message || t(fallbackKey)}
          style={{ marginBottom: 16 }}
        />
      )}
      <TicketsTable tableProps={tableProps} columns={columns} />
    </div>
  );
}

/**
 * View two of the ticket area (technician, billing; and /dashboard/tickets/shared for the four staff roles):
 * the tickets assigned to the caller (GET /tickets/assigned) and their queue (GET /tickets, which the server
 * scopes to the caller's categories plus their own and assigned tickets), each row with a status change.
 */
export function SharedTickets({ viewer, title = t('tickets.sharedTitle') }: { viewer: Viewer; title?: string }) {
  const categories =
    viewer.role === 'technician' || viewer.role === 'billing' ? TICKET_QUEUE_CATEGORIES[viewer.role] : null;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle>{title}</PageTitle>
      <Card title={t('tickets.assignedToMe')}>
        <TicketTable
          resource="tickets-assigned"
          meta={{ endpoint: 'tickets/assigned' }}
          fallbackKey="errors.tickets.assigned"
          viewer={viewer}
          testId="assigned-tickets"
        />
      </Card>
      <Card
        title={t('tickets.queue')}
        extra={
          categories ? (
            <Typography.Text type="secondary">
              {t('tickets.queueHint', { categories: categories.map((c) => t(`tickets.category.${c}`)).join(', ') })}
            </Typography.Text>
          ) : null
        }
      >
        <TicketTable
          resource="tickets-queue"
          meta={{ endpoint: 'tickets' }}
          fallbackKey="errors.tickets.list"
          viewer={viewer}
          testId="queue-tickets"
        />
      </Card>
    </Space>
  );
}
