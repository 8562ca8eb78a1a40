import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useAuthState } from '../../providers/auth-store';
import { t } from '../i18n';
import { HeaderTitle } from './Text';

export function NotFound() {
  const { isAuthenticated } = useAuthState();
  return (
    <div data-testid="not-found">
      <Result
        status="404"
        title={<HeaderTitle>{t('app.notFound.title')}</HeaderTitle>}
        subTitle={t('app.notFound.text')}
        extra={
          <Link to={isAuthenticated ? '/dashboard' : '/'}>
            <Button type="primary">{isAuthenticated ? t('app.notFound.dashboard') : t('app.notFound.home')}</Button>
          </Link>
        }
      />
    </div>
  );
}
