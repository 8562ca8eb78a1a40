/**
 * The traffic chart (@ant-design/charts Line of in/out bits per second), loaded lazily by the usage screen
 * so the chart library stays out of every other page (and out of the public site).
 */
import { Line } from '@ant-design/charts';
import dayjs from 'dayjs';
import type { TrafficPoint } from '../../contract/schemas/traffic';
import { chartData, formatBps, timeFormatFor } from './format';
import { formatDateTime } from '../../src/components/dates';
import { xScaleDirection, yAxisDirection } from '../../src/components/chart-direction';

function TrafficChart({ points, from, to }: { points: TrafficPoint[]; from: string; to: string }) {
  const tick = timeFormatFor(Date.parse(to) - Date.parse(from));
  return (
    <Line
      height={320}
      autoFit
      data={chartData(points)}
      xField="t"
      yField="bps"
      colorField="direction"
      // The whole range on the time axis, so a new interface's few points sit at the range's end.
      scale={{ x: { type: 'time', domain: [new Date(from), new Date(to)], ...xScaleDirection() } }}
      // Dots while there are few points: a single rate is still visible.
      point={points.length <= 60 ? { shapeField: 'circle', sizeField: 2 } : undefined}
      axis={{
        x: { labelAutoHide: true, labelAutoRotate: false, labelFormatter: (d: Date) => dayjs(d).format(tick) },
        y: { labelFormatter: (v: number) => formatBps(v), ...yAxisDirection() },
      }}
      tooltip={{
        title: (d: { t: Date }) => formatDateTime(d.t),
        items: [{ channel: 'y', valueFormatter: (v: number) => formatBps(v) }],
      }}
    />
  );
}

export default TrafficChart;
