import type { ReactNode } from 'react';
import { Descriptions, Table } from 'antd';
import type { TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { BaseRecord } from '@refinedev/core';
import { t } from '../../i18n';
import { renderField } from './cells';
import type { FieldDef } from './types';
import { useViewport, type ColumnPriority } from './viewport';

/**
 * A table column with the width from which it is shown (FieldDef.priority): 1 always, 2 (the default) from
 * tablet width (md, ≥768 px), 3 on wide screens only (lg, ≥992 px).
 */
export type ResponsiveColumn<T> = ColumnType<T> & { priority?: ColumnPriority };

export interface ResponsiveTableProps<T> extends Omit<TableProps<T>, 'columns'> {
  columns: ResponsiveColumn<T>[];
  /**
   * Opens a row's record (its page): a click anywhere on the row, or Enter on the focused row (rows take the
   * focus), except on the controls inside it (links, buttons, switches, inputs), which keep their own action.
   */
  onOpen?: (record: T) => void;
}

/** The controls inside a row that keep their own action when clicked (and pop-ups rendered from the row). */
const OWN_ACTION =
  'a, button, input, select, textarea, label, [role="button"], [role="switch"], [role="checkbox"], [role="combobox"], [role="link"], .ant-select, .ant-picker, .ant-input-number, .ant-table-selection-column, .ant-table-row-expand-icon';

/** antd's onRow with the row opening its record (see onOpen), around the caller's own onRow; for a plain antd Table too. */
export function openingRow<T>(
  onOpen: (record: T) => void,
  theirs?: TableProps<T>['onRow'],
): NonNullable<TableProps<T>['onRow']> {
  return (record, index) => {
    const own = theirs?.(record, index) ?? {};
    return {
      ...own,
      tabIndex: 0,
      'data-opens': 'true',
      style: { cursor: 'pointer', ...own.style },
      onClick: (e) => {
        own.onClick?.(e);
        const target = e.target as HTMLElement;
        // A click in a pop-up or dialog opened from the row reaches the row through React's tree, not the page's.
        if (!e.currentTarget.contains(target) || target.closest(OWN_ACTION)) return;
        // Selecting a row's text to copy it is not opening it.
        if (window.getSelection?.()?.toString()) return;
        onOpen(record);
      },
      onKeyDown: (e) => {
        own.onKeyDown?.(e);
        if (e.key === 'Enter' && e.target === e.currentTarget) {
          e.preventDefault();
          onOpen(record);
        }
      },
    } as ReturnType<NonNullable<TableProps<T>['onRow']>>;
  };
}

function valueAt(record: object, dataIndex: ColumnType<object>['dataIndex']): unknown {
  if (dataIndex === undefined || dataIndex === null) return undefined;
  const path = Array.isArray(dataIndex) ? dataIndex : [dataIndex];
  let value: unknown = record;
  for (const key of path)
    value =
      value === null || value === undefined
        ? undefined
        : (value as Record<string | number, unknown>)[key as string | number];
  return value;
}

function cellOf<T extends object>(column: ResponsiveColumn<T>, record: T, index: number): ReactNode {
  const value = valueAt(record, column.dataIndex as ColumnType<object>['dataIndex']);
  if (!column.render) return value as ReactNode;
  const rendered = column.render(value, record, index);
  // A render may answer { children, props } (row/col spans); only its content belongs in the list.
  if (
    rendered &&
    typeof rendered === 'object' &&
    'children' in rendered &&
    'props' in rendered &&
    !('$$typeof' in rendered)
  ) {
    return (rendered as { children: ReactNode }).children;
  }
  return rendered as ReactNode;
}

function titleOf<T>(column: ResponsiveColumn<T>): ReactNode {
  return typeof column.title === 'function' ? column.title({} as Parameters<typeof column.title>[0]) : column.title;
}

/**
 * An antd Table that fits the width it is shown at: the columns whose priority this width does not show move
 * into an expandable row (label: value, each through its column's own render), so a phone keeps the key columns
 * and the row actions and every value stays one tap away. A table still wider than its box scrolls inside it,
 * never the page; rows are small on phones.
 */
export function ResponsiveTable<T extends object>({
  columns,
  expandable,
  size,
  scroll,
  onOpen,
  onRow,
  ...rest
}: ResponsiveTableProps<T>) {
  const { narrow, shows } = useViewport();
  const shown = columns.filter((c) => (c.priority ?? 2) <= shows);
  const folded = columns.filter((c) => (c.priority ?? 2) > shows);

  const foldedRow = (record: T, index: number) => (
    <Descriptions
      size="small"
      column={1}
      data-testid="row-details"
      items={folded.map((c, i) => ({ key: String(c.key ?? i), label: titleOf(c), children: cellOf(c, record, index) }))}
    />
  );
  const own = expandable?.expandedRowRender;
  const mergedExpandable: TableProps<T>['expandable'] =
    folded.length === 0
      ? expandable
      : {
          ...expandable,
          // With columns folded away every row has something to show, whatever the caller's rule.
          rowExpandable: () => true,
          expandedRowRender: (record, index, indent, expanded) => {
            const theirs = own?.(record, index, indent, expanded);
            return (
              <>
                {foldedRow(record, index)}
                {theirs ? <div style={{ marginTop: 8 }}>{theirs}</div> : null}
              </>
            );
          },
        };

  return (
    <Table<T>
      {...rest}
      size={narrow ? 'small' : size}
      scroll={{ x: 'max-content', ...scroll }}
      columns={shown.map(({ priority: _priority, ...c }) => c)}
      expandable={mergedExpandable}
      onRow={onOpen ? openingRow(onOpen, onRow) : onRow}
    />
  );
}

/** The table columns of declared fields (those with `column`), each formatted as the field declares it. */
export function fieldColumns<T extends BaseRecord = BaseRecord>(
  fields: FieldDef[],
  extra?: (f: FieldDef) => Partial<ResponsiveColumn<T>>,
): ResponsiveColumn<T>[] {
  return fields
    .filter((f) => f.column)
    .map((f) => ({
      key: f.name,
      dataIndex: f.name,
      title: t(f.labelKey),
      priority: f.priority,
      render: (value: unknown, record: T) => renderField(f, value, record),
      ...extra?.(f),
    }));
}

/** The row actions column: always shown (priority 1), as narrow as its buttons. */
export function actionsColumn<T>(render: (record: T) => ReactNode): ResponsiveColumn<T> {
  return {
    key: 'actions',
    title: t('resource.actions'),
    priority: 1,
    render: (_: unknown, record: T) => render(record),
  };
}
