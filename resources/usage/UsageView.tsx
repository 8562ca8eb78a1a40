/**
 * A customer's data usage: the line (subscription) and period pickers, the cap progress bar with what remains,
 * the current session and the daily chart. The customer's /dashboard/usage shows their own; staff see a
 * customer's from the user detail and from their own usage page (StaffUsage).
 */
import { Card, Col, Empty, Progress, Row, Select, Space, Spin, Statistic, Table, Typography } from 'antd';
import { useCustom } from '@refinedev/core';
import dayjs from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import type { Usage } from '../../contract/schemas/usage';
import { t } from '../../src/i18n';
import { formatUsageBytes } from './format';
import { formatKbps } from '../../contract/rate';
import { formatDateTime } from '../../src/components/dates';

const UsageChart = lazy(() => import('./UsageChart'));

/** Fair use (issue 36): "Tier 1 of this cycle: 10/2 Mbit/s. After 800 GB: 2/1 Mbit/s." */
function fairUseText(f: NonNullable<Usage['fair_use']>): string {
  const rate = (r: { download_kbps: number; upload_kbps: number }) => formatKbps(r.download_kbps, r.upload_kbps);
  const now = f.rate
    ? t(f.tier === 0 ? 'usage.fairUse.full' : 'usage.fairUse.tier', { tier: String(f.tier), rate: rate(f.rate) })
    : t('usage.fairUse.stopped');
  const next = f.next
    ? f.next.rate && !f.next.stop
      ? t('usage.fairUse.next', { after: formatUsageBytes(f.next.after_bytes), rate: rate(f.next.rate) })
      : t('usage.fairUse.nextStop', { after: formatUsageBytes(f.next.after_bytes) })
    : '';
  return next ? `${now} ${next}` : now;
}

export function useUsage(userId: string | undefined, period: number, subscriptionId?: string) {
  const { query, result } = useCustom<Usage>({
    url: '/usage',
    method: 'get',
    config: {
      query: {
        ...(userId ? { user_id: userId } : {}),
        ...(subscriptionId ? { subscription_id: subscriptionId } : {}),
        period,
      },
    },
    meta: { fallbackMessage: t('errors.usage') },
    errorNotification: false,
    queryOptions: { retry: false },
  });
  return {
    usage: query.isError ? undefined : (result.data as Usage | undefined),
    isLoading: query.isLoading,
    error: query.isError ? query.error?.message || t('errors.usage') : null,
  };
}

/** The period's last day (its end is exclusive). */
const lastDay = (end: string) => dayjs(end).subtract(1, 'day').format('YYYY-MM-DD');

const lineLabel = (line: Usage['lines'][number]) =>
  t('usage.lineOption', {
    plan: line.plan_name,
    status: t(`subscriptions.status.${line.status}`, undefined, line.status),
  });

