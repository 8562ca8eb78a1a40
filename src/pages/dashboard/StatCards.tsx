import '../../i18n/staff-dashboard';
/**
 * One card per statistics group the role gets (spec §6), in the role's order. The server sends only those
 * groups; the cards are also limited to statGroupsFor(role), so a wider answer never shows more. Groups fed
 * by network monitoring, which is not built yet, are one card that says so instead of showing zeros.
 */
import { Alert, Card, Col, Row, Statistic } from 'antd';
import { statGroupsFor, type Role, type StatGroup } from '../../../contract/roles';
import type { DashboardData, DashboardSeries } from '../../../contract/schemas/dashboard';
import { SecondaryText } from '../../components/Text';
import { t } from '../../i18n';

const FIELDS: Partial<Record<StatGroup, string[]>> = {
  users: ['totalUsers', 'newUsers', 'activeUsers'],
  subscriptions: ['activeSubscriptions', 'newSubscriptions', 'cancelledSubscriptions'],
  revenue: ['totalRevenue', 'pendingPayments', 'overduePayments'],
  tickets: ['openTickets', 'newTickets', 'resolvedTickets'],
  bandwidth: ['totalDownload', 'totalUpload'],
};

/** The groups to show: allowed for the role, present in the answer, and measured (not `unavailable`). */
export function visibleGroups(
  role: Role,
  data: Pick<DashboardData, 'stats' | 'unavailable'>,
): { shown: StatGroup[]; unavailable: StatGroup[] } {
  const allowed = statGroupsFor(role).filter((g) => data.stats[g] !== undefined);
  return {
    shown: allowed.filter((g) => !data.unavailable.includes(g)),
    unavailable: allowed.filter((g) => data.unavailable.includes(g)),
  };
}

/** The chart series of the groups the role may see (each series is named after its group). */
export function seriesFor(role: Role, series: DashboardSeries): DashboardSeries {
  const allowed = statGroupsFor(role);
  const out: DashboardSeries = { interval: series.interval, currency: series.currency };
  for (const name of ['revenue', 'subscriptions', 'tickets', 'users'] as const) {
    if (allowed.includes(name) && series[name]) (out as Record<string, unknown>)[name] = series[name];
  }
  return out;
}

export function StatCards({ role, data }: { role: Role; data: DashboardData }) {
  const { shown, unavailable } = visibleGroups(role, data);
  return (
    <Row gutter={[16, 16]} data-testid="stat-cards">
      {shown.map((group) => {
        const values = data.stats[group] as Record<string, string | number> | number;
        const fields = FIELDS[group];
        return (
          <Col key={group} xs={24} md={12} xl={8}>
            <Card size="small" title={t(`dashboard.group.${group}`)} data-testid={`stat-group-${group}`}>
              <Row gutter={8}>
                {fields && typeof values === 'object' ? (
                  fields.map((f) => (
                    <Col key={f} span={24 / fields.length}>
                      <Statistic title={t(`dashboard.stat.${f}`)} value={values[f]} data-testid={`stat-${f}`} />
                    </Col>
                  ))
                ) : (
                  <Col span={24}>
                    <Statistic
                      title={t(`dashboard.stat.${group}`)}
                      value={values as number}
                      data-testid={`stat-${group}`}
                    />
                  </Col>
                )}
              </Row>
              {group === 'revenue' && <SecondaryText small>{t('dashboard.hint.revenue')}</SecondaryText>}
              {group === 'tickets' && role === 'user' && (
                <SecondaryText small>{t('dashboard.hint.ticketsOwn')}</SecondaryText>
              )}
            </Card>
          </Col>
        );
      })}
      {unavailable.length > 0 && (
        <Col xs={24} md={12} xl={8}>
          <Card size="small" title={t('dashboard.group.network')} data-testid="stat-group-network">
            <Alert
              type="info"
              showIcon
              message={unavailable.map((g) => t(`dashboard.group.${g}`)).join(', ')}
              description={t('dashboard.networkUnavailable')}
            />
          </Card>
        </Col>
      )}
    </Row>
  );
}
