import { Button } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useCustomMutation, useInvalidate, type BaseRecord } from '@refinedev/core';
import { t } from '../../src/i18n';

/** POST /incidents/:id/resolve: ends an open incident now; its customers are told it is over. */
export function ResolveButton({ record }: { record: BaseRecord }) {
  const { mutate, mutation } = useCustomMutation();
  const invalidate = useInvalidate();
  if (record.resolved_at) return null;
  return (
    <Button
      size="small"
      icon={<CheckOutlined />}
      loading={mutation.isPending}
      onClick={() =>
        mutate(
          {
            url: `/incidents/${encodeURIComponent(String(record.id))}/resolve`,
            method: 'post',
            values: {},
            meta: { fallbackMessage: t('incidents.errors.resolve') },
            successNotification: () => ({ type: 'success', message: t('incidents.toast.resolved') }),
          },
          { onSuccess: () => invalidate({ resource: 'incidents', invalidates: ['list', 'detail'], id: record.id }) },
        )
      }
    >
      {t('incidents.resolve')}
    </Button>
  );
}
