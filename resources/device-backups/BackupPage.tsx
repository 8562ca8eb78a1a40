/**
 * /dashboard/nas/router/backup (admin): back up now (progress by polling the job), the versions with size,
 * time and download, a diff of any two versions, one version's text, and the failed runs with their reason.
 */
import { useEffect, useState } from 'react';
import { App, Alert, Button, Card, Drawer, Empty, Progress, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import { CloudDownloadOutlined, CloudUploadOutlined, DiffOutlined, EyeOutlined } from '@ant-design/icons';
import type { DeviceBackup, DeviceJob } from '../../contract/schemas/device-backup';
import { t } from '../../src/i18n';
import {
  downloadBackup,
  isFinished,
  useBackupDiff,
  useBackupVersion,
  useBackupVersions,
  useFailedRuns,
  useJob,
  useRefreshBackups,
  useRouterOptions,
  useStartBackup,
} from './api';
import { ConfigText } from './ConfigText';
import { DiffView } from './DiffView';
import { formatBytes, formatTime } from './format';
import { RouterPicker, useChosenDevice } from './RouterPicker';
import { PageTitle } from '../../src/components/Text';

const STATUS_COLOR: Record<string, string> = {
  queued: 'default',
  running: 'processing',
  succeeded: 'green',
  unchanged: 'blue',
  failed: 'red',
};

function JobProgress({ job }: { job: DeviceJob }) {
  const status = job.status === 'failed' ? 'exception' : isFinished(job) ? 'success' : 'active';
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="backup-progress">
      <Space>
        <Typography.Text strong>{t('deviceBackups.backup.progress')}</Typography.Text>
        <Tag color={STATUS_COLOR[job.status]}>{t(`deviceBackups.status.${job.status}`)}</Tag>
        <Typography.Text type="secondary">{t(`deviceBackups.stage.${job.stage}`)}</Typography.Text>
      </Space>
      <Progress percent={job.percent} status={status} aria-label={t('deviceBackups.backup.title')} />
      {job.status === 'failed' ? (
        <Alert type="error" showIcon message={t('deviceBackups.backup.failed', { reason: job.error ?? '' })} />
      ) : null}
      {job.status === 'succeeded' ? (
        <Alert
          type="success"
          showIcon
          message={t('deviceBackups.backup.succeeded', { version: job.backup_version ?? '' })}
        />
      ) : null}
      {job.status === 'unchanged' ? (
        <Alert
          type="info"
          showIcon
          message={t('deviceBackups.backup.unchanged', { version: job.backup_version ?? '' })}
        />
      ) : null}
    </Space>
  );
}

function VersionDrawer({
  deviceId,
  deviceName,
  backupId,
  onClose,
}: {
  deviceId: string;
  deviceName: string;
  backupId?: string;
  onClose: () => void;
}) {
  const { version, isLoading } = useBackupVersion(deviceId, backupId);
  return (
    <Drawer
      open={!!backupId}
      onClose={onClose}
      width="min(1000px, 95vw)"
      title={version ? t('deviceBackups.versions.viewTitle', { version: version.version, device: deviceName }) : ''}
    >
      {isLoading || !version ? <Spin /> : <ConfigText content={version.content} testId="version-text" />}
    </Drawer>
  );
}

