import { Button, Popconfirm } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useCan, useDelete, type BaseKey } from '@refinedev/core';
import { t } from '../../i18n';

/**
 * A row's Delete button with its confirmation, usable by keyboard: the pop-up's Delete takes the focus when it
 * opens (Refine's DeleteButton leaves it on the row, so the pop-up's buttons were reachable only by tabbing
 * through the rest of the page), Escape closes it. Deleting goes through Refine's useDelete, which refreshes
 * the resource's lists as the DeleteButton did. Like Refine's buttons it asks the accessControlProvider first and
 * is not shown to a role that may not delete the resource (the role matrix's DELETE endpoint, contract/roles.ts).
 */
export function ConfirmDelete({
  resource,
  id,
  meta,
  label,
  successMessage,
}: {
  resource: string;
  id: BaseKey | undefined;
  meta?: Record<string, unknown>;
  /** The button's accessible name, e.g. "Delete plan". */
  label: string;
  successMessage: string;
}) {
  const { mutate, mutation } = useDelete();
  const { data: access } = useCan({ resource, action: 'delete', params: { id } });
  if (access?.can !== true) return null;
  return (
    <Popconfirm
      title={t('resource.confirmDelete')}
      okText={t('resource.delete')}
      cancelText={t('resource.cancel')}
      okButtonProps={{ danger: true, autoFocus: true, loading: mutation.isPending }}
      onConfirm={() =>
        id !== undefined &&
        mutate({ resource, id, meta, successNotification: () => ({ type: 'success', message: successMessage }) })
      }
    >
      <Button danger size="small" icon={<DeleteOutlined />} aria-label={label} loading={mutation.isPending} />
    </Popconfirm>
  );
}
