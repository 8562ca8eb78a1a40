import { Card, Typography } from 'antd';
import { useAuthState } from '../../../providers/auth-store';
import { t } from '../../i18n';

/** The landing screen after sign-in; statistics and charts come with the dashboard issue. */
export function DashboardHome() {
  const { user } = useAuthState();
  if (!user) return null;
  return (
    <Card data-testid="dashboard-home">
      <Typography.Title level={3} style={{ marginTop: 0 }}>{t('dashboard.welcome', { name: user.name })}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('dashboard.role', { role: t(`role.${user.role}`) })}</Typography.Paragraph>
      <Typography.Paragraph>{t('dashboard.statsSoon')}</Typography.Paragraph>
    </Card>
  );
}
