import type { ComponentProps } from 'react';
import { Button, Divider, Drawer, Menu, Space } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { t } from '../i18n';
import { currentDirection } from '../i18n/language';
import { LanguageSelect } from '../i18n/LanguageSelect';
import { CurrentUser, saveAccountLanguage, ThemeSwitch } from './UserMenu';

/** The customer portal's navigation below lg: entries, who is signed in, the theme and language switches and Log out. */
export function PortalMenuDrawer({
  open,
  onClose,
  selected,
  items,
  onLogout,
}: {
  open: boolean;
  onClose: () => void;
  selected: string[];
  items: ComponentProps<typeof Menu>['items'];
  onLogout: () => void;
}) {
  return (
    <Drawer
      id="portal-drawer"
      open={open}
      onClose={onClose}
      // The reading direction's end side: the right, or the left in Arabic.
      placement={currentDirection() === 'rtl' ? 'left' : 'right'}
      width="min(320px, 86vw)"
      title={t('menu.title')}
      styles={{ body: { padding: 0, display: 'flex', flexDirection: 'column' } }}
    >
      <div style={{ padding: '16px 24px' }}>
        <CurrentUser />
      </div>
      <Menu
        mode="inline"
        selectedKeys={selected}
        items={items}
        onClick={onClose}
        style={{ borderInlineEnd: 'none' }}
        data-testid="portal-menu"
      />
      <Divider style={{ margin: '8px 0' }} />
      <Space direction="vertical" size="middle" style={{ padding: '8px 24px 24px' }}>
        <Space>
          <ThemeSwitch />
          <span aria-hidden>{t('app.theme.dark')}</span>
        </Space>
        <label htmlFor="drawer-language" style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <span>{t('app.language')}</span>
          <LanguageSelect id="drawer-language" onChosen={saveAccountLanguage} />
        </label>
        <Button icon={<LogoutOutlined />} size="large" block onClick={onLogout} data-testid="logout-button">
          {t('app.logout')}
        </Button>
      </Space>
    </Drawer>
  );
}
