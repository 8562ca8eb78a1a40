/** /dashboard/nas/router/config (admin): a router's running configuration, line numbered, searchable, masked. */
import { Alert, Button, Card, Descriptions, Empty, Space, Spin, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { t } from '../../src/i18n';
import { useRouterOptions, useRunningConfig } from './api';
import { ConfigText } from './ConfigText';
import { formatBytes, formatTime } from './format';
import { RouterPicker, useChosenDevice } from './RouterPicker';
import { PageTitle } from '../../src/components/Text';

export function ConfigPage() {
  const { devices, isLoading } = useRouterOptions();
  const [deviceId, choose] = useChosenDevice();
  const { config, isFetching, error, refetch } = useRunningConfig(deviceId);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <div>
        <PageTitle style={{ marginBottom: 4 }}>{t('deviceBackups.config.title')}</PageTitle>
        <Typography.Text type="secondary">{t('deviceBackups.config.subtitle')}</Typography.Text>
      </div>
      <Space wrap>
        <RouterPicker devices={devices} value={deviceId} onChange={choose} loading={isLoading} />
        <Button icon={<ReloadOutlined />} onClick={() => void refetch()} disabled={!deviceId} loading={isFetching}>
          {t('deviceBackups.config.refresh')}
        </Button>
      </Space>
      {!deviceId ? (
        <Empty description={devices.length || isLoading ? t('deviceBackups.pickHint') : t('deviceBackups.noDevices')} />
      ) : error && !isFetching ? (
        <Alert
          type="error"
          showIcon
          message={t('deviceBackups.config.failed')}
          description={error}
          data-testid="config-error"
        />
      ) : !config ? (
        <Spin tip={t('deviceBackups.config.fetching')}>
          <div style={{ minHeight: 120 }} />
        </Spin>
      ) : (
        <Card size="small">
          <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('deviceBackups.device')}>{config.device_name}</Descriptions.Item>
            <Descriptions.Item>
              {t('deviceBackups.config.fetchedAt', { time: formatTime(config.fetched_at) })}
            </Descriptions.Item>
            <Descriptions.Item>
              {t('deviceBackups.config.summary', { lines: config.line_count, size: formatBytes(config.size_bytes) })}
            </Descriptions.Item>
          </Descriptions>
          <Space style={{ marginBottom: 8 }} wrap>
            <Tag>{t('deviceBackups.config.masked', { count: config.masked_count })}</Tag>
            {config.matches_backup_version ? (
              <Tag color="green">
                {t('deviceBackups.config.matchesVersion', { version: config.matches_backup_version })}
              </Tag>
            ) : (
              <Tag color="orange">{t('deviceBackups.config.notBackedUp')}</Tag>
            )}
          </Space>
          <ConfigText content={config.content} />
        </Card>
      )}
    </Space>
  );
}
