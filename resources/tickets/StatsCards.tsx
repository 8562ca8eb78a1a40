import { Alert, Card, Col, Row, Space, Spin, Statistic, Tag } from 'antd';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '../../contract/schemas/ticket';
import { t } from '../../src/i18n';
import { useTicketStats } from './api';
import { PRIORITY_COLORS, STATUS_COLORS, humanizeSeconds } from './rules';

/** GET /tickets/stats as cards: total, counts by status and priority, average first response and resolution. */
export function StatsCards() {
  const { stats, isLoading, error } = useTicketStats();
  if (isLoading) return <Spin />;
  if (error || !stats) return <Alert type="error" showIcon message={error ?? t('errors.tickets.stats')} />;
  return (
    <Row gutter={[16, 16]} data-testid="ticket-stats">
      <Col xs={12} md={4}>
        <Card size="small">
          <Statistic title={t('tickets.stats.total')} value={stats.total} />
        </Card>
      </Col>
      <Col xs={24} md={8}>
        <Card size="small" title={t('tickets.stats.byStatus')}>
          <Space wrap>
            {TICKET_STATUSES.map((s) => (
              <Tag key={s} color={STATUS_COLORS[s]}>
                {t(`tickets.status.${s}`)}: {stats.by_status[s] ?? 0}
              </Tag>
            ))}
          </Space>
        </Card>
      </Col>
      <Col xs={24} md={6}>
        <Card size="small" title={t('tickets.stats.byPriority')}>
          <Space wrap>
            {TICKET_PRIORITIES.map((p) => (
              <Tag key={p} color={PRIORITY_COLORS[p]}>
                {t(`tickets.priority.${p}`)}: {stats.by_priority[p] ?? 0}
              </Tag>
            ))}
          </Space>
        </Card>
      </Col>
      <Col xs={12} md={3}>
        <Card size="small">
          <Statistic
            title={t('tickets.stats.firstResponse')}
            value={humanizeSeconds(stats.avg_first_response_seconds)}
          />
        </Card>
      </Col>
      <Col xs={12} md={3}>
        <Card size="small">
          <Statistic title={t('tickets.stats.resolution')} value={humanizeSeconds(stats.avg_resolution_seconds)} />
        </Card>
      </Col>
    </Row>
  );
}
