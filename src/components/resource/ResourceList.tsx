import { Space } from 'antd';
import { EditButton, List, ShowButton, getDefaultSortOrder, useTable } from '@refinedev/antd';
import { useNavigation, type BaseRecord } from '@refinedev/core';
import { t } from '../../i18n';
import { HeaderTitle } from '../Text';
import { ConfirmDelete } from './ConfirmDelete';
import { FilterBar } from './FilterBar';
import { ResponsiveTable, actionsColumn, fieldColumns, type ResponsiveColumn } from './ResponsiveTable';
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
  const { show } = useNavigation();
  const singular = t(decl.singularKey ?? decl.titleKey);

  const columns: ResponsiveColumn<BaseRecord>[] = fieldColumns(decl.fields ?? [], (f) => ({
    sorter: f.sortable ? true : undefined,
    sortOrder: f.sortable ? (getDefaultSortOrder(f.name, sorters) ?? null) : undefined,
  }));

  if (decl.toggle) {
    const toggle = decl.toggle;
    columns.push({
      key: `toggle-${toggle.field}`,
      title: t(toggle.labelKey),
      render: (_: unknown, record: BaseRecord) => (
        <StatusToggle resource={decl.name} record={record} toggle={toggle} meta={decl.meta} />
      ),
    });
  }

  if (actions.length > 0 || decl.rowExtra) {
    columns.push(
      actionsColumn((record: BaseRecord) => (
        <Space size={4}>
          {decl.rowExtra?.(record)}
          {actions.includes('show') && (
            <ShowButton
              hideText
              size="small"
              recordItemId={record.id}
              resource={decl.name}
              aria-label={t('resource.showOne', { name: singular })}
            />
          )}
          {actions.includes('edit') && (
            <EditButton
              hideText
              size="small"
              recordItemId={record.id}
              resource={decl.name}
              aria-label={t('resource.editOne', { name: singular })}
            />
          )}
          {actions.includes('delete') && (
            <ConfirmDelete
              resource={decl.name}
              id={record.id}
              meta={decl.meta}
              label={t('resource.deleteOne', { name: singular })}
              successMessage={t(decl.messages?.deleted ?? 'resource.deleted')}
            />
          )}
        </Space>
      )),
    );
  }

  return (
    <List
      title={<HeaderTitle>{t(decl.titleKey)}</HeaderTitle>}
      canCreate={decl.canCreate ?? true}
      resource={decl.name}
      headerButtons={
        decl.listButtons
          ? ({ defaultButtons }) => (
              <>
                {defaultButtons}
                {decl.listButtons!({ filters })}
              </>
            )
          : undefined
      }
    >
      <FilterBar decl={decl} filters={filters} setFilters={(next) => setFilters(next, 'replace')} />
      <ResponsiveTable<BaseRecord>
        {...tableProps}
        rowKey="id"
        size="middle"
        columns={columns}
        onOpen={actions.includes('show') ? (record) => show(decl.name, record.id!) : undefined}
        expandable={decl.expandedRow ? { expandedRowRender: (record) => decl.expandedRow!(record) } : undefined}
        pagination={tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: true } : false}
      />
    </List>
  );
}
