import '../../i18n/auth-texts';
import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useAuthState } from '../../../providers/auth-store';
import { AuthCard } from '../../components/AuthCard';
import { t } from '../../i18n';

export function VerificationSuccessPage() {
  const { isAuthenticated } = useAuthState();
  return (
    <AuthCard title={t('auth.verify.title')} testId="verification-success">
      <Result
        status="success"
        title={t('auth.verified.title')}
        subTitle={t('auth.verified.text')}
        extra={
          <Link to={isAuthenticated ? '/dashboard' : '/login'}>
            <Button type="primary">{isAuthenticated ? t('auth.verified.continue') : t('app.login')}</Button>
          </Link>
        }
      />
    </AuthCard>
  );
}
