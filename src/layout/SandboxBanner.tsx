import { Alert } from 'antd';
import { useCustom } from '@refinedev/core';
import type { SystemNotices } from '../../contract/schemas/system';
import { t } from '../i18n';

/**
 * Every back-office page, when the server runs in production with ALLOW_SANDBOX_PAYMENTS=true: a red banner, since
 * anyone holding a sandbox checkout link can approve a payment (GET /api/system/notices).
 */
export function SandboxBanner() {
  const { result } = useCustom<SystemNotices>({
    url: '/system/notices',
    method: 'get',
    errorNotification: false,
    queryOptions: { staleTime: 5 * 60_000 },
  });
  if ((result.data as SystemNotices | undefined)?.sandbox_payments_allowed !== true) return null;
  return (
    <Alert
      type="error"
      banner
      showIcon
      role="alert"
      data-testid="sandbox-payments-banner"
      style={{ marginBottom: 16 }}
      message={t('app.sandboxPaymentsAllowed.title')}
      description={t('app.sandboxPaymentsAllowed.text')}
    />
  );
}
