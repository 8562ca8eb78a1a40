import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useAuthState } from '../../providers/auth-store';
import { t } from '../i18n';

export function NotFound() {
  const { isAuthenticated } = useAuthState();
  return (
    <div data-testid="not-found">
      <Result
        status="404"
        title={t('app.notFound.title')}
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
