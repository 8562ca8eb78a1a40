/**
 * The landing screen after sign-in (spec §2, §3, §6): the role's statistics for a time frame (default month;
 * custom: a date range), cached per time frame for 5 minutes with a refresh that skips the cache and the
 * time of the last update, stat cards per group and trend charts (loaded lazily).
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { Alert, Button, Card, DatePicker, Flex, Select, Space, Spin, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useAuthState } from '../../../providers/auth-store';
import { DEFAULT_TIME_FRAME, TIME_FRAMES, type TimeFrame } from '../../../contract/schemas/dashboard';
import { t } from '../../i18n';
import { seriesFor, StatCards } from './StatCards';
import type { DashboardStatsCache, StatsRequest } from './stats-cache';
import { useDashboardStats } from './useDashboardStats';

const DashboardCharts = lazy(() => import('./DashboardCharts'));

const dayText = (iso: string) => dayjs(iso).format('D MMM YYYY');

export function DashboardHome({ cache }: { cache?: DashboardStatsCache } = {}) {
  const { user } = useAuthState();
  const [timeFrame, setTimeFrame] = useState<TimeFrame>(DEFAULT_TIME_FRAME);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const request = useMemo<StatsRequest | null>(() => {
    if (timeFrame !== 'custom') return { timeFrame };
    if (!range) return null;
    return { timeFrame, startDate: range[0].format('YYYY-MM-DD'), endDate: range[1].format('YYYY-MM-DD') };
  }, [timeFrame, range]);
  const stats = useDashboardStats(user?.id ?? '', user ? request : null, cache);
  if (!user) return null;
  const { data } = stats;

  return (
    <Flex vertical gap={16} data-testid="dashboard-home">
      <Card>
        <Flex wrap justify="space-between" align="center" gap={12}>
          <div>
            <Typography.Title level={3} style={{ margin: 0 }}>
              {t('dashboard.welcome', { name: user.name })}
            </Typography.Title>
            <Typography.Text type="secondary">{t('dashboard.role', { role: t(`role.${user.role}`) })}</Typography.Text>
          </div>
          <Space wrap>
            <Select
              aria-label={t('dashboard.timeFrame')}
              data-testid="time-frame"
              value={timeFrame}
              style={{ width: 160 }}
              onChange={(v) => setTimeFrame(v)}
              options={TIME_FRAMES.map((f) => ({ value: f, label: t(`dashboard.timeFrame.${f}`) }))}
            />
            {timeFrame === 'custom' && (
              <DatePicker.RangePicker
                aria-label={t('dashboard.customRange')}
                data-testid="custom-range"
                value={range}
                allowClear={false}
                onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
              />
            )}
            <Button icon={<ReloadOutlined />} onClick={stats.refresh} loading={stats.loading && !!data} disabled={!request} data-testid="dashboard-refresh">
              {t('dashboard.refresh')}
            </Button>
          </Space>
        </Flex>
        {data && (
          <Typography.Text type="secondary" data-testid="dashboard-meta">
            {t('dashboard.range', { start: dayText(data.dateRange.startDate), end: dayText(data.dateRange.endDate) })}
            {' · '}
            <span data-testid="last-updated">{t('dashboard.lastUpdated', { time: dayjs(stats.lastUpdated).format('HH:mm:ss') })}</span>
            {stats.fromCache && ` (${t('dashboard.fromCache')})`}
          </Typography.Text>
        )}
      </Card>

      {!request && <Alert type="info" showIcon message={t('dashboard.pickRange')} />}
      {stats.error && <Alert type="error" showIcon message={stats.error} data-testid="dashboard-error" />}
      {stats.loading && !data && <Spin style={{ display: 'block', margin: '48px auto' }} />}

      {data && (
        <>
          <StatCards role={user.role} data={data} />
          <Suspense fallback={<Spin tip={t('dashboard.chart.loading')} style={{ display: 'block', margin: '24px auto' }} />}>
            <DashboardCharts series={seriesFor(user.role, data.series)} />
          </Suspense>
        </>
      )}
    </Flex>
  );
}
