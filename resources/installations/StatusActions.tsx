/**
 * The status changes the caller may make now (the server's next_statuses), as large buttons: full width on a
 * phone, where they are tapped with a thumb in the field. Each asks first, in a dialog naming the change: a
 * stray tap in a pocket or a van must not tell the office a job is done (completing also creates the customer's
 * login, failing e-mails support); failing also asks why. Before any change the work form's unsaved notes and
 * fields are saved (and its ticks have reached the server). Completing names the checklist items not ticked:
 * every item counts as required, so the technician completes without them only by saying so (the server
 * refuses otherwise and keeps which ones in the audit).
 */
import { Alert, Button, Checkbox, Input, Modal, Space, Typography } from 'antd';
import { useState, type MutableRefObject } from 'react';
import type { InstallationDetail as Job, InstallationStatus } from '../../contract/schemas/installation';
import { t } from '../../src/i18n';
import { installationUrl, useInstallationCall } from './api';
import { TOUCH, useIsPhone } from './ui';

/** The change that moves the job on comes first; stepping back or giving up after it. */
const PRIMARY: readonly InstallationStatus[] = ['en_route', 'in_progress', 'completed', 'scheduled'];
const DANGER: readonly InstallationStatus[] = ['failed', 'cancelled'];

/** What the job's work form has that a status change must save or check first. */
export interface PendingWork {
  /** The checklist items not ticked (as shown, ticks included). */
  unticked: () => string[];
  /** Saves unsaved notes, equipment and readings and waits for the ticks in flight; false when that failed. */
  savePending: () => Promise<boolean>;
}

export function StatusActions({ job, work }: { job: Job; work?: MutableRefObject<PendingWork | null> }) {
  const phone = useIsPhone();
  const { run, isPending } = useInstallationCall();
  const [asking, setAsking] = useState<InstallationStatus | null>(null);
  const [reason, setReason] = useState('');
  const [unticked, setUnticked] = useState<string[]>([]);
  const [without, setWithout] = useState(false);
  const [saving, setSaving] = useState(false);
  const [unsaved, setUnsaved] = useState(false);
  if (job.next_statuses.length === 0) return null;
  const ask = (s: InstallationStatus) => {
    setUnticked(
      s === 'completed' ? (work?.current?.unticked() ?? job.checklist.filter((c) => !c.done).map((c) => c.item)) : [],
    );
    setWithout(false);
    setUnsaved(false);
    setAsking(s);
  };

  const ordered = [...job.next_statuses].sort((a, b) => rank(a) - rank(b));
  const firstForward = ordered.find((s) => PRIMARY.includes(s));
  const confirm = async () => {
    if (!asking) return;
    setSaving(true);
    const saved = (await work?.current?.savePending()) ?? true;
    setSaving(false);
    setUnsaved(!saved);
    if (!saved) return; // the form shows what is wrong, or a toast why saving failed
    const extra =
      asking === 'failed'
        ? { failure_reason: reason.trim() }
        : asking === 'completed' && unticked.length
          ? { confirm_unticked: true }
          : {};
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
            onClick={() => ask(s)}
          >
            {t(`installations.action.${s}`)}
          </Button>
        ))}
      </Space>
      <Modal
        open={asking !== null}
        title={
          asking === 'failed'
            ? t('installations.failTitle')
            : asking
              ? t('installations.confirmTitle', { number: job.number, status: t(`installations.status.${asking}`) })
              : ''
        }
        okText={asking ? t(`installations.action.${asking}`) : ''}
        cancelText={t('installations.notNow')}
        okButtonProps={{
          ...big,
          danger: asking ? DANGER.includes(asking) : false,
          disabled:
            (asking === 'failed' && !reason.trim()) || (asking === 'completed' && unticked.length > 0 && !without),
          loading: isPending || saving,
        }}
        cancelButtonProps={big}
        onCancel={() => setAsking(null)}
        onOk={() => void confirm()}
        destroyOnHidden
      >
        {asking === 'failed' ? (
          <>
            <Typography.Paragraph type="secondary">{t('installations.failHint')}</Typography.Paragraph>
            <Input.TextArea
              rows={4}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              aria-label={t('installations.fields.failureReason')}
            />
          </>
        ) : (
          asking && <Typography.Paragraph>{t(`installations.confirm.${asking}`)}</Typography.Paragraph>
        )}
        {unsaved && (
          <Alert
            type="error"
            showIcon
            role="alert"
            message={t('installations.saveFirst')}
            style={{ marginBottom: 8 }}
          />
        )}
        {asking === 'completed' && unticked.length > 0 && (
          <Alert
            type="warning"
            showIcon
            data-testid="unticked-items"
            message={t('installations.unticked.title', { count: unticked.length })}
            description={
              <>
                <ul style={{ paddingInlineStart: 20, margin: '4px 0 8px' }}>
                  {unticked.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
                <Checkbox
                  checked={without}
                  onChange={(e) => setWithout(e.target.checked)}
                  style={{ minHeight: TOUCH, display: 'flex', alignItems: 'center' }}
                >
                  {t('installations.unticked.confirm')}
                </Checkbox>
              </>
            }
          />
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
