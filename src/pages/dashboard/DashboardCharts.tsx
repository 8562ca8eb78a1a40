import '../../i18n/staff-dashboard';
/**
 * The dashboard's trend charts: one card per series the role was sent; a series with nothing in it shows an
 * explaining empty state instead of a flat line of zeros. The chart itself (TrendChart, with the chart
 * library) is loaded only for a card with data, once that card is on screen: the cards and numbers above never
 * wait for it, and a dashboard whose charts are all empty or scrolled away does not download it.
 */
import { lazy, Suspense } from 'react';
import { Card, Col, Empty, Row, Spin } from 'antd';
import type { DashboardSeries } from '../../../contract/schemas/dashboard';
import { ChartFigures } from '../../components/ChartFigures';
import { WhenOnScreen } from '../../components/WhenOnScreen';
import { formatMoney } from '../../../contract/money';
import { t } from '../../i18n';

const TrendChart = lazy(() => import('./TrendChart'));
/** The chart's height, kept by its placeholder so nothing moves when the chart arrives. */
const CHART_HEIGHT = 240;

export type SeriesName = 'revenue' | 'subscriptions' | 'tickets' | 'users';

export interface ChartBlock {
  name: SeriesName;
  empty: boolean;
}

/** The charts to draw for these series, in reading order, and whether each has any data. */
export function chartBlocks(series: DashboardSeries): ChartBlock[] {
  const blocks: ChartBlock[] = [];
  if (series.revenue) blocks.push({ name: 'revenue', empty: series.revenue.every((p) => p.amount === 0) });
  if (series.subscriptions)
    blocks.push({ name: 'subscriptions', empty: series.subscriptions.every((p) => p.count === 0) });
  if (series.tickets)
    blocks.push({ name: 'tickets', empty: series.tickets.every((p) => p.opened === 0 && p.resolved === 0) });
  if (series.users) blocks.push({ name: 'users', empty: series.users.every((p) => p.count === 0) });
  return blocks;
}

/** The figures behind one chart, as its table alternative shows them. */
function figures(name: SeriesName, series: DashboardSeries): { columns: string[]; rows: (string | number)[][] } {
  const day = t('dashboard.chart.day');
  if (name === 'revenue') {
    const currency = series.currency ?? 'USD';
    return {
      columns: [day, t('dashboard.chart.revenue')],
      rows: (series.revenue ?? []).map((p) => [p.date, formatMoney(p.amount, currency)]),
    };
  }
  if (name === 'tickets') {
    return {
      columns: [day, t('dashboard.chart.opened'), t('dashboard.chart.resolved')],
      rows: (series.tickets ?? []).map((p) => [p.date, p.opened, p.resolved]),
    };
  }
  return { columns: [day, t(`dashboard.chart.${name}`)], rows: (series[name] ?? []).map((p) => [p.date, p.count]) };
}

export function DashboardCharts({ series }: { series: DashboardSeries }) {
  const blocks = chartBlocks(series);
  if (!blocks.length) return null;
  const loading = (
    <Spin tip={t('dashboard.chart.loading')}>
      <div style={{ height: CHART_HEIGHT }} />
    </Spin>
  );
  return (
    <Row gutter={[16, 16]} data-testid="dashboard-charts">
      {blocks.map((b) => (
        <Col key={b.name} xs={24} xl={12}>
          <Card size="small" title={t(`dashboard.chart.${b.name}`)} data-testid={`chart-${b.name}`}>
            {b.empty ? (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t(`dashboard.chart.empty.${b.name}`)}
                data-testid={`chart-${b.name}-empty`}
              />
            ) : (
              <WhenOnScreen minHeight={CHART_HEIGHT}>
                <Suspense fallback={loading}>
                  <TrendChart name={b.name} series={series} height={CHART_HEIGHT} />
                </Suspense>
              </WhenOnScreen>
            )}
            {!b.empty && (
              <ChartFigures
                caption={t(`dashboard.chart.${b.name}`)}
                {...figures(b.name, series)}
                testId={`figures-${b.name}`}
              />
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
