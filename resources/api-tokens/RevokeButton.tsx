import { Button, Popconfirm } from 'antd';
import { StopOutlined } from '@ant-design/icons';
import type { BaseRecord } from '@refinedev/core';
import { useToastedCall } from '../../src/components/toastedCall';
import { useAllowed } from '../../src/components/resource/useAllowed';
import { t } from '../../src/i18n';

/**
 * DELETE /api-tokens/:id after a confirmation, for a role the role matrix lets revoke (contract/resource-access.ts);
 * nothing to do for a token already revoked.
 */
export function RevokeButton({ record }: { record: BaseRecord }) {
  const { run, isPending } = useToastedCall();
  const allowed = useAllowed('api-tokens', 'revoke');
  if (!allowed || record.status === 'revoked') return null;
  return (
    <Popconfirm
      title={t('apiTokens.confirmRevoke', { name: String(record.name ?? '') })}
      okText={t('apiTokens.revoke')}
      okButtonProps={{ danger: true }}
      cancelText={t('resource.cancel')}
      onConfirm={() =>
        run({
          url: `/api-tokens/${encodeURIComponent(String(record.id))}`,
          method: 'delete',
          success: t('apiTokens.toast.revoked'),
          fallbackKey: 'apiTokens.errors.revoke',
        })
      }
    >
      <Button size="small" danger icon={<StopOutlined />} loading={isPending}>
        {t('apiTokens.revoke')}
      </Button>
    </Popconfirm>
  );
}
