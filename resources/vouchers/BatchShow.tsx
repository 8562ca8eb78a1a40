import { Alert, Button, Card, Descriptions, Popconfirm, Space, Spin, Tag } from 'antd';
import { StopOutlined } from '@ant-design/icons';
import { Show } from '@refinedev/antd';
import { useShow } from '@refinedev/core';
import { useParams } from 'react-router';
import type { VoucherBatch } from '../../contract/schemas/vouchers';
import { DateCell, MoneyCell } from '../../src/components/resource';
import { useToastedCall } from '../../src/components/toastedCall';
import { useAllowed } from '../../src/components/resource/useAllowed';
import { t } from '../../src/i18n';
import { BATCHES, allowanceLabel, validityLabel } from './api';
import { vouchersResource as decl } from './resource';
import { BATCH_POLL_MS, BatchProgress, DownloadCodes, StateCounts } from './ui';
import { VouchersTable } from './VouchersTable';
import { HeaderTitle } from '../../src/components/Text';

/** How the systems a batch can be imported from (issue 39) write their own names. */
const IMPORT_SOURCE_NAMES: Record<string, string> = { phpnuxbill: 'phpnuxbill', daloradius: 'daloRADIUS' };

/** Revoke the batch (POST /vouchers/batches/:id/revoke): its unused and active vouchers stop working. */
function RevokeBatch({ batch }: { batch: VoucherBatch }) {
  const { run, isPending } = useToastedCall();
  const allowed = useAllowed('vouchers', 'revoke-batch');
  const live = (batch.states.unused ?? 0) + (batch.states.active ?? 0);
  if (!allowed) return null;
  return (
    <Popconfirm
      title={t('vouchers.revokeBatchConfirm', { n: live })}
      okText={t('vouchers.revokeBatch')}
      okButtonProps={{ danger: true }}
      cancelText={t('resource.cancel')}
      onConfirm={() =>
        run({
          url: `/${BATCHES}/${encodeURIComponent(batch.id)}/revoke`,
          method: 'post',
          success: t('vouchers.toast.batchRevoked'),
          fallbackKey: 'errors.vouchers.revoke',
        })
      }
    >
      <Button danger icon={<StopOutlined />} loading={isPending}>
        {t('vouchers.revokeBatch')}
      </Button>
    </Popconfirm>
  );
}

/** One batch: its terms and states, the downloads while the hour lasts, revoke, and its vouchers by state. */
export function BatchShow() {
  const { id = '' } = useParams();
  const { query, result } = useShow<VoucherBatch>({
    resource: decl.name,
    id,
    meta: { endpoint: BATCHES, fallbackMessage: t('errors.vouchers.one') },
    // A batch a job is still making is read again until it is ready (its progress, then the downloads).
    queryOptions: {
      refetchInterval: (q) =>
        (q.state.data as { data?: VoucherBatch } | undefined)?.data?.status === 'generating' ? BATCH_POLL_MS : false,
    },
  });
  const batch = query.isError ? undefined : (result as VoucherBatch | undefined);
  return (
    <Show
      goBack={false}
      title={<HeaderTitle>{batch ? `${t(decl.singularKey)}: ${batch.plan_name}` : t(decl.singularKey)}</HeaderTitle>}
      resource={decl.name}
      recordItemId={id}
      isLoading={query.isLoading}
      canEdit={false}
      canDelete={false}
      // biome-ignore lint/complexity/noUselessFragments: an empty element is how Refine's Show is told "no buttons"; null or undefined give its defaults
      headerButtons={batch && !batch.revoked_at ? <RevokeBatch batch={batch} /> : <></>}
    >
      {query.isLoading ? (
        <Spin />
      ) : !batch ? (
        <Alert type="error" showIcon message={query.error?.message || t('errors.vouchers.one')} />
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions bordered column={1} size="small" data-testid="batch-details">
            <Descriptions.Item label={t('vouchers.fields.plan')}>{batch.plan_name}</Descriptions.Item>
            <Descriptions.Item label={t('vouchers.fields.validity')}>
              {validityLabel(batch.validity_minutes)}
            </Descriptions.Item>
            <Descriptions.Item label={t('vouchers.fields.allowance')}>
              {allowanceLabel(batch.data_allowance_mb)}
            </Descriptions.Item>
            <Descriptions.Item label={t('vouchers.fields.price')}>
              <MoneyCell minor={batch.price} currency={batch.currency} />
            </Descriptions.Item>
            <Descriptions.Item label={t('vouchers.fields.count')}>{batch.count}</Descriptions.Item>
            <Descriptions.Item label={t('vouchers.fields.states')}>
              <StateCounts states={batch.states} />
            </Descriptions.Item>
            <Descriptions.Item label={t('vouchers.fields.created')}>
              <DateCell value={batch.created_at} />
            </Descriptions.Item>
            {batch.imported_from && (
              <Descriptions.Item label={t('vouchers.fields.importedFrom')}>
                {IMPORT_SOURCE_NAMES[batch.imported_from] ?? batch.imported_from}
              </Descriptions.Item>
            )}
            {batch.revoked_at && (
              <Descriptions.Item label={t('vouchers.fields.revoked')}>
                <Tag color="red">
                  <DateCell value={batch.revoked_at} />
                </Tag>
              </Descriptions.Item>
            )}
          </Descriptions>
          {batch.status === 'generating' && !batch.revoked_at ? (
            <BatchProgress batch={batch} />
          ) : (
            !batch.revoked_at && <DownloadCodes batch={batch} />
          )}
          <Card title={t('vouchers.fields.states')} size="small">
            <VouchersTable batchId={batch.id} />
          </Card>
        </Space>
      )}
    </Show>
  );
}