export function BackupPage() {
  const { message } = App.useApp();
  const { devices, isLoading: devicesLoading } = useRouterOptions();
  const [deviceId, choose] = useChosenDevice();
  const device = devices.find((d) => d.id === deviceId);
  const [page, setPage] = useState(1);
  const { versions, pagination, isLoading } = useBackupVersions(deviceId, page);
  const { runs } = useFailedRuns(deviceId);
  const { start, isPending } = useStartBackup();
  const refresh = useRefreshBackups();
  const [jobId, setJobId] = useState<string>();
  const { job } = useJob(jobId);
  const [from, setFrom] = useState<string>();
  const [to, setTo] = useState<string>();
  const [compare, setCompare] = useState<{ from: string; to: string }>();
  const { diff, isLoading: diffLoading } = useBackupDiff(deviceId, compare?.from, compare?.to);
  const [viewing, setViewing] = useState<string>();

  // A new device: forget the previous one's job, choices and page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: deviceId is the trigger, not read inside
  useEffect(() => {
    setJobId(undefined);
    setFrom(undefined);
    setTo(undefined);
    setCompare(undefined);
    setPage(1);
  }, [deviceId]);

  // When the polled job finishes, the lists change (a new version or a failed run).
  const finished = isFinished(job);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per finished job (jobId tells one from the next); refresh is a new function each render
  useEffect(() => {
    if (finished) refresh();
  }, [finished, jobId]);

  // The two newest versions are the natural pair to compare.
  useEffect(() => {
    if (!from && !to && versions.length >= 2 && page === 1) {
      setFrom(versions[1].id);
      setTo(versions[0].id);
    }
  }, [versions, from, to, page]);

  const backUpNow = async () => {
    if (!deviceId) return;
    const started = await start(deviceId);
    if (started) {
      setJobId(started.id);
      void message.info(t('deviceBackups.backup.started'));
    }
  };

  const versionOptions = versions.map((v) => ({ value: v.id, label: `v${v.version} — ${formatTime(v.created_at)}` }));
  const running = !!job && !finished;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <div>
        <PageTitle style={{ marginBottom: 4 }}>{t('deviceBackups.backup.title')}</PageTitle>
        <Typography.Text type="secondary">{t('deviceBackups.backup.subtitle')}</Typography.Text>
      </div>
      <Space wrap>
        <RouterPicker devices={devices} value={deviceId} onChange={choose} loading={devicesLoading} />
        <Button
          type="primary"
          icon={<CloudUploadOutlined />}
          onClick={() => void backUpNow()}
          disabled={!deviceId || running}
          loading={isPending || running}
        >
          {t('deviceBackups.backup.now')}
        </Button>
      </Space>
      {!deviceId ? (
        <Empty
          description={
            devices.length || devicesLoading ? t('deviceBackups.pickHintBackup') : t('deviceBackups.noDevices')
          }
        />
      ) : (
        <>
          {job ? (
            <Card size="small">
              <JobProgress job={job} />
            </Card>
          ) : null}
          <Card size="small" title={t('deviceBackups.versions.title')}>
            <Table<DeviceBackup>
              data-testid="backup-versions"
              rowKey="id"
              size="small"
              loading={isLoading}
              dataSource={versions}
              locale={{ emptyText: t('deviceBackups.versions.empty') }}
              pagination={
                pagination && pagination.totalPages > 1
                  ? { current: page, total: pagination.total, pageSize: 20, onChange: setPage, showSizeChanger: false }
                  : false
              }
              columns={[
                {
                  title: t('deviceBackups.versions.version'),
                  dataIndex: 'version',
                  render: (v: number) => <Typography.Text strong>v{v}</Typography.Text>,
                },
                { title: t('deviceBackups.versions.time'), dataIndex: 'created_at', render: formatTime },
                { title: t('deviceBackups.versions.size'), dataIndex: 'size_bytes', render: formatBytes },
                { title: t('deviceBackups.versions.lines'), dataIndex: 'line_count' },
                {
                  title: t('deviceBackups.versions.trigger'),
                  dataIndex: 'trigger',
                  render: (v: string) => <Tag>{t(`deviceBackups.trigger.${v}`)}</Tag>,
                },
                {
                  title: t('deviceBackups.versions.by'),
                  dataIndex: 'created_by_name',
                  render: (v: string | null) => v ?? t('deviceBackups.versions.scheduler'),
                },
                {
                  title: t('deviceBackups.versions.actions'),
                  key: 'actions',
                  render: (_: unknown, v: DeviceBackup) => (
                    <Space>
                      <Button size="small" icon={<EyeOutlined />} onClick={() => setViewing(v.id)}>
                        {t('deviceBackups.versions.view')}
                      </Button>
                      <Button
                        size="small"
                        icon={<CloudDownloadOutlined />}
                        onClick={() =>
                          void downloadBackup(deviceId, v, device?.name ?? 'device').catch((e: Error) =>
                            message.error(e.message || t('deviceBackups.versions.downloadFailed')),
                          )
                        }
                      >
                        {t('deviceBackups.versions.download')}
                      </Button>
                    </Space>
                  ),
                },
              ]}
            />
          </Card>
          <Card
            size="small"
            title={
              <Space>
                <DiffOutlined />
                {t('deviceBackups.versions.compare')}
              </Space>
            }
          >
            <Space wrap style={{ marginBottom: 12 }}>
              <Typography.Text>{t('deviceBackups.versions.compareFrom')}</Typography.Text>
              <Select
                data-testid="diff-from"
                aria-label={t('deviceBackups.versions.compareFrom')}
                style={{ minWidth: 220 }}
                value={from}
                onChange={setFrom}
                options={versionOptions}
              />
              <Typography.Text>{t('deviceBackups.versions.compareTo')}</Typography.Text>
              <Select
                data-testid="diff-to"
                aria-label={t('deviceBackups.versions.compareTo')}
                style={{ minWidth: 220 }}
                value={to}
                onChange={setTo}
                options={versionOptions}
              />
              <Button onClick={() => from && to && setCompare({ from, to })} disabled={!from || !to}>
                {t('deviceBackups.versions.compare')}
              </Button>
            </Space>
            {!compare ? (
              <Typography.Text type="secondary">{t('deviceBackups.diff.pickTwo')}</Typography.Text>
            ) : diffLoading || !diff ? (
              <Spin />
            ) : (
              <DiffView diff={diff} />
            )}
          </Card>
          <Card size="small" title={t('deviceBackups.runs.title')}>
            <Table<DeviceJob>
              data-testid="failed-runs"
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={runs}
              locale={{ emptyText: t('deviceBackups.runs.empty') }}
              columns={[
                { title: t('deviceBackups.runs.time'), dataIndex: 'created_at', render: formatTime },
                {
                  title: t('deviceBackups.versions.trigger'),
                  dataIndex: 'trigger',
                  render: (v: string) => <Tag>{t(`deviceBackups.trigger.${v}`)}</Tag>,
                },
                {
                  title: t('deviceBackups.runs.reason'),
                  dataIndex: 'error',
                  render: (v: string | null) => <Typography.Text type="danger">{v}</Typography.Text>,
                },
              ]}
            />
          </Card>
          <VersionDrawer
            deviceId={deviceId}
            deviceName={device?.name ?? ''}
            backupId={viewing}
            onClose={() => setViewing(undefined)}
          />
        </>
      )}
    </Space>
  );
}
