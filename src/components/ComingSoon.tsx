import { Card, Result } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { t } from '../i18n';

/** A screen that is planned but not built yet: clearly said, never a blank page. */
export function ComingSoon({ screen }: { screen: string }) {
  return (
    <Card data-testid="coming-soon">
      <Result icon={<ClockCircleOutlined />} title={t('app.comingSoon.title')} subTitle={t('app.comingSoon.text', { screen: t(screen) })} />
    </Card>
  );
}
