import { Button, Space, Spin, Typography } from 'antd';
import { useList, useUpdate, type BaseRecord } from '@refinedev/core';
import { translate as t } from '../../src/i18n';

/**
 * What switching off the default payment gateway offers instead (the server refuses it: customers are offered
 * the default): another active gateway made the default first, then this one off; with no other active
 * gateway, only the advice to add or turn one on.
 */
export function DefaultGatewayOff({ record, close }: { record: BaseRecord; close: () => void }) {
  const name = String(record.name ?? '');
  const { result, query } = useList({ resource: 'payment-gateways', pagination: { mode: 'off' } });
  const { mutateAsync, mutation } = useUpdate();
  const others = (result.data ?? []).filter((g) => g.id !== record.id && g.is_active === true);

  const moveDefault = async (other: BaseRecord) => {
    try {
      await mutateAsync({
        resource: 'payment-gateways',
        id: other.id!,
        values: { is_default: true },
        successNotification: false,
      });
      await mutateAsync({
        resource: 'payment-gateways',
        id: record.id!,
        values: { is_active: false },
        successNotification: () => ({
          type: 'success',
          message: t('gateways.off.done', { name, other: String(other.name) }),
        }),
      });
      close();
    } catch {
      // The data provider has shown the server's message.
    }
  };

  if (query.isLoading) return <Spin />;
  if (others.length === 0) return <Typography.Paragraph>{t('gateways.off.onlyActive', { name })}</Typography.Paragraph>;
  return (
    <>
      <Typography.Paragraph>{t('gateways.off.isDefault', { name })}</Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }}>
        {others.map((g) => (
          <Button
            key={String(g.id)}
            block
            danger
            loading={mutation.isPending}
            onClick={() => void moveDefault(g)}
            style={{ whiteSpace: 'normal', height: 'auto', minHeight: 32 }}
          >
            {t('gateways.off.makeDefault', { name, other: String(g.name) })}
          </Button>
        ))}
      </Space>
    </>
  );
}
