import type { BaseRecord } from '@refinedev/core';
import { auditListQuerySchema, type AuditEvent } from '../../contract/schemas/audit';

import { DiffTable } from './diff';
import { DownloadCsvButton } from './DownloadCsvButton';
import { ActionText, ActorCell, TargetCell, auditTargetTypeList, targetTypeLabel, targetTypeLabelKey } from './ui';
import { AuditOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

const q = auditListQuerySchema.shape;
const asEvent = (record: BaseRecord) => record as unknown as AuditEvent;

/**
 * The audit trail (issue 13, /dashboard/audit): read-only, newest first (the API's order), filtered by action,
 * target, actor and a date range (the data provider sends `at` gte/lte as from/to), and exported as CSV.
 */
export const auditResource = defineResource({
  name: 'audit',
  auditTargets: ['audit'],
  menu: { order: 140, labelKey: 'menu.audit', icon: AuditOutlined },
  titleKey: 'audit.title',
  singularKey: 'audit.singular',
  actions: ['show'],
  canCreate: false,
  listButtons: ({ filters }) => <DownloadCsvButton filters={filters} />,
  showExtra: (record) => <DiffTable changes={asEvent(record).changes} />,
  fields: [
    { name: 'at', type: 'date', labelKey: 'audit.fields.at', column: true, priority: 1, filter: 'dateRange' },
    {
      // The e-mail and the role at that moment, as one cell.
      name: 'actor_email',
      type: 'text',
      labelKey: 'audit.fields.actor',
      column: true,
      render: (_v, record) => <ActorCell event={asEvent(record)} />,
    },
    {
      name: 'actor_id',
      type: 'text',
      labelKey: 'audit.fields.actorId',
      filter: 'text',
      schema: q.actor_id,
      filterPlaceholderKey: 'audit.filters.actorIdPlaceholder',
    },
    {
      name: 'action',
      type: 'text',
      labelKey: 'audit.fields.action',
      column: true,
      priority: 1,
      filter: 'text',
      schema: q.action,
      filterPlaceholderKey: 'audit.filters.actionPlaceholder',
      render: (v) => <ActionText action={String(v)} />,
    },
    {
      name: 'target',
      type: 'text',
      labelKey: 'audit.fields.target',
      column: true,
      show: false,
      render: (_v, record) => <TargetCell event={asEvent(record)} />,
    },
    {
      name: 'target_type',
      type: 'select',
      labelKey: 'audit.fields.targetType',
      filter: true,
      // Every declared resource's audit target types, labelled as targetTypeLabel does.
      options: auditTargetTypeList().map((type) => ({
        value: type,
        labelKey: targetTypeLabelKey(type) ?? `audit.targetType.${type}`,
      })),
      render: (v) => targetTypeLabel(v as string | null),
    },
    { name: 'target_id', type: 'text', labelKey: 'audit.fields.targetId', filter: 'text', schema: q.target_id },
    { name: 'ip', type: 'text', labelKey: 'audit.fields.ip', column: true, priority: 3 },
    { name: 'request_id', type: 'text', labelKey: 'audit.fields.requestId' },
  ],
});
