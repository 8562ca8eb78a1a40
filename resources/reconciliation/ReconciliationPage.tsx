/**
 * Reconciliation (issue 31): the alarm first (do the books balance?), then the period's figures per currency —
 * received, invoices paid, refunds — money by method and gateway, and the credit ledger's movements. The period is
 * kept in the address bar (?from=&to=), so a report can be linked; Export CSV downloads the same figures.
 */
import { Alert, Button, Card, Col, DatePicker, Row, Space, Statistic, Tag, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatMoney } from '../../contract/money';
import type { CurrencyReport, Imbalance, Reconciliation } from '../../contract/schemas/reconciliation';
import { httpClient } from '../../providers/http-client';
import { ResponsiveTable, useViewport, type ResponsiveColumn } from '../../src/components/resource';
import { retryUnlessClientError } from '../../src/components/retry';
import { saveBlob } from '../../src/components/saveBlob';
import { t } from '../../src/i18n';
import './texts';
import { PageTitle } from '../../src/components/Text';

const DAY = 'YYYY-MM-DD';
type Received = CurrencyReport['received_by'][number];

function usePeriod(): [{ from: string; to: string }, (from: string, to: string) => void] {
  const [params, setParams] = useSearchParams();
  const today = dayjs();
  const from = params.get('from') ?? today.startOf('month').format(DAY);
  const to = params.get('to') ?? today.format(DAY);
  return [{ from, to }, (f, tt) => setParams({ from: f, to: tt }, { replace: true })];
}

const providerLabel = (p: string) => t(`reconciliation.provider.${p}`, undefined, p);
const methodLabel = (l: Received) =>
  [
    providerLabel(l.provider),
    l.payment_method && l.payment_method !== l.provider ? l.payment_method.replace('_', ' ') : null,
  ]
    .filter(Boolean)
    .join(' · ');

function Alarm({ imbalances }: { imbalances: Imbalance[] }) {
  if (imbalances.length === 0) {
    return (
      <Alert
        type="success"
        showIcon
        message={t('reconciliation.balanced')}
        description={t('reconciliation.balancedHelp')}
        data-testid="books-balanced"
      />
    );
  }
  const columns: ResponsiveColumn<Imbalance>[] = [
    {
      key: 'customer',
      title: t('reconciliation.customer'),
      dataIndex: 'user_email',
      priority: 1,
      render: (_: unknown, i) => (
        <Link to={`/dashboard/user/${encodeURIComponent(i.user_id)}`}>{i.user_name ?? i.user_email ?? i.user_id}</Link>
      ),
    },
    {
      key: 'difference',
      title: t('reconciliation.difference'),
      dataIndex: 'difference',
      priority: 1,
      align: 'right',
      render: (v: number, i) => (
        <Space direction="vertical" size={0} align="end">
          {v !== 0 || i.mismatches.length === 0 ? (
            <Typography.Text type="danger" strong>
              {formatMoney(v, i.currency)}
            </Typography.Text>
          ) : null}
          {i.mismatches.map((m) => (
            <Typography.Text key={m.side} type="danger" data-testid="books-mismatch">
              {t('reconciliation.mismatch', {
                side: t(`reconciliation.side.${m.side}`),
                ledger: formatMoney(m.ledger, i.currency),
                records: formatMoney(m.records, i.currency),
              })}
            </Typography.Text>
          ))}
        </Space>
      ),
    },
    {
      key: 'sides',
      title: '',
      dataIndex: 'received',
      priority: 3,
      render: (_: unknown, i) => (
        <Typography.Text type="secondary">
          {t(
            'reconciliation.sides',
            Object.fromEntries(
              (['received', 'granted', 'applied', 'credit', 'refunded', 'held'] as const).map((k) => [
                k,
                formatMoney(i[k], i.currency),
              ]),
            ),
          )}
        </Typography.Text>
      ),
    },
  ];
  return (
    <Alert
      type="error"
      showIcon
      data-testid="books-alarm"
      message={t('reconciliation.alarm', { n: imbalances.length })}
      description={
        <Space direction="vertical" style={{ width: '100%' }}>
          <span>{t('reconciliation.alarmHelp')}</span>
          <ResponsiveTable<Imbalance>
            rowKey={(i) => `${i.user_id}-${i.currency}`}
            dataSource={imbalances}
            columns={columns}
            pagination={false}
            size="small"
          />
        </Space>
      }
    />
  );
}

