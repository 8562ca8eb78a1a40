/**
 * /dashboard/backups (admin): the backups the portal keeps on its server (issue 13): the schedule, the last
 * failure, back up now, and each kept backup with its time, size and an authorised download.
 */
import { useState } from 'react';
import { Alert, Button, Card, Space, Table, Typography } from 'antd';
import { CloudDownloadOutlined, CloudUploadOutlined } from '@ant-design/icons';
import { useNotification, type HttpError } from '@refinedev/core';
import type { BackupItem, BackupList } from '../../contract/schemas/backup';
import { DateCell } from '../../src/components/resource';
import { t } from '../../src/i18n';
import { formatBytes } from '../device-backups/format';
import { downloadBackup, useBackUpNow, useBackups } from './api';
import { formatDateTime } from '../../src/components/dates';
import { PageTitle } from '../../src/components/Text';

export function scheduleText(schedule: BackupList['schedule']): string {
  if (!schedule.enabled) return t('backups.schedule.off');
  const key = schedule.interval_hours === 1 ? 'backups.schedule.hourly' : 'backups.schedule.every';
  return t(key, { hours: schedule.interval_hours, keep: schedule.keep });
}

function DownloadButton({ backup }: { backup: BackupItem }) {
  const { open } = useNotification();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadBackup(backup);
    } catch (error) {
      open?.({ type: 'error', message: (error as HttpError).message || t('backups.errors.download') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="small"
      icon={<CloudDownloadOutlined />}
      loading={busy}
      onClick={() => void download()}
      aria-label={t('backups.downloadOne', { name: backup.name })}
    >
      {t('backups.download')}
    </Button>
  );
}

export function BackupsPage() {
  const { list, isLoading } = useBackups();
  const { backUpNow, isPending } = useBackUpNow();

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <div>
        <PageTitle style={{ marginBottom: 4 }}>{t('backups.title')}</PageTitle>
        <Typography.Text type="secondary">{t('backups.subtitle')}</Typography.Text>
      </div>
      <Card size="small" title={t('backups.schedule.title')}>
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text data-testid="backup-schedule">{list ? scheduleText(list.schedule) : '…'}</Typography.Text>
          <Button type="primary" icon={<CloudUploadOutlined />} loading={isPending} onClick={() => void backUpNow()}>
            {t('backups.now')}
          </Button>
        </Space>
      </Card>
      {list?.last_failure ? (
        <Alert
          type="error"
          showIcon
          data-testid="backup-last-failure"
          message={t('backups.lastFailure', {
            time: formatDateTime(list.last_failure.at),
            message: list.last_failure.message,
          })}
        />
      ) : null}
      <Card size="small" title={t('backups.list.title')}>
        <Table<BackupItem>
          data-testid="backups"
          rowKey="name"
          size="small"
          loading={isLoading}
          dataSource={list?.items ?? []}
          pagination={false}
          // At phone width the table scrolls sideways rather than squeezing the file names.
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('backups.list.empty') }}
          columns={[
            {
              title: t('backups.fields.name'),
              dataIndex: 'name',
              render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
            },
            {
              title: t('backups.fields.createdAt'),
              dataIndex: 'created_at',
              render: (v: string) => <DateCell value={v} />,
            },
            {
              title: t('backups.fields.size'),
              dataIndex: 'size',
              align: 'right',
              render: (v: number) => formatBytes(v),
            },
            {
              title: t('backups.fields.download'),
              key: 'download',
              render: (_: unknown, b: BackupItem) => <DownloadButton backup={b} />,
            },
          ]}
        />
      </Card>
    </Space>
  );
}
