/**
 * /dashboard/nas/router/interfaces: pick a device, see its interfaces with live status (re-read every 30 s
 * and on Refresh); "Poll now" asks the device at once. The device is kept in the address (?device=).
 */
import { App, Alert, Button, Card, Descriptions, Space } from 'antd';
import { ReloadOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { DateCell } from '../../src/components/resource/cells';
import { t } from '../../src/i18n';
import { useDeviceOptions, useInterfaces, usePollNow } from './api';
import { DevicePicker, DeviceStatusTag } from './DevicePicker';
import { InterfacesTable } from './InterfacesTable';
import { PageTitle } from '../../src/components/Text';

export function InterfacesPage() {
  const [params, setParams] = useSearchParams();
  const deviceId = params.get('device') ?? undefined;
  const { devices, isLoading: devicesLoading } = useDeviceOptions();
  const interfaces = useInterfaces(deviceId);
  const pollNow = usePollNow();
  const { message } = App.useApp();

  // With one device there is nothing to choose.
  useEffect(() => {
    if (!deviceId && devices.length === 1) setParams({ device: devices[0].id }, { replace: true });
  }, [deviceId, devices, setParams]);

  const device = interfaces.data?.device;
  const poll = async () => {
    if (!deviceId) return;
    const result = await pollNow.poll(deviceId).catch(() => undefined);
    if (!result) return;
    if (result.status === 'up') void message.success(t('traffic.polled', { count: result.interfaces }));
    else void message.warning(t('traffic.pollFailed', { reason: result.error ?? '' }));
    await interfaces.refetch();
  };

  return (
    <Card title={<PageTitle>{t('traffic.interfacesTitle')}</PageTitle>}>
      <Space wrap style={{ marginBottom: 16 }}>
        <DevicePicker
          devices={devices}
          loading={devicesLoading}
          value={deviceId}
          onChange={(id) => setParams({ device: id })}
        />
        <Button
          icon={<ReloadOutlined />}
          disabled={!deviceId}
          loading={interfaces.isFetching && !interfaces.isLoading}
          onClick={() => void interfaces.refetch()}
        >
          {t('traffic.refresh')}
        </Button>
        <Button
          icon={<ThunderboltOutlined />}
          disabled={!deviceId}
          loading={pollNow.isPending}
          onClick={() => void poll()}
        >
          {t('traffic.pollNow')}
        </Button>
      </Space>
      {!devicesLoading && !devices.length ? <Alert type="info" showIcon message={t('traffic.noDevices')} /> : null}
      {device ? (
        <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 16 }} data-testid="device-state">
          <Descriptions.Item label={t('traffic.device')}>
            <Space>
              {device.name}
              <DeviceStatusTag status={device.status} />
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('traffic.lastSeen')}>
            {device.last_seen_at ? <DateCell value={device.last_seen_at} /> : t('traffic.never')}
          </Descriptions.Item>
          {device.last_error ? (
            <Descriptions.Item label={t('traffic.lastError')}>{device.last_error}</Descriptions.Item>
          ) : null}
        </Descriptions>
      ) : null}
      {deviceId ? (
        <InterfacesTable items={interfaces.data?.items ?? []} loading={interfaces.isLoading} showTrafficLinks />
      ) : null}
    </Card>
  );
}
