import { Button } from 'antd';
import { CheckOutlined, UndoOutlined } from '@ant-design/icons';
import { useCustomMutation, useInvalidate, type BaseRecord } from '@refinedev/core';
import { t } from '../../src/i18n';

/** PATCH /contact-messages/:id {status}: new ↔ handled. */
export function MarkHandledButton({ record }: { record: BaseRecord }) {
  const { mutate, mutation } = useCustomMutation();
  const invalidate = useInvalidate();
  const handled = record.status === 'handled';
  const next = handled ? 'new' : 'handled';
  return (
    <Button
      size="small"
      icon={handled ? <UndoOutlined /> : <CheckOutlined />}
      loading={mutation.isPending}
      onClick={() =>
        mutate(
          {
            url: `/contact-messages/${encodeURIComponent(String(record.id))}`,
            method: 'patch',
            values: { status: next },
            meta: { fallbackMessage: t('contactMessages.errors.status') },
            successNotification: () => ({
              type: 'success',
              message: t(handled ? 'contactMessages.toast.markedNew' : 'contactMessages.toast.markedHandled'),
            }),
          },
          { onSuccess: () => invalidate({ resource: 'contact-messages', invalidates: ['list'] }) },
        )
      }
    >
      {t(handled ? 'contactMessages.markNew' : 'contactMessages.markHandled')}
    </Button>
  );
}
