import { Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteButton, EditButton, List, ShowButton, getDefaultSortOrder, useTable } from '@refinedev/antd';
import type { BaseRecord } from '@refinedev/core';
import { t } from '../../i18n';
import { renderField } from './cells';
import { FilterBar } from './FilterBar';
import { StatusToggle } from './StatusToggle';
import type { ResourceDecl } from './types';

/**
 * Any declared resource as a table: server-side pagination, sorting and filters (kept in the URL by Refine's
 * syncWithLocation), formatted cells, row actions and an optional per-row toggle.
 */
export function ResourceList({ decl }: { decl: ResourceDecl }) {
  const { tableProps, sorters, filters, setFilters } = useTable({
    resource: decl.name,
    meta: decl.meta,
    syncWithLocation: true,
    sorters: decl.defaultSort ? { initial: [decl.defaultSort] } : undefined,
    pagination: { mode: 'server', pageSize: 10 },
  });
  const actions = decl.actions ?? ['show', 'edit', 'delete'];

  const columns: ColumnsType<BaseRecord> = decl.fields
    .filter((f) => f.column)
    .map((f) => ({
      key: f.name,
      dataIndex: f.name,
      title: t(f.labelKey),
      sorter: f.sortable ? true : undefined,
      sortOrder: f.sortable ? (getDefaultSortOrder(f.name, sorters) ?? null) : undefined,
      render: (value: unknown, record: BaseRecord) => renderField(f, value, record),
    }));

  if (decl.toggle) {
    const toggle = decl.toggle;
    columns.push({
      key: `toggle-${toggle.field}`,
      title: t(toggle.labelKey),
      render: (_: unknown, record: BaseRecord) => <StatusToggle resource={decl.name} record={record} toggle={toggle} meta={decl.meta} />,
    });
  }

  if (actions.length > 0 || decl.rowExtra) {
    columns.push({
      key: 'actions',
      title: t('resource.actions'),
      render: (_: unknown, record: BaseRecord) => (
        <Space size="small">
          {decl.rowExtra?.(record)}
          {actions.includes('show') && <ShowButton hideText size="small" recordItemId={record.id} resource={decl.name} />}
          {actions.includes('edit') && <EditButton hideText size="small" recordItemId={record.id} resource={decl.name} />}
          {actions.includes('delete') && (
            <DeleteButton
              hideText
              size="small"
              recordItemId={record.id}
              resource={decl.name}
              meta={decl.meta}
              confirmTitle={t('resource.confirmDelete')}
              confirmOkText={t('resource.delete')}
              confirmCancelText={t('resource.cancel')}
              successNotification={() => ({ type: 'success', message: t(decl.messages?.deleted ?? 'resource.deleted') })}
            />
          )}
        </Space>
      ),
    });
  }

  return (
    <List title={t(decl.titleKey)} canCreate={decl.canCreate ?? true} resource={decl.name}
      headerButtons={decl.listButtons ? ({ defaultButtons }) => <>{defaultButtons}{decl.listButtons!({ filters })}</> : undefined}
    >
      <FilterBar decl={decl} filters={filters} setFilters={(next) => setFilters(next, 'replace')} />
      <Table<BaseRecord>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        expandable={decl.expandedRow ? { expandedRowRender: (record) => decl.expandedRow!(record) } : undefined}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: true } : false}
      />
    </List>
  );
}
