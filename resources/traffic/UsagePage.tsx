/**
 * /dashboard/nas/router/usage: per device and interface, the traffic over the last hour, day, week, month or
 * a custom range: a chart of in/out bits per second, the totals in bytes and the 95th percentiles. Device,
 * interface and range are kept in the address (?device=&interface=&range=), so a link can open a chart.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Alert, Card, Col, DatePicker, Empty, Row, Segmented, Select, Space, Spin, Statistic, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useSearchParams } from 'react-router';
import { TRAFFIC_RANGES, type Traffic, type TrafficRange } from '../../contract/schemas/traffic';
import { ChartFigures } from '../../src/components/ChartFigures';
import { t } from '../../src/i18n';
import { useDeviceOptions, useInterfaces, useTraffic } from './api';
import { DevicePicker } from './DevicePicker';
import { formatBps, formatBytes } from './format';
import { formatDateTime } from '../../src/components/dates';
import { PageTitle } from '../../src/components/Text';

const TrafficChart = lazy(() => import('./TrafficChart'));

export interface UsageCard {
  key: 'total-in' | 'total-out' | 'p95-in' | 'p95-out';
  title: string;
  value: string;
  hint: string;
}

/** The four cards under the chart: totals (with the average) and 95th percentiles (with the peak). */
export function usageCards(data: Traffic): UsageCard[] {
  return [
    {
      key: 'total-in',
      title: t('traffic.totalIn'),
      value: formatBytes(data.totals.in_bytes),
      hint: t('traffic.average', { value: formatBps(data.avg.in_bps) }),
    },
    {
      key: 'total-out',
      title: t('traffic.totalOut'),
      value: formatBytes(data.totals.out_bytes),
      hint: t('traffic.average', { value: formatBps(data.avg.out_bps) }),
    },
    {
      key: 'p95-in',
      title: t('traffic.p95In'),
      value: formatBps(data.p95.in_bps),
      hint: t('traffic.peak', { value: formatBps(data.max.in_bps) }),
    },
    {
      key: 'p95-out',
      title: t('traffic.p95Out'),
      value: formatBps(data.p95.out_bps),
      hint: t('traffic.peak', { value: formatBps(data.max.out_bps) }),
    },
  ];
}

const isRange = (v: string | null): v is TrafficRange => !!v && (TRAFFIC_RANGES as readonly string[]).includes(v);

export function UsagePage() {
  const [params, setParams] = useSearchParams();
  const deviceId = params.get('device') ?? undefined;
  const interfaceId = params.get('interface') ?? undefined;
  const range: TrafficRange = isRange(params.get('range')) ? (params.get('range') as TrafficRange) : 'day';
  const [custom, setCustom] = useState<[Dayjs, Dayjs] | null>(() => {
    const from = params.get('from');
    const to = params.get('to');
    return from && to ? [dayjs(from), dayjs(to)] : null;
  });

  const { devices, isLoading: devicesLoading } = useDeviceOptions();
  const interfaces = useInterfaces(deviceId);
  const items = useMemo(() => interfaces.data?.items ?? [], [interfaces.data]);
  const traffic = useTraffic(deviceId, interfaceId, {
    range,
    from: range === 'custom' ? custom?.[0].toISOString() : undefined,
    to: range === 'custom' ? custom?.[1].toISOString() : undefined,
  });

  const update = (next: Record<string, string | undefined>) => {
    const merged = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v === undefined) merged.delete(k);
      else merged.set(k, v);
    }
    setParams(merged);
  };

  // With one device there is nothing to choose; an interface is picked for the user (the first one up).
  // biome-ignore lint/correctness/useExhaustiveDependencies: update is a new function each render; the choice is redone only when these change
  useEffect(() => {
    if (!deviceId && devices.length === 1) update({ device: devices[0].id });
  }, [deviceId, devices]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  useEffect(() => {
    if (deviceId && !interfaceId && items.length)
      update({ interface: (items.find((i) => i.oper_status === 'up') ?? items[0]).id });
  }, [deviceId, interfaceId, items]);

  const data = traffic.data;
  const hasRates = !!data && data.points.some((p) => p.in_bps !== null || p.out_bps !== null);

  return (
    <Card title={<PageTitle>{t('traffic.usageTitle')}</PageTitle>}>
      <Space wrap style={{ marginBottom: 16, maxWidth: '100%' }} styles={{ item: { maxWidth: '100%', minWidth: 0 } }}>
        <DevicePicker
          devices={devices}
          loading={devicesLoading}
          value={deviceId}
          onChange={(id) => update({ device: id, interface: undefined })}
        />
        <Select
          data-testid="interface-picker"
          aria-label={t('traffic.interface')}
          style={{ minWidth: 220 }}
          placeholder={t('traffic.pickInterface')}
          disabled={!deviceId}
          loading={interfaces.isLoading}
          value={items.some((i) => i.id === interfaceId) ? interfaceId : undefined}
          onChange={(id: string) => update({ interface: id })}
          notFoundContent={t('traffic.noInterfaces')}
          options={items.map((i) => ({ value: i.id, label: i.alias ? `${i.name} — ${i.alias}` : i.name }))}
        />
        {/* Five ranges are wider than a phone: the picker scrolls sideways inside its own box. */}
        <div style={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Segmented
            data-testid="range-picker"
            aria-label={t('traffic.range')}
            value={range}
            onChange={(v) => update({ range: String(v) })}
            options={TRAFFIC_RANGES.map((r) => ({ value: r, label: t(`traffic.range.${r}`) }))}
          />
        </div>
        {range === 'custom' ? (
          <DatePicker.RangePicker
            showTime
            value={custom}
            onChange={(v) => {
              if (v?.[0] && v[1]) {
                setCustom([v[0], v[1]]);
                update({ from: v[0].toISOString(), to: v[1].toISOString() });
              }
            }}
          />
        ) : null}
      </Space>
      {!devicesLoading && !devices.length ? <Alert type="info" showIcon message={t('traffic.noDevices')} /> : null}
      {data ? (
        <>
          <Card
            size="small"
            title={t('traffic.chartTitle')}
            extra={
              <Typography.Text type="secondary">
                {t('traffic.resolutionHint', { resolution: t(`traffic.resolution.${data.resolution}`) })}
              </Typography.Text>
            }
            data-testid="traffic-chart"
          >
            {hasRates ? (
              <>
                <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
                  <TrafficChart points={data.points} from={data.from} to={data.to} />
                </Suspense>
                <ChartFigures
                  caption={t('traffic.chartTitle')}
                  columns={[t('traffic.time'), t('traffic.in'), t('traffic.out')]}
                  testId="traffic-figures"
                  rows={data.points.map((p) => [formatDateTime(p.t), formatBps(p.in_bps), formatBps(p.out_bps)])}
                />
              </>
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t('traffic.noData')}
                data-testid="traffic-empty"
              />
            )}
          </Card>
          <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
            {usageCards(data).map((c) => (
              <Col key={c.key} xs={24} sm={12} xl={6}>
                <Card size="small" data-testid={`card-${c.key}`}>
                  <Statistic title={c.title} value={c.value} />
                  <Typography.Text type="secondary">{c.hint}</Typography.Text>
                </Card>
              </Col>
            ))}
          </Row>
        </>
      ) : traffic.isLoading ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : null}
    </Card>
  );
}
