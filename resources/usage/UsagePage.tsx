/**
 * /dashboard/usage: a customer's own data usage, line by line; the staff who may read anyone's usage (the role
 * matrix's GET /usage/customers) get their overview and any customer's usage instead (StaffUsage).
 */
import { Alert, Space } from 'antd';
import { canCallEndpoint, isRole } from '../../contract/roles';
import { useAuthState } from '../../providers/auth-store';
import { t } from '../../src/i18n';
import { StaffUsage } from './StaffUsage';
import { UsageView } from './UsageView';
import { PageTitle } from '../../src/components/Text';

export function UsagePage() {
  const role = useAuthState((s) => s.user?.role);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <PageTitle>{t('usage.title')}</PageTitle>
      {!isRole(role) ? null : canCallEndpoint(role, 'GET', '/usage/customers') ? (
        <StaffUsage />
      ) : role === 'user' ? (
        <UsageView />
      ) : (
        // Staff who may not read customers' usage (billing): what the page is for, not a customer's "No subscription yet".
        <Alert type="info" showIcon message={t('usage.staff.notForRole')} />
      )}
    </Space>
  );
}
