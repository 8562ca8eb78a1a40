import { Button, Space, Switch, Tag } from 'antd';
import { LogoutOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { useLogout } from '@refinedev/core';
import type { LanguageCode } from '../../contract/languages';
import { accountApi } from '../../providers/auth-provider';
import { getAuthState, useAuthState } from '../../providers/auth-store';
import { StrongText } from '../components/Text';
import { t } from '../i18n';
import { LanguageSelect } from '../i18n/LanguageSelect';
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

/**
 * A language chosen in the portal becomes the person's own (issue 37): stored on their account, so the portal opens
 * in it on their other devices and what is sent to them uses it. A failed save keeps the choice in this browser.
 */
export function saveAccountLanguage(code: LanguageCode): void {
  if (!getAuthState().user || getAuthState().user?.language === code) return;
  accountApi.updateProfile({ language: code }).catch(() => {});
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
      <LanguageSelect onChosen={saveAccountLanguage} />
      <ThemeSwitch />
      <CurrentUser />
      <Button icon={<LogoutOutlined />} onClick={() => logout()} data-testid="logout-button">
        {t('app.logout')}
      </Button>
    </Space>
  );
}
