/** /dashboard/usage (customer portal): the caller's own data usage. */
import { Space, Typography } from 'antd';
import { t } from '../../src/i18n';
import { UsageView } from './UsageView';

export function UsagePage() {
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ margin: 0 }}>{t('usage.title')}</Typography.Title>
      <UsageView />
    </Space>
  );
}