export function UsageView({ userId }: { userId?: string }) {
  const [period, setPeriod] = useState(0);
  // The line shown: the server's default (the active one, else suspended, pending, then the newest) until one is picked.
  const [line, setLine] = useState<string | undefined>();
  const { usage, isLoading, error } = useUsage(userId, period, line);
  if (isLoading && !usage) return <Spin />;
  if (error) return <Typography.Text type="danger">{error}</Typography.Text>;
  if (!usage?.period || !Array.isArray(usage.days)) return null;
  const { cap, totals, session } = usage;
  const lines = Array.isArray(usage.lines) ? usage.lines : [];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="usage-view">
      {!usage.subscription && (
        <Typography.Text type="secondary">
          {t(userId ? 'usage.noSubscriptionStaff' : 'usage.noSubscription')}
        </Typography.Text>
      )}
      {lines.length > 1 ? (
        <Space wrap>
          <span>{t('usage.line')}</span>
          <Select
            style={{ minWidth: 240, maxWidth: '100%' }}
            value={usage.subscription?.id}
            onChange={(id: string) => {
              setLine(id);
              setPeriod(0);
            }}
            aria-label={t('usage.line')}
            data-testid="usage-line"
            options={lines.map((l) => ({ value: l.id, label: lineLabel(l) }))}
          />
        </Space>
      ) : usage.subscription ? (
        <Typography.Text data-testid="usage-line">
          {t('usage.lineOne', { line: lineLabel({ ...usage.subscription, created_at: '' }) })}
        </Typography.Text>
      ) : null}
      <Space wrap>
        <span>{t('usage.period')}</span>
        <Select
          style={{ minWidth: 240, maxWidth: '100%' }}
          value={usage.period.index}
          onChange={setPeriod}
          aria-label={t('usage.period')}
          options={usage.periods.map((p) => ({
            value: p.index,
            label: t(p.index === 0 ? 'usage.currentPeriod' : 'usage.pastPeriod', {
              start: p.start,
              end: lastDay(p.end),
            }),
          }))}
        />
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card title={t('usage.cap')} data-testid="usage-cap">
            {cap.limit === null ? (
              <Space direction="vertical">
                <Typography.Text>{t('usage.unlimited')}</Typography.Text>
                <Typography.Text>{t('usage.used', { used: formatUsageBytes(cap.used) })}</Typography.Text>
              </Space>
            ) : (
              <Space direction="vertical" style={{ width: '100%' }}>
                <Progress
                  percent={cap.percent ?? 0}
                  status={cap.remaining === 0 ? 'exception' : 'normal'}
                  aria-label={t('usage.cap')}
                />
                <Typography.Text data-testid="usage-remaining">
                  {t('usage.remaining', {
                    remaining: formatUsageBytes(cap.remaining ?? 0),
                    limit: formatUsageBytes(cap.limit),
                  })}
                </Typography.Text>
              </Space>
            )}
            {usage.fair_use && (
              <Typography.Paragraph data-testid="usage-fair-use" style={{ marginTop: 8, marginBottom: 0 }}>
                {fairUseText(usage.fair_use)}
              </Typography.Paragraph>
            )}
            <Row gutter={16} style={{ marginTop: 16 }}>
              <Col span={8}>
                <Statistic title={t('usage.download')} value={formatUsageBytes(totals.download)} />
              </Col>
              <Col span={8}>
                <Statistic title={t('usage.upload')} value={formatUsageBytes(totals.upload)} />
              </Col>
              <Col span={8}>
                <Statistic title={t('usage.total')} value={formatUsageBytes(totals.total)} />
              </Col>
            </Row>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={t('usage.session')} data-testid="usage-session">
            {session ? (
              <Space direction="vertical">
                <span>
                  {t('usage.onlineSince')}:{' '}
                  <Typography.Text strong>{formatDateTime(session.online_since)}</Typography.Text>
                </span>
                <span>
                  {t('usage.ip')}:{' '}
                  <Typography.Text strong data-testid="session-ip">
                    {session.framed_ip ?? '—'}
                  </Typography.Text>
                </span>
                <span>
                  {t('usage.sessionTraffic')}: ↓ {formatUsageBytes(session.download)} · ↑{' '}
                  {formatUsageBytes(session.upload)}
                </span>
              </Space>
            ) : (
              <Typography.Text type="secondary">{t('usage.offline')}</Typography.Text>
            )}
          </Card>
        </Col>
      </Row>
      <Card title={t('usage.daily')} data-testid="usage-daily">
        {totals.total === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('usage.noData')} />
        ) : (
          <>
            <Suspense fallback={<Spin />}>
              <UsageChart days={usage.days} />
            </Suspense>
            <Table
              size="small"
              rowKey="date"
              pagination={false}
              style={{ marginTop: 16 }}
              dataSource={usage.days.filter((d) => d.download + d.upload > 0)}
              columns={[
                { key: 'date', dataIndex: 'date', title: t('usage.day') },
                { key: 'download', title: t('usage.download'), render: (_, d) => formatUsageBytes(d.download) },
                { key: 'upload', title: t('usage.upload'), render: (_, d) => formatUsageBytes(d.upload) },
              ]}
            />
          </>
        )}
      </Card>
    </Space>
  );
}
