/** The subscription page's PPPoE login (password behind a reveal button) and its installation's progress. */
import { Card, Descriptions, Space, Typography, Button } from 'antd';
import { useState } from 'react';
import { canCallEndpoint, type Role } from '../../contract/roles';
import { t } from '../../src/i18n';
import { useServiceAccess } from './api';
import { formatSlot, InstallationStatusTag } from './ui';
import { SectionHeading } from '../../src/components/Text';

export function ServiceAccessCard({ subscriptionId, role }: { subscriptionId: string; role: Role | null | undefined }) {
  const allowed = canCallEndpoint(role, 'GET', '/subscriptions/:id/credentials');
  const { access, isLoading } = useServiceAccess(subscriptionId, allowed);
  const [shown, setShown] = useState(false);
  if (!allowed || isLoading || !access) return null;
  const { credentials, installation } = access;
  return (
    <Card title={<SectionHeading>{t('access.title')}</SectionHeading>} data-testid="service-access">
      <Descriptions bordered column={1} size="small">
        {installation && (
          <Descriptions.Item label={t('access.installation')}>
            <Space wrap>
              <span>{installation.number}</span>
              <InstallationStatusTag status={installation.status} />
              {installation.status === 'scheduled' && (
                <span>
                  {t('access.scheduledFor', {
                    slot: formatSlot(installation.scheduled_start, installation.scheduled_end),
                  })}
                </span>
              )}
            </Space>
          </Descriptions.Item>
        )}
        {credentials ? (
          <>
            <Descriptions.Item label={t('access.username')}>
              <Typography.Text copyable code data-testid="pppoe-username">
                {credentials.username}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('access.password')}>
              <Space>
                {shown ? (
                  <Typography.Text copyable code data-testid="pppoe-password">
                    {credentials.password ?? '—'}
                  </Typography.Text>
                ) : (
                  <Typography.Text code>••••••••••••••</Typography.Text>
                )}
                <Button size="small" onClick={() => setShown(!shown)}>
                  {shown ? t('access.hide') : t('access.reveal')}
                </Button>
              </Space>
            </Descriptions.Item>
          </>
        ) : (
          <Descriptions.Item label={t('access.username')}>
            <Typography.Text type="secondary">{t('access.notYet')}</Typography.Text>
          </Descriptions.Item>
        )}
      </Descriptions>
    </Card>
  );
}
