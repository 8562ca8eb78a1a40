/**
 * The dashboard's trend charts (@ant-design/charts), loaded lazily so the dashboard shell and its numbers do
 * not wait for the chart library. One chart per series the role was sent; a series with nothing in it shows
 * an explaining empty state instead of a flat line of zeros.
 */
import { Card, Col, Empty, Row } from 'antd';
import { Column, Line } from '@ant-design/charts';
import { currencyDigits, formatMoney } from '../../../contract/money';
import type { DashboardSeries } from '../../../contract/schemas/dashboard';
import { t } from '../../i18n';

type SeriesName = 'revenue' | 'subscriptions' | 'tickets' | 'users';

export interface ChartBlock {
  name: SeriesName;
  empty: boolean;
}

/** The charts to draw for these series, in reading order, and whether each has any data. */
export function chartBlocks(series: DashboardSeries): ChartBlock[] {
  const blocks: ChartBlock[] = [];
  if (series.revenue) blocks.push({ name: 'revenue', empty: series.revenue.every((p) => p.amount === 0) });
  if (series.subscriptions) blocks.push({ name: 'subscriptions', empty: series.subscriptions.every((p) => p.count === 0) });
  if (series.tickets) blocks.push({ name: 'tickets', empty: series.tickets.every((p) => p.opened === 0 && p.resolved === 0) });
  if (series.users) blocks.push({ name: 'users', empty: series.users.every((p) => p.count === 0) });
  return blocks;
}

function Chart({ name, series }: { name: SeriesName; series: DashboardSeries }) {
  const common = { height: 240, autoFit: true, xField: 'date', axis: { x: { labelAutoHide: true, labelAutoRotate: false } } };
  if (name === 'revenue') {
    const currency = series.currency ?? 'USD';
    const base = 10 ** currencyDigits(currency);
    const data = (series.revenue ?? []).map((p) => ({ date: p.date, value: p.amount / base }));
    return (
      <Column
        {...common}
        data={data}
        yField="value"
        tooltip={{ items: [{ channel: 'y', name: t('dashboard.chart.revenue'), valueFormatter: (v: number) => formatMoney(Math.round(v * base), currency) }] }}
      />
    );
  }
  if (name === 'tickets') {
    const data = (series.tickets ?? []).flatMap((p) => [
      { date: p.date, value: p.opened, kind: t('dashboard.chart.opened') },
      { date: p.date, value: p.resolved, kind: t('dashboard.chart.resolved') },
    ]);
    return <Line {...common} data={data} yField="value" colorField="kind" />;
  }
  const data = (series[name] ?? []).map((p) => ({ date: p.date, value: p.count }));
  return <Column {...common} data={data} yField="value" />;
}

export function DashboardCharts({ series }: { series: DashboardSeries }) {
  const blocks = chartBlocks(series);
  if (!blocks.length) return null;
  return (
    <Row gutter={[16, 16]} data-testid="dashboard-charts">
      {blocks.map((b) => (
        <Col key={b.name} xs={24} xl={12}>
          <Card size="small" title={t(`dashboard.chart.${b.name}`)} data-testid={`chart-${b.name}`}>
            {b.empty ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(`dashboard.chart.empty.${b.name}`)} data-testid={`chart-${b.name}-empty`} />
            ) : (
              <Chart name={b.name} series={series} />
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

export default DashboardCharts;
