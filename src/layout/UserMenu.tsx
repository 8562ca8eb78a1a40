import { Button, Space, Switch, Tag } from 'antd';
import { LogoutOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { useLogout } from '@refinedev/core';
import { useAuthState } from '../../providers/auth-store';
import { StrongText } from '../components/Text';
import { t } from '../i18n';
import { useColorMode } from './theme';

/** The right side of both headers: who is signed in, the light/dark switch and logout. */
export function UserMenu() {
  const { user } = useAuthState();
  const { mode, setMode } = useColorMode();
  const { mutate: logout } = useLogout();
  return (
    <Space size="middle" wrap>
      <Switch
        checkedChildren={<MoonOutlined />}
        unCheckedChildren={<SunOutlined />}
        checked={mode === 'dark'}
        onChange={(dark) => setMode(dark ? 'dark' : 'light')}
        aria-label={mode === 'dark' ? t('app.theme.light') : t('app.theme.dark')}
      />
      {user && (
        <Space size="small" data-testid="current-user">
          <StrongText>{user.name}</StrongText>
          <Tag color="blue">{t(`role.${user.role}`)}</Tag>
        </Space>
      )}
      <Button icon={<LogoutOutlined />} onClick={() => logout()} data-testid="logout-button">
        {t('app.logout')}
      </Button>
    </Space>
  );
}
