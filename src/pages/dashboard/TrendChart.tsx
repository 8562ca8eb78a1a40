import '../../i18n/staff-dashboard';
/**
 * One dashboard trend chart drawn with @ant-design/charts. Its own chunk: the chart library (the largest code
 * of the app) is fetched only when a chart with data comes on screen, after the cards have rendered.
 */
import { Column, Line } from '@ant-design/charts';
import { currencyDigits, formatMoney } from '../../../contract/money';
import type { DashboardSeries } from '../../../contract/schemas/dashboard';
import { t } from '../../i18n';
import { xScaleDirection, yAxisDirection } from '../../components/chart-direction';
import type { SeriesName } from './DashboardCharts';

export default function TrendChart({
  name,
  series,
  height,
}: {
  name: SeriesName;
  series: DashboardSeries;
  height: number;
}) {
  const common = {
    height,
    autoFit: true,
    xField: 'date',
    scale: { x: xScaleDirection() },
    axis: { x: { labelAutoHide: true, labelAutoRotate: false }, y: yAxisDirection() },
  };
  if (name === 'revenue') {
    const currency = series.currency ?? 'USD';
    const base = 10 ** currencyDigits(currency);
    const data = (series.revenue ?? []).map((p) => ({ date: p.date, value: p.amount / base }));
    return (
      <Column
        {...common}
        data={data}
        yField="value"
        tooltip={{
          items: [
            {
              channel: 'y',
              name: t('dashboard.chart.revenue'),
              valueFormatter: (v: number) => formatMoney(Math.round(v * base), currency),
            },
          ],
        }}
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
