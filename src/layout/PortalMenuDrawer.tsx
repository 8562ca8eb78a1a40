import type { ComponentProps } from 'react';
import { Button, Divider, Drawer, Menu, Space } from 'antd';
import { LogoutOutlined } from '@ant-design/icons';
import { t } from '../i18n';
import { CurrentUser, ThemeSwitch } from './UserMenu';

/** The customer portal's navigation below lg: entries, who is signed in, the theme switch and Log out. */
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
      placement="right"
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
        <Button icon={<LogoutOutlined />} size="large" block onClick={onLogout} data-testid="logout-button">
          {t('app.logout')}
        </Button>
      </Space>
    </Drawer>
  );
}
