import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useAuthState } from '../../providers/auth-store';
import { t } from '../i18n';
import { HeaderTitle } from './Text';

/**
 * A signed-in route the role may not open: says so, names who is signed in, and leads home (rather than
 * silently sending them elsewhere). The server refuses the screen's data all the same.
 */
export function NoAccess() {
  const { user } = useAuthState();
  const navigate = useNavigate();
  return (
    <div data-testid="no-access">
      <Result
        status="403"
        title={<HeaderTitle>{t('app.noAccess.title')}</HeaderTitle>}
        subTitle={t('app.noAccess.text', { role: user ? t(`role.${user.role}`) : '' })}
        extra={
          // One link that looks like a button (a button inside a link is two controls for one action).
          <Button
            type="primary"
            href="/dashboard"
            onClick={(e) => {
              e.preventDefault();
              void navigate('/dashboard');
            }}
          >
            {t('app.noAccess.home')}
          </Button>
        }
      />
    </div>
  );
}
