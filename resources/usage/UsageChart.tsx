/** The daily usage chart (@ant-design/charts), loaded lazily like the dashboard's charts. */
import { Column } from '@ant-design/charts';
import type { Usage } from '../../contract/schemas/usage';
import { xScaleDirection, yAxisDirection } from '../../src/components/chart-direction';
import { t } from '../../src/i18n';
import { formatUsageBytes } from './format';

/** Chart rows: per day one bar for download and one for upload, in GB. */
export function chartRows(days: Usage['days']) {
  return days.flatMap((d) => [
    { date: d.date.slice(5), kind: t('usage.download'), bytes: d.download, value: d.download / 1e9 },
    { date: d.date.slice(5), kind: t('usage.upload'), bytes: d.upload, value: d.upload / 1e9 },
  ]);
}

export default function UsageChart({ days }: { days: Usage['days'] }) {
  return (
    <Column
      height={260}
      autoFit
      data={chartRows(days)}
      xField="date"
      yField="value"
      colorField="kind"
      stack
      scale={{ x: xScaleDirection() }}
      axis={{ x: { labelAutoHide: true, labelAutoRotate: false }, y: { title: 'GB', ...yAxisDirection() } }}
      tooltip={{ items: [{ channel: 'y', valueFormatter: (v: number) => formatUsageBytes(Math.round(v * 1e9)) }] }}
    />
  );
}
