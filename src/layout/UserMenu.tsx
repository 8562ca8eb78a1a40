import { Button, Dropdown, Space, Switch, Tag, theme, type MenuProps } from 'antd';
import { LogoutOutlined, MoonOutlined, SunOutlined, UserOutlined } from '@ant-design/icons';
import { useLogout } from '@refinedev/core';
import { useAuthState } from '../../providers/auth-store';
import { StrongText } from '../components/Text';
import { t } from '../i18n';
import { useColorMode } from './theme';

/** The light/dark switch, named by what it switches to. */
export function ThemeSwitch() {
  const { mode, setMode } = useColorMode();
  return (
    <Switch
      checkedChildren={<MoonOutlined />}
      unCheckedChildren={<SunOutlined />}
      checked={mode === 'dark'}
      onChange={(dark) => setMode(dark ? 'dark' : 'light')}
      aria-label={mode === 'dark' ? t('app.theme.light') : t('app.theme.dark')}
    />
  );
}

/** Who is signed in: the name and the role's tag. */
export function CurrentUser() {
  const { user } = useAuthState();
  if (!user) return null;
  return (
    <Space size="small" data-testid="current-user" wrap>
      <StrongText>{user.name}</StrongText>
      <Tag color="blue">{t(`role.${user.role}`)}</Tag>
    </Space>
  );
}

/** The right side of a wide header: who is signed in, the light/dark switch and logout. */
export function UserMenu() {
  const { mutate: logout } = useLogout();
  return (
    <Space size="middle">
      <ThemeSwitch />
      <CurrentUser />
      <Button icon={<LogoutOutlined />} onClick={() => logout()} data-testid="logout-button">
        {t('app.logout')}
      </Button>
    </Space>
  );
}

/**
 * The same on a narrow header: one avatar button whose menu holds the name and role, the light/dark switch and
 * logout (antd's Dropdown: opens with Enter or Space, moves with the arrow keys, closes with Escape).
 */
export function AvatarMenu() {
  const { user } = useAuthState();
  const { mode, setMode } = useColorMode();
  const { mutate: logout } = useLogout();
  const { token } = theme.useToken();
  const items: MenuProps['items'] = [
    {
      key: 'who',
      disabled: true,
      label: (
        <div data-testid="current-user" style={{ color: token.colorText, cursor: 'default' }}>
          <div>
            <StrongText>{user?.name}</StrongText>
          </div>
          <Tag color="blue" style={{ marginTop: 4 }}>
            {t(`role.${user?.role ?? 'user'}`)}
          </Tag>
        </div>
      ),
    },
    { type: 'divider' },
    {
      key: 'theme',
      icon: mode === 'dark' ? <SunOutlined /> : <MoonOutlined />,
      label: mode === 'dark' ? t('app.theme.light') : t('app.theme.dark'),
      onClick: () => setMode(mode === 'dark' ? 'light' : 'dark'),
    },
    {
      key: 'logout',
      icon: <LogoutOutlined />,
      label: <span data-testid="logout-button">{t('app.logout')}</span>,
      onClick: () => logout(),
    },
  ];
  return (
    <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
      <Button
        type="text"
        shape="circle"
        size="large"
        aria-label={t('menu.account', { name: user?.name ?? '' })}
        data-testid="avatar-menu"
        style={{ padding: 0 }}
      >
        {/* A circle with the person icon: antd's Avatar (which fits text to its size) is more than this needs. */}
        <span
          aria-hidden
          style={{
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            width: 32,
            height: 32,
            borderRadius: '50%',
            fontSize: 18,
            background: token.colorPrimaryBg,
            color: token.colorPrimaryText,
          }}
        >
          <UserOutlined />
        </span>
      </Button>
    </Dropdown>
  );
}
