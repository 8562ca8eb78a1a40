import '../../i18n/staff-dashboard';
/**
 * The landing screen after sign-in (spec §2, §3, §6): the role's statistics for a time frame (default month;
 * custom: a date range), cached per time frame for 5 minutes with a refresh that skips the cache and the
 * time of the last update, stat cards per group and trend charts (their library loaded only for a chart on screen).
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { Alert, Button, Card, Dropdown, Flex, Space, Spin } from 'antd';
import { DownOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useAuthState } from '../../../providers/auth-store';
import { DEFAULT_TIME_FRAME, TIME_FRAMES, type TimeFrame } from '../../../contract/time-frames';
import { PageTitle, SecondaryText } from '../../components/Text';
import { t } from '../../i18n';
import { DashboardCharts } from './DashboardCharts';
import { seriesFor, StatCards } from './StatCards';
import type { DashboardStatsCache, StatsRequest } from './stats-cache';
import { useDashboardStats } from './useDashboardStats';
import { formatClock, formatDay } from '../../components/dates';

// The date picker (rc-picker) is fetched only when a custom range is chosen; the charts' library only for a
// chart on screen (DashboardCharts).
const RangePicker = lazy(() => import('./RangePicker'));

// Dates through Intl (src/components/dates.ts): dayjs itself comes with the range picker, not with the dashboard's first screen.
const dayText = (iso: string) => formatDay(iso);
const clockText = (at: number) => formatClock(at);

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
            <PageTitle>{t('dashboard.welcome', { name: user.name })}</PageTitle>
            <SecondaryText>{t('dashboard.role', { role: t(`role.${user.role}`) })}</SecondaryText>
          </div>
          <Space wrap>
            {/* A menu button rather than a Select: the layouts already load the menu's code, a Select would add
                its own (rc-select, a virtual list) to the first screen for seven fixed choices. */}
            <Dropdown
              trigger={['click']}
              menu={{
                items: TIME_FRAMES.map((f) => ({ key: f, label: t(`dashboard.timeFrame.${f}`) })),
                selectable: true,
                selectedKeys: [timeFrame],
                onClick: ({ key }) => setTimeFrame(key as TimeFrame),
              }}
            >
              <Button
                data-testid="time-frame"
                aria-label={`${t('dashboard.timeFrame')}: ${t(`dashboard.timeFrame.${timeFrame}`)}`}
                style={{ minWidth: 160 }}
              >
                <Flex justify="space-between" align="center" gap={8} style={{ width: '100%' }}>
                  {t(`dashboard.timeFrame.${timeFrame}`)}
                  <DownOutlined />
                </Flex>
              </Button>
            </Dropdown>
            {timeFrame === 'custom' && (
              <Suspense fallback={<Spin size="small" />}>
                <RangePicker
                  aria-label={t('dashboard.customRange')}
                  data-testid="custom-range"
                  value={range}
                  allowClear={false}
                  onChange={(v) => setRange(v?.[0] && v[1] ? [v[0], v[1]] : null)}
                />
              </Suspense>
            )}
            <Button
              icon={<ReloadOutlined />}
              onClick={stats.refresh}
              loading={stats.loading && !!data}
              disabled={!request}
              data-testid="dashboard-refresh"
            >
              {t('dashboard.refresh')}
            </Button>
          </Space>
        </Flex>
        {data && (
          <SecondaryText testId="dashboard-meta">
            {t('dashboard.range', { start: dayText(data.dateRange.startDate), end: dayText(data.dateRange.endDate) })}
            {' · '}
            <span data-testid="last-updated">
              {t('dashboard.lastUpdated', { time: clockText(stats.lastUpdated ?? Date.now()) })}
            </span>
            {stats.fromCache && ` (${t('dashboard.fromCache')})`}
          </SecondaryText>
        )}
      </Card>

      {!request && <Alert type="info" showIcon message={t('dashboard.pickRange')} />}
      {stats.error && <Alert type="error" showIcon message={stats.error} data-testid="dashboard-error" />}
      {stats.loading && !data && <Spin style={{ display: 'block', margin: '48px auto' }} />}

      {data && (
        <>
          <StatCards role={user.role} data={data} />
          <DashboardCharts series={seriesFor(user.role, data.series)} />
        </>
      )}
    </Flex>
  );
}
