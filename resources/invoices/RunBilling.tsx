import { useState } from 'react';
import { Button, Popconfirm } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useDataProvider, useInvalidate, useNotification } from '@refinedev/core';
import { canCallEndpoint } from '../../contract/roles';
import type { BillingRunResult } from '../../contract/schemas/billing';
import { useAuthState } from '../../providers/auth-store';
import { t } from '../../src/i18n';

/** The run's counts in one sentence, e.g. "2 renewal invoices, 1 overdue, 0 suspended, 0 expired". */
export function runSummary(result: BillingRunResult): string {
  const c = result.run.counts;
  return t('invoices.billingRun.summary', {
    renewals: c.renewal_invoices,
    overdue: c.overdue_invoices,
    suspended: c.suspended,
    expired: c.expired,
  });
}

/**
 * "Run billing now" (POST /billing/run): the daily job on demand, for the roles the matrix allows (admin).
 * The job runs at most once a day; a second press says so and changes nothing.
 */
export function RunBillingButton() {
  const { user } = useAuthState();
  const getProvider = useDataProvider();
  const invalidate = useInvalidate();
  const { open } = useNotification();
  const [busy, setBusy] = useState(false);
  if (!canCallEndpoint(user?.role, 'POST', '/billing/run')) return null;

  const run = async () => {
    setBusy(true);
    try {
      const res = await getProvider().custom!({
        url: '/billing/run',
        method: 'post',
        payload: {},
        meta: { fallbackMessage: t('errors.invoices.billingRun') },
      });
      const result = res.data as unknown as BillingRunResult;
      open?.({
        type: 'success',
        message: result.alreadyRan ? t('invoices.billingRun.alreadyRan') : t('invoices.billingRun.done'),
        description: runSummary(result),
      });
      await invalidate({ resource: 'invoices', invalidates: ['list'] });
    } catch (error) {
      open?.({
        type: 'error',
        message: error instanceof Error && error.message ? error.message : t('errors.invoices.billingRun'),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popconfirm
      title={t('invoices.billingRun.confirm')}
      onConfirm={() => void run()}
      okText={t('invoices.billingRun.button')}
    >
      <Button icon={<ThunderboltOutlined />} loading={busy}>
        {t('invoices.billingRun.button')}
      </Button>
    </Popconfirm>
  );
}
