/**
 * A record's history from the audit trail (issue 13): its events newest first, a page at a time, each with
 * time, actor, action and the changed fields in one line each ("price: 4900 → 5900"). Only roles that may read
 * the trail (GET /audit in contract/roles.ts) see it; for others nothing is rendered and nothing is asked.
 */
import { useState } from 'react';
import { Alert, Card, List, Space } from 'antd';
import { useList } from '@refinedev/core';
import { canCallEndpoint, isRole } from '../../contract/roles';
import type { AuditEvent } from '../../contract/schemas/audit';
import { useAuthState } from '../../providers/auth-store';
import { DateCell } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { diffLine, diffRows } from './diff';
import { ActionText, ActorCell } from './ui';
import { SectionHeading } from '../../src/components/Text';

export interface AuditHistoryProps {
  targetType: string;
  targetId: string;
  pageSize?: number;
  /** A card (on pages made of cards) or a titled section (default). */
  variant?: 'section' | 'card';
}

export function AuditHistory(props: AuditHistoryProps) {
  const role = useAuthState((s) => s.user?.role);
  if (!isRole(role) || !canCallEndpoint(role, 'GET', '/audit')) return null;
  return <History {...props} />;
}

function History({ targetType, targetId, pageSize = 5, variant = 'section' }: AuditHistoryProps) {
  const [page, setPage] = useState(1);
  const { result, query } = useList<AuditEvent>({
    resource: 'audit',
    filters: [
      { field: 'target_type', operator: 'eq', value: targetType },
      { field: 'target_id', operator: 'eq', value: targetId },
    ],
    pagination: { currentPage: page, pageSize, mode: 'server' },
    // A side section: its failure is said here, not as a toast over the page it sits on.
    errorNotification: false,
  });
  const total = result.total ?? 0;
  const titleId = `audit-history-${targetType}-${targetId}`;
  const body = query.isError ? (
    <Alert type="error" showIcon message={query.error?.message || t('audit.errors.history')} />
  ) : (
    <List<AuditEvent>
      size="small"
      loading={query.isLoading}
      dataSource={result.data ?? []}
      locale={{ emptyText: t('audit.history.empty') }}
      rowKey="id"
      pagination={
        total > pageSize
          ? { current: page, pageSize, total, size: 'small', onChange: setPage, showSizeChanger: false }
          : false
      }
      renderItem={(event) => (
        <List.Item data-testid="audit-history-item">
          <Space direction="vertical" size={2} style={{ width: '100%', minWidth: 0 }}>
            <Space size={8} wrap>
              <DateCell value={event.at} />
              <ActionText action={event.action} />
              <ActorCell event={event} />
            </Space>
            {diffRows(event.changes).map((row) => (
              <div key={row.field} data-testid="audit-history-change" style={{ wordBreak: 'break-word' }}>
                {diffLine(row)}
              </div>
            ))}
          </Space>
        </List.Item>
      )}
    />
  );
  if (variant === 'card') {
    return (
      <Card
        title={<SectionHeading id={titleId}>{t('audit.history.title')}</SectionHeading>}
        data-testid="audit-history"
        role="region"
        aria-labelledby={titleId}
      >
        {body}
      </Card>
    );
  }
  return (
    <section data-testid="audit-history" aria-labelledby={titleId}>
      <SectionHeading id={titleId} style={{ marginBottom: 8 }}>
        {t('audit.history.title')}
      </SectionHeading>
      {body}
    </section>
  );
}
