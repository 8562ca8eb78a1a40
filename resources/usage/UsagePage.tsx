/**
 * /dashboard/usage: a customer's own data usage, line by line; the staff who may read anyone's usage (the role
 * matrix's GET /usage/customers) get their overview and any customer's usage instead (StaffUsage).
 */
import { Space, Typography } from 'antd';
import { canCallEndpoint, isRole } from '../../contract/roles';
import { useAuthState } from '../../providers/auth-store';
import { t } from '../../src/i18n';
import { StaffUsage } from './StaffUsage';
import { UsageView } from './UsageView';

export function UsagePage() {
  const role = useAuthState((s) => s.user?.role);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ margin: 0 }}>{t('usage.title')}</Typography.Title>
      {!isRole(role) ? null : canCallEndpoint(role, 'GET', '/usage/customers') ? <StaffUsage /> : <UsageView />}
    </Space>
  );
}
