import { LogoutOutlined, MoonOutlined, SunOutlined, UserOutlined } from '@ant-design/icons';
import { useLogout } from '@refinedev/core';
import { Button, Dropdown, Tag, theme, type MenuProps } from 'antd';
import { useAuthState } from '../../providers/auth-store';
import { StrongText } from '../components/Text';
import { getLocale, t } from '../i18n';
import { offeredLanguages, switchLanguage } from '../i18n/language';
import { useColorMode } from './theme';
import { saveAccountLanguage } from './UserMenu';

/**
 * The same on a narrow header: one avatar button whose menu holds the name and role, the light/dark switch and
 * logout (antd's Dropdown: opens with Enter or Space, moves with the arrow keys, closes with Escape).
 */
export function AvatarMenu() {
  const { user } = useAuthState();
  const { mode, setMode } = useColorMode();
  const { mutate: logout } = useLogout();
  const { token } = theme.useToken();
  const languages = offeredLanguages();
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
    ...(languages.length > 1
      ? [
          {
            key: 'language',
            label: t('app.language'),
            children: languages.map((l) => ({
              key: `language:${l.code}`,
              label: <span lang={l.code}>{l.name}</span>,
              disabled: l.code === getLocale(),
              onClick: () => void switchLanguage(l.code, { remember: true }).then(() => saveAccountLanguage(l.code)),
            })),
          },
        ]
      : []),
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
