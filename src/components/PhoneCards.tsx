/**
 * A list as cards, for phones (issue 34): below antd's `md` a table of a customer's lines, invoices or tickets
 * leaves the columns that name a row (plan, number) behind once scrolled sideways, and its buttons off screen. A
 * card per row keeps what it is (its title and status), its facts as label: value, and its actions full width
 * inside the card. Wide screens keep their tables.
 */
import type { ReactNode } from 'react';
import { Card, Descriptions, Flex, List, Typography } from 'antd';
import type { PaginationProps } from 'antd';

export interface PhoneFact {
  key: string;
  label: ReactNode;
  value: ReactNode;
}

export function PhoneCard({
  title,
  status,
  facts,
  actions,
  testId,
}: {
  title: ReactNode;
  status?: ReactNode;
  facts: PhoneFact[];
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <Card size="small" style={{ width: '100%' }} data-testid={testId}>
      <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: facts.length > 0 ? 8 : 0 }}>
        <Typography.Text strong style={{ fontSize: 16, overflowWrap: 'anywhere' }} data-testid="phone-card-title">
          {title}
        </Typography.Text>
        {status}
      </Flex>
      {facts.length > 0 && (
        <Descriptions
          size="small"
          column={1}
          items={facts.map((f) => ({ key: f.key, label: f.label, children: f.value }))}
        />
      )}
      {actions && <div style={{ marginTop: 12 }}>{actions}</div>}
    </Card>
  );
}

/** Rows as cards, one under the other, with the list's own paging when it has more than one page. */
export function PhoneCardList<T>({
  items,
  rowKey,
  render,
  empty,
  loading,
  pagination,
  testId,
}: {
  items: readonly T[];
  rowKey: (item: T) => string;
  render: (item: T) => ReactNode;
  empty: ReactNode;
  loading?: boolean;
  pagination?: PaginationProps | false;
  testId?: string;
}) {
  return (
    <List<T>
      data-testid={testId}
      dataSource={[...items]}
      rowKey={rowKey}
      loading={loading}
      split={false}
      locale={{ emptyText: empty }}
      pagination={
        pagination && (pagination.total ?? 0) > (pagination.pageSize ?? 10)
          ? { size: 'small', align: 'center', ...pagination }
          : false
      }
      renderItem={(item) => <List.Item style={{ padding: '6px 0' }}>{render(item)}</List.Item>}
    />
  );
}