function CurrencyCard({ report }: { report: CurrencyReport }) {
  const money = (v: number) => formatMoney(v, report.currency);
  const byMethod: ResponsiveColumn<Received>[] = [
    {
      key: 'method',
      title: t('reconciliation.method'),
      dataIndex: 'provider',
      priority: 1,
      render: (_: unknown, l) => methodLabel(l),
    },
    {
      key: 'gateway',
      title: t('reconciliation.gateway'),
      dataIndex: 'gateway_name',
      priority: 2,
      render: (v: string | null) => v ?? '—',
    },
    { key: 'count', title: t('reconciliation.count'), dataIndex: 'count', priority: 3, align: 'right' },
    {
      key: 'amount',
      title: t('reconciliation.amount'),
      dataIndex: 'amount',
      priority: 1,
      align: 'right',
      render: (v: number) => money(v),
    },
  ];
  const credit = Object.entries(report.credit_movements);
  return (
    <Card title={report.currency} data-testid={`currency-${report.currency}`}>
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Statistic title={t('reconciliation.received')} value={money(report.received)} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('reconciliation.invoicesPaid')} value={money(report.invoices_paid)} />
          <Typography.Text type="secondary">
            {t('reconciliation.invoicesPaidCount', { n: report.invoices_paid_count })}
          </Typography.Text>
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('reconciliation.refundedToProvider')} value={money(report.refunded_to_provider)} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('reconciliation.refundedToCredit')} value={money(report.refunded_to_credit)} />
        </Col>
      </Row>
      <Typography.Title level={2} style={{ marginTop: 24, fontSize: 16 }}>
        {t('reconciliation.byMethod')}
      </Typography.Title>
      <ResponsiveTable<Received>
        data-testid="received-by"
        rowKey={(l) => `${l.provider}-${l.payment_method}-${l.gateway_id}`}
        dataSource={report.received_by}
        columns={byMethod}
        pagination={false}
        size="small"
      />
      {credit.length > 0 && (
        <>
          <Typography.Title level={2} style={{ marginTop: 24, fontSize: 16 }}>
            {t('reconciliation.credit')}
          </Typography.Title>
          <Space wrap data-testid="credit-movements">
            {credit.map(([kind, amount]) => (
              <Tag key={kind}>
                {t(`credit.kind.${kind}`, undefined, kind)}: {money(amount)}
              </Tag>
            ))}
          </Space>
        </>
      )}
    </Card>
  );
}

export function ReconciliationPage() {
  const [period, setPeriod] = usePeriod();
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const isMobile = useViewport().narrow;
  const { query, result } = useCustom<Reconciliation>({
    url: '/billing/reconciliation',
    method: 'get',
    config: { query: period },
    meta: { fallbackMessage: t('reconciliation.failed') },
    errorNotification: false,
    queryOptions: { retry: retryUnlessClientError },
  });
  // Before the first answer Refine's result holds an empty placeholder, not the report.
  const answer = query.isError ? undefined : (result.data as Partial<Reconciliation> | undefined);
  const report =
    answer && Array.isArray(answer.currencies) && Array.isArray(answer.imbalances)
      ? (answer as Reconciliation)
      : undefined;

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const res = await httpClient.get<Blob>('/billing/reconciliation/export.csv', {
        params: period,
        responseType: 'blob',
        fallbackMessage: t('reconciliation.exportFailed'),
      });
      saveBlob(res.data, `reconciliation-${period.from}-to-${period.to}.csv`);
    } catch (error) {
      setExportError((error as Error).message || t('reconciliation.exportFailed'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="reconciliation">
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <PageTitle>{t('reconciliation.title')}</PageTitle>
        <Space wrap>
          <DatePicker.RangePicker
            aria-label={t('reconciliation.period')}
            allowClear={false}
            value={[dayjs(period.from), dayjs(period.to)]}
            onChange={(range) => {
              const [f, tt] = (range ?? []) as [Dayjs | null, Dayjs | null];
              if (f && tt) setPeriod(f.format(DAY), tt.format(DAY));
            }}
            inputReadOnly={isMobile}
            style={isMobile ? { width: '100%' } : undefined}
          />
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()}>
            {t('reconciliation.export')}
          </Button>
        </Space>
      </Space>
      {exportError && (
        <Alert type="error" showIcon message={exportError} closable onClose={() => setExportError(null)} />
      )}
      {query.isError && <Alert type="error" showIcon message={query.error?.message || t('reconciliation.failed')} />}
      {query.isLoading && <Card loading />}
      {report && (
        <>
          <Alarm imbalances={report.imbalances} />
          {report.currencies.length === 0 ? (
            <Typography.Text type="secondary">{t('reconciliation.nothing')}</Typography.Text>
          ) : (
            report.currencies.map((c) => <CurrencyCard key={c.currency} report={c} />)
          )}
        </>
      )}
    </Space>
  );
}
