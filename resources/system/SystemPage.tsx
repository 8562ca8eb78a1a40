/**
 * /dashboard/system (admin, issue 18): the portal's health at a glance – version and this node, the database,
 * the running nodes, the job queue, RADIUS over the last hour, the mail backlog, the last billing run and the
 * last backup. The figures are the ones /metrics exports (the server reads both through the same code); the
 * page reads them again every 15 s.
 */
import type { ReactNode } from 'react';
import { Alert, Button, Card, Col, Descriptions, Row, Space, Table, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { JOB_NAMES, JOB_STATUS_OF_STATE } from '../../contract/jobs';
import type { SystemStatus } from '../../contract/schemas/system';
import { DateCell } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { formatBytes } from '../device-backups/format';
import { useSystemStatus } from './api';
import { PageTitle } from '../../src/components/Text';

type Node = SystemStatus['nodes'][number];

/** A duration in words: "3 d 4 h", "2 h 5 min", "4 min 10 s", "12 s". */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min ${s % 60} s`;
  return `${s} s`;
}

/** The job queue as one row per queue: how many jobs in each state, and the failures of the last 24 hours. */
/** A queue's name in the reader's language (an unknown queue by its own name). */
const jobName = (queue: string) => (JOB_NAMES[queue] ? t(`jobs.name.${queue}`) : queue);

export function jobRows(jobs: SystemStatus['jobs']) {
  const rows = new Map<
    string,
    { queue: string; queued: number; retrying: number; running: number; done: number; failed24h: number }
  >();
  const row = (queue: string) => {
    let r = rows.get(queue);
    if (!r) {
      r = { queue, queued: 0, retrying: 0, running: 0, done: 0, failed24h: 0 };
      rows.set(queue, r);
    }
    return r;
  };
  for (const { queue, state, n } of jobs.by_state) {
    const status = JOB_STATUS_OF_STATE[state];
    if (status === 'queued' || status === 'retrying' || status === 'running' || status === 'done')
      row(queue)[status] += n;
    else row(queue);
  }
  for (const { queue, n } of jobs.failed_24h) row(queue).failed24h = n;
  return [...rows.values()].sort((a, b) => jobName(a.queue).localeCompare(jobName(b.queue)));
}

/** RADIUS requests of the last hour by type and result (0 where none). */
export function radiusCounts(lastHour: SystemStatus['radius']['last_hour']) {
  const n = (type: string, result: string) => lastHour.find((r) => r.type === type && r.result === result)?.n ?? 0;
  return {
    accept: n('access', 'accept'),
    reject: n('access', 'reject'),
    answered: n('accounting', 'answered'),
    dropped: n('accounting', 'dropped'),
    failed: n('accounting', 'failed'),
  };
}

function Figure({
  label,
  value,
  testId,
  tone,
}: {
  label: string;
  value: ReactNode;
  testId: string;
  tone?: 'danger' | 'warning';
}) {
  return (
    <div style={{ minWidth: 96 }}>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 13 }}>
        {label}
      </Typography.Text>
      <Typography.Text strong type={tone} style={{ fontSize: 22 }} data-testid={testId}>
        {value}
      </Typography.Text>
    </div>
  );
}

const when = (iso: string | null) => (iso ? <DateCell value={iso} /> : t('system.never'));

function NodeCard({ status }: { status: SystemStatus }) {
  const { node, database } = status;
  const migrationsOk = database.migrations.applied >= database.migrations.known;
  return (
    <Card size="small" title={t('system.node.title')} style={{ height: '100%' }}>
      <Descriptions size="small" column={1} colon={false} labelStyle={{ minWidth: 120 }}>
        <Descriptions.Item label={t('system.version')}>
          <span data-testid="system-version">{status.version}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('system.node.host')}>
          {t('system.node.process', { host: node.hostname, pid: node.pid })}
        </Descriptions.Item>
        <Descriptions.Item label={t('system.node.uptime')}>
          <span data-testid="system-uptime">{durationText(node.uptime_seconds)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('system.node.runtime')}>
          {t('system.node.nodejs', { version: node.node_version })}
        </Descriptions.Item>
        <Descriptions.Item label={t('system.database.kind')}>
          <span data-testid="system-database">{t(`system.database.${database.kind}`)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('system.database.size')}>
          <span data-testid="system-database-size">{formatBytes(database.size_bytes)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('system.database.migrations')}>
          <Space size={4} wrap>
            <span data-testid="system-migrations">
              {t('system.database.applied', { applied: database.migrations.applied, known: database.migrations.known })}
            </span>
            {migrationsOk ? null : <Tag color="error">{t('system.database.pending')}</Tag>}
          </Space>
        </Descriptions.Item>
        {database.pool ? (
          <Descriptions.Item label={t('system.database.pool')}>
            {t('system.database.poolText', {
              total: database.pool.total,
              idle: database.pool.idle,
              waiting: database.pool.waiting,
            })}
          </Descriptions.Item>
        ) : null}
      </Descriptions>
    </Card>
  );
}

function RadiusCard({ radius }: { radius: SystemStatus['radius'] }) {
  const c = radiusCounts(radius.last_hour);
  return (
    <Card size="small" title={t('system.radius.title')} style={{ height: '100%' }}>
      {radius.enabled ? null : <Typography.Paragraph type="secondary">{t('system.radius.off')}</Typography.Paragraph>}
      <Space size={[24, 12]} wrap>
        <Figure label={t('system.radius.accept')} value={c.accept} testId="radius-accept" />
        <Figure
          label={t('system.radius.reject')}
          value={c.reject}
          testId="radius-reject"
          tone={c.reject > 0 ? 'warning' : undefined}
        />
        <Figure label={t('system.radius.accounting')} value={c.answered} testId="radius-accounting" />
        <Figure
          label={t('system.radius.dropped')}
          value={c.dropped + c.failed}
          testId="radius-dropped"
          tone={c.dropped + c.failed > 0 ? 'danger' : undefined}
        />
        <Figure label={t('system.radius.sessions')} value={radius.sessions_open} testId="radius-sessions" />
      </Space>
    </Card>
  );
}

function MailBillingCard({ status }: { status: SystemStatus }) {
  const { mail, billing } = status;
  return (
    <Card size="small" title={t('system.mailBilling.title')} style={{ height: '100%' }}>
      <Space size={[24, 12]} wrap style={{ marginBottom: 12 }}>
        <Figure label={t('system.mail.queued')} value={mail.queued} testId="mail-queued" />
        <Figure
          label={t('system.mail.failed')}
          value={mail.failed}
          testId="mail-failed"
          tone={mail.failed > 0 ? 'danger' : undefined}
        />
      </Space>
      <Descriptions size="small" column={1} colon={false}>
        <Descriptions.Item label={t('system.billing.lastRun')}>
          <span data-testid="billing-last-run">{when(billing.last_run_at)}</span>
        </Descriptions.Item>
        {billing.last_run_seconds !== null ? (
          <Descriptions.Item label={t('system.billing.took')}>
            {durationText(billing.last_run_seconds)}
          </Descriptions.Item>
        ) : null}
      </Descriptions>
    </Card>
  );
}

function BackupCard({ backups }: { backups: SystemStatus['backups'] }) {
  return (
    <Card
      size="small"
      title={t('system.backups.title')}
      extra={<Link to="/dashboard/backups">{t('system.backups.open')}</Link>}
      style={{ height: '100%' }}
    >
      {backups.last_failure ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="backup-failure"
          message={t('system.backups.failed', { message: backups.last_failure.message })}
        />
      ) : null}
      <Descriptions size="small" column={1} colon={false}>
        <Descriptions.Item label={t('system.backups.last')}>
          <span data-testid="backup-last">{when(backups.last_at)}</span>
        </Descriptions.Item>
        {backups.last_size_bytes !== null ? (
          <Descriptions.Item label={t('system.backups.size')}>{formatBytes(backups.last_size_bytes)}</Descriptions.Item>
        ) : null}
        <Descriptions.Item label={t('system.backups.kept')}>{backups.kept}</Descriptions.Item>
        <Descriptions.Item label={t('system.backups.schedule')}>
          {t(backups.scheduled ? 'system.backups.scheduled' : 'system.backups.notScheduled')}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

function NodesCard({ nodes }: { nodes: Node[] }) {
  return (
    <Card size="small" title={t('system.nodes.title', { count: nodes.length })}>
      <Table<Node>
        data-testid="system-nodes"
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={nodes}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: t('system.nodes.host'),
            dataIndex: 'hostname',
            render: (v: string, n) => (
              <Space size={4} wrap>
                <span>{t('system.node.process', { host: v, pid: n.pid })}</span>
                {n.current ? <Tag>{t('system.nodes.current')}</Tag> : null}
              </Space>
            ),
          },
          {
            title: t('system.nodes.state'),
            dataIndex: 'responding',
            render: (v: boolean) => (
              <Tag color={v ? 'success' : 'error'}>{t(v ? 'system.nodes.responding' : 'system.nodes.silent')}</Tag>
            ),
          },
          { title: t('system.version'), dataIndex: 'version' },
          { title: t('system.nodes.started'), dataIndex: 'started_at', render: (v: string) => <DateCell value={v} /> },
          {
            title: t('system.nodes.lastSeen'),
            dataIndex: 'last_seen_at',
            render: (v: string) => <DateCell value={v} />,
          },
        ]}
      />
    </Card>
  );
}

function JobsCard({ jobs }: { jobs: SystemStatus['jobs'] }) {
  const rows = jobRows(jobs);
  const count = (n: number, danger = false) =>
    n > 0 && danger ? (
      <Typography.Text type="danger" strong>
        {n}
      </Typography.Text>
    ) : (
      n
    );
  return (
    <Card size="small" title={t('system.jobs.title')} extra={<Link to="/dashboard/jobs">{t('system.jobs.open')}</Link>}>
      <Typography.Paragraph type="secondary" data-testid="jobs-oldest">
        {jobs.oldest_waiting_seconds > 0
          ? t('system.jobs.oldest', { age: durationText(jobs.oldest_waiting_seconds) })
          : t('system.jobs.noneWaiting')}
      </Typography.Paragraph>
      <Table
        data-testid="system-jobs"
        rowKey="queue"
        size="small"
        pagination={false}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('system.jobs.empty') }}
        columns={[
          { title: t('system.jobs.queue'), dataIndex: 'queue', render: (q: string) => jobName(q) },
          { title: t('jobs.status.queued'), dataIndex: 'queued', align: 'right' },
          {
            title: t('jobs.status.retrying'),
            dataIndex: 'retrying',
            align: 'right',
            render: (n: number) => count(n, true),
          },
          { title: t('jobs.status.running'), dataIndex: 'running', align: 'right' },
          { title: t('jobs.status.done'), dataIndex: 'done', align: 'right' },
          {
            title: t('system.jobs.failed24h'),
            dataIndex: 'failed24h',
            align: 'right',
            render: (n: number) => count(n, true),
          },
        ]}
      />
    </Card>
  );
}

export function SystemPage() {
  const { status, isLoading, isFetching, refresh } = useSystemStatus();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }} align="start">
        <div>
          <PageTitle style={{ marginBottom: 4 }}>{t('system.title')}</PageTitle>
          <Typography.Text type="secondary">{t('system.subtitle')}</Typography.Text>
        </div>
        <Button icon={<ReloadOutlined />} loading={isFetching && !isLoading} onClick={refresh}>
          {t('system.refresh')}
        </Button>
      </Space>
      {!status ? (
        <Card loading={isLoading} size="small">
          {isLoading ? null : t('system.errors.load')}
        </Card>
      ) : (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} lg={12} xl={8}>
              <NodeCard status={status} />
            </Col>
            <Col xs={24} lg={12} xl={8}>
              <RadiusCard radius={status.radius} />
            </Col>
            <Col xs={24} lg={12} xl={8}>
              <MailBillingCard status={status} />
            </Col>
            <Col xs={24} lg={12} xl={8}>
              <BackupCard backups={status.backups} />
            </Col>
            <Col xs={24} xl={16}>
              <NodesCard nodes={status.nodes} />
            </Col>
          </Row>
          <JobsCard jobs={status.jobs} />
        </>
      )}
    </Space>
  );
}
