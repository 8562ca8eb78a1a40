/**
 * The status changes the caller may make now (the server's next_statuses), as large buttons: full width on a
 * phone, where they are tapped with a thumb in the field. Each asks first, in a dialog naming the change: a
 * stray tap in a pocket or a van must not tell the office a job is done (completing also creates the customer's
 * login, failing e-mails support); failing also asks why.
 */
import { Button, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import type { InstallationDetail as Job, InstallationStatus } from '../../contract/schemas/installation';
import { t } from '../../src/i18n';
import { installationUrl, useInstallationCall } from './api';
import { TOUCH, useIsPhone } from './ui';

/** The change that moves the job on comes first; stepping back or giving up after it. */
const PRIMARY: readonly InstallationStatus[] = ['en_route', 'in_progress', 'completed', 'scheduled'];
const DANGER: readonly InstallationStatus[] = ['failed', 'cancelled'];

export function StatusActions({ job }: { job: Job }) {
  const phone = useIsPhone();
  const { run, isPending } = useInstallationCall();
  const [asking, setAsking] = useState<InstallationStatus | null>(null);
  const [reason, setReason] = useState('');
  if (job.next_statuses.length === 0) return null;

  const ordered = [...job.next_statuses].sort((a, b) => rank(a) - rank(b));
  const firstForward = ordered.find((s) => PRIMARY.includes(s));
  const confirm = async () => {
    if (!asking) return;
    const extra = asking === 'failed' ? { failure_reason: reason.trim() } : {};
    const done = await run({
      url: `${installationUrl(job.id)}/status`,
      method: 'patch',
      values: { status: asking, ...extra },
      success: t(`installations.status.${asking}`),
      fallbackKey: 'errors.installations.status',
    });
    if (done) {
      setAsking(null);
      setReason('');
    }
  };
  const big = { size: 'large' as const, style: { minHeight: TOUCH } };

  return (
    <div data-testid="status-actions">
      <Space direction={phone ? 'vertical' : 'horizontal'} size={8} wrap style={{ width: '100%' }}>
        {ordered.map((s) => (
          <Button
            key={s}
            {...big}
            block={phone}
            type={s === firstForward ? 'primary' : 'default'}
            danger={DANGER.includes(s)}
            onClick={() => setAsking(s)}
          >
            {t(`installations.action.${s}`)}
          </Button>
        ))}
      </Space>
      <Modal
        open={asking !== null}
        title={asking === 'failed' ? t('installations.failTitle') : asking ? t('installations.confirmTitle', { number: job.number, status: t(`installations.status.${asking}`) }) : ''}
        okText={asking ? t(`installations.action.${asking}`) : ''}
        cancelText={t('installations.notNow')}
        okButtonProps={{ ...big, danger: asking ? DANGER.includes(asking) : false, disabled: asking === 'failed' && !reason.trim(), loading: isPending }}
        cancelButtonProps={big}
        onCancel={() => setAsking(null)}
        onOk={() => void confirm()}
        destroyOnHidden
      >
        {asking === 'failed' ? (
          <>
            <Typography.Paragraph type="secondary">{t('installations.failHint')}</Typography.Paragraph>
            <Input.TextArea rows={4} value={reason} onChange={(e) => setReason(e.target.value)} aria-label={t('installations.fields.failureReason')} />
          </>
        ) : (
          asking && <Typography.Paragraph>{t(`installations.confirm.${asking}`)}</Typography.Paragraph>
        )}
      </Modal>
    </div>
  );
}

function rank(s: InstallationStatus): number {
  if (PRIMARY.includes(s)) return PRIMARY.indexOf(s);
  if (DANGER.includes(s)) return 20 + DANGER.indexOf(s);
  return 10;
}
