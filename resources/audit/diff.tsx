/**
 * An audit event's `changes` read as rows: {field: {from, to}} is a change, {field: {changed: true}} a secret
 * that changed (its value never recorded), anything else a detail of the event shown as it was recorded.
 */
import { Table, Tag, Typography } from 'antd';
import type { AuditEvent } from '../../contract/schemas/audit';
import { t } from '../../src/i18n';
import { SectionHeading } from '../../src/components/Text';

export type DiffRow =
  | { field: string; kind: 'change'; from: unknown; to: unknown }
  | { field: string; kind: 'secret' }
  | { field: string; kind: 'detail'; value: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function diffRows(changes: AuditEvent['changes'] | undefined): DiffRow[] {
  if (!isObject(changes)) return [];
  return Object.entries(changes).map(([field, value]): DiffRow => {
    if (isObject(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && value.changed === true) return { field, kind: 'secret' };
      if (keys.length > 0 && keys.every((k) => k === 'from' || k === 'to'))
        return { field, kind: 'change', from: value.from, to: value.to };
    }
    return { field, kind: 'detail', value };
  });
}

/** A recorded value as text: strings as they are, nothing as a dash, yes/no for a switch, everything else as JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return t(value ? 'resource.yes' : 'resource.no');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One row as a line: "price: 4900 → 5900", "password: changed", "reason: bad_password". */
export function diffLine(row: DiffRow): string {
  switch (row.kind) {
    case 'change':
      return `${row.field}: ${valueText(row.from)} → ${valueText(row.to)}`;
    case 'secret':
      return `${row.field}: ${t('audit.changes.changed')}`;
    default:
      return `${row.field}: ${valueText(row.value)}`;
  }
}

const Value = ({ value }: { value: unknown }) => (
  <Typography.Text style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{valueText(value)}</Typography.Text>
);

/** The show page's diff: field, before, after; a secret says "changed", a detail spans both columns. */
export function DiffTable({ changes }: { changes: AuditEvent['changes'] | undefined }) {
  const rows = diffRows(changes);
  return (
    <section style={{ marginTop: 24 }}>
      <SectionHeading style={{ marginBottom: 8 }}>{t('audit.changes.title')}</SectionHeading>
      <Table<DiffRow>
        data-testid="audit-diff"
        size="small"
        rowKey="field"
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: t('audit.changes.none') }}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            key: 'field',
            title: t('audit.changes.field'),
            dataIndex: 'field',
            render: (f: string) => <code>{f}</code>,
          },
          {
            key: 'before',
            title: t('audit.changes.before'),
            onCell: (r) => ({ colSpan: r.kind === 'change' ? 1 : 2 }),
            render: (_: unknown, r) =>
              r.kind === 'change' ? (
                <Value value={r.from} />
              ) : r.kind === 'secret' ? (
                <Tag color="purple">{t('audit.changes.changed')}</Tag>
              ) : (
                <Value value={r.value} />
              ),
          },
          {
            key: 'after',
            title: t('audit.changes.after'),
            onCell: (r) => ({ colSpan: r.kind === 'change' ? 1 : 0 }),
            render: (_: unknown, r) => (r.kind === 'change' ? <Value value={r.to} /> : null),
          },
        ]}
      />
    </section>
  );
}
