/**
 * "Test connection": SNMP and the management API, each with its result (reachable, auth failed, timeout,
 * unreachable...), the device's message and the round trip. For a stored device (show page) or for the
 * settings a form holds before saving (create/edit: blank secrets come from the stored device).
 */
import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { ApiOutlined } from '@ant-design/icons';
import { useCustomMutation, type HttpError } from '@refinedev/core';
import type { ConnectionCheck, ConnectionResult, ConnectionTest } from '../../../contract/schemas/device';
import { t } from '../../../src/i18n';

const COLORS: Record<ConnectionResult, string> = {
  reachable: 'green',
  auth_failed: 'red',
  timeout: 'orange',
  unreachable: 'red',
  error: 'red',
  not_configured: 'default',
};

function resultItem({ label, check, testId }: { label: string; check: ConnectionCheck; testId: string }) {
  return (
    <Descriptions.Item label={label}>
      <Space direction="vertical" size={2} data-testid={testId}>
        <Space>
          <Tag color={COLORS[check.status]} data-testid={`${testId}-status`}>
            {t(`devices.test.result.${check.status}`)}
          </Tag>
          {check.latency_ms !== null && (
            <Typography.Text type="secondary">{t('devices.test.latency', { ms: check.latency_ms })}</Typography.Text>
          )}
        </Space>
        <Typography.Text>{check.message}</Typography.Text>
        {check.details && Object.keys(check.details).length > 0 && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {Object.entries(check.details)
              .map(([k, v]) => `${k}: ${v}`)
              .join(' · ')}
          </Typography.Text>
        )}
      </Space>
    </Descriptions.Item>
  );
}

export function ConnectionTestResult({ result }: { result: ConnectionTest }) {
  return (
    <Descriptions bordered column={1} size="small" data-testid="connection-test-result">
      {resultItem({ label: t('devices.test.snmp'), check: result.snmp, testId: 'test-snmp' })}
      {resultItem({ label: t('devices.test.api'), check: result.api, testId: 'test-api' })}
    </Descriptions>
  );
}

/**
 * The button and its result. `deviceId` alone: POST /devices/{id}/test-connection. `settings()`: the form's
 * current values, POSTed to /devices/test-connection (with device_id when editing).
 */
export function TestConnection({
  deviceId,
  settings,
}: {
  deviceId?: string;
  settings?: () => Record<string, unknown>;
}) {
  const { mutate, mutation } = useCustomMutation<ConnectionTest>();
  const [result, setResult] = useState<ConnectionTest | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run = () => {
    setFailure(null);
    const form = settings?.();
    mutate(
      {
        url: form ? '/devices/test-connection' : `/devices/${encodeURIComponent(deviceId ?? '')}/test-connection`,
        method: 'post',
        values: form ? { ...form, ...(deviceId ? { device_id: deviceId } : {}) } : {},
        meta: { fallbackMessage: t('devices.test.failed') },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: (response) => setResult(response.data as ConnectionTest),
        onError: (error: HttpError) => {
          setResult(null);
          setFailure(error?.message || t('devices.test.failed'));
        },
      },
    );
  };
  return (
    <Card size="small" title={t('devices.test.title')} data-testid="connection-test">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Button icon={<ApiOutlined />} onClick={run} loading={mutation.isPending}>
          {t('devices.test.button')}
        </Button>
        {failure && <Alert type="error" showIcon message={failure} data-testid="connection-test-error" />}
        {result && !mutation.isPending && <ConnectionTestResult result={result} />}
      </Space>
    </Card>
  );
}
