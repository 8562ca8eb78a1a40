import { Typography } from 'antd';
import type { ReactNode } from 'react';
import type { BaseRecord } from '@refinedev/core';
import { Link } from 'react-router';
import { TICKET_CATEGORIES, TICKET_PRIORITIES, TICKET_STATUSES } from '../../contract/schemas/ticket';
import { fieldColumns, type FieldDef, type ResponsiveColumn } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { PRIORITY_COLORS, STATUS_COLORS, ticketPath } from './rules';
import { CustomerServiceOutlined, TeamOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

const toTicket = (value: unknown, record: BaseRecord) => (
  <Link to={ticketPath(String(record.id))}>{String(value ?? '')}</Link>
);

/**
 * Tickets (spec §3, §4, §7, issue 5) declared once: the tables of every ticket view are generated from these
 * fields (columns, tags and colours, filter options). Tickets are opened from the customer's form and worked on
 * in the conversation view, never through a generic form.
 */
export const ticketsResource = defineResource({
  name: 'tickets',
  menu: { order: 40, portal: true, labelKey: 'menu.tickets', icon: CustomerServiceOutlined },
  // One route, two views by role (spec §2, contract/roles.ts ticketView).
  pages: {
    list: () => import('./TicketArea').then((m) => m.TicketArea),
    show: () => import('./TicketDetail').then((m) => m.TicketDetail),
  },
  routes: { show: '/dashboard/tickets/:id' },
  titleKey: 'tickets.title',
  singularKey: 'tickets.singular',
  search: true,
  canCreate: false,
  actions: ['show'],
  messages: { deleted: 'tickets.toast.deleted' },
  meta: { fallbackMessage: t('errors.tickets.list') },
  fields: [
    { name: 'number', type: 'text', labelKey: 'tickets.fields.number', column: true, priority: 2, render: toTicket },
    { name: 'subject', type: 'text', labelKey: 'tickets.fields.subject', column: true, priority: 1, render: toTicket },
    {
      name: 'created_by_name',
      type: 'custom',
      labelKey: 'tickets.fields.creator',
      column: true,
      priority: 3,
      render: (value, record) => (
        <span>
          {String(value ?? '—')}
          {record.created_by_email ? (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {String(record.created_by_email)}
            </Typography.Text>
          ) : null}
        </span>
      ),
    },
    {
      name: 'category',
      type: 'select',
      labelKey: 'tickets.fields.category',
      column: true,
      priority: 3,
      filter: true,
      options: TICKET_CATEGORIES.map((c) => ({ value: c, labelKey: `tickets.category.${c}` })),
    },
    {
      name: 'priority',
      type: 'status',
      labelKey: 'tickets.fields.priority',
      column: true,
      filter: true,
      options: TICKET_PRIORITIES.map((p) => ({
        value: p,
        labelKey: `tickets.priority.${p}`,
        color: PRIORITY_COLORS[p],
      })),
    },
    {
      name: 'status',
      type: 'status',
      labelKey: 'tickets.fields.status',
      column: true,
      priority: 1,
      filter: true,
      options: TICKET_STATUSES.map((s) => ({ value: s, labelKey: `tickets.status.${s}`, color: STATUS_COLORS[s] })),
    },
    { name: 'assigned_to_name', type: 'text', labelKey: 'tickets.fields.assignee', column: true },
    { name: 'updated_at', type: 'date', labelKey: 'tickets.fields.updated', column: true, priority: 3 },
  ],
});

export const ticketField = (name: string): FieldDef => ticketsResource.fields.find((f) => f.name === name)!;

/** The declared columns (optionally only some, in declaration order) with their priorities, and per-view cell overrides. */
export function ticketColumns<T extends BaseRecord>(
  only?: string[],
  overrides: Record<string, (value: unknown, record: T) => ReactNode> = {},
): ResponsiveColumn<T>[] {
  const override = (f: FieldDef) => overrides[f.name];
  return fieldColumns<T>(
    ticketsResource.fields.filter((f) => !only || only.includes(f.name)),
    (f) => (override(f) ? { render: (value: unknown, record: T) => override(f)(value, record) } : {}),
  );
}

/** A declared select/status field's options for a filter or a select. */
export const ticketOptions = (name: string) =>
  (ticketField(name).options ?? []).map((o) => ({ value: o.value, label: t(o.labelKey) }));

/** The second ticket view (spec §2) for the four staff roles: tickets shared with their team. */
export const sharedTicketsResource = defineResource({
  name: 'tickets-shared',
  titleKey: 'menu.sharedTickets',
  menu: { order: 50, labelKey: 'menu.sharedTickets', icon: TeamOutlined },
  pages: { list: () => import('./TicketArea').then((m) => m.SharedTicketsPage) },
});
