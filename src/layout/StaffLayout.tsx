/**
 * Back office for staff: a sider menu filtered by the role matrix (the same decision as the access-control
 * provider), a header with the user menu, the page. Built on antd's Layout and Menu rather than Refine's
 * ThemedLayout: that one comes with @refinedev/antd's other parts (pro-layout's locale tables, forms), about
 * 50 KB of compressed script before the dashboard could show (issue 15, scripts/bench-web.mjs).
 *
 * Wide screens: a sticky sider, collapsible to its icons, and the user menu spelled out. Below `lg` (phones and
 * tablets): the sider's menu sits in a drawer behind a header button (choosing an entry, Escape or a click beside
 * it closes it), and name, role, theme and Log out fold into one avatar menu, so the header never wraps.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { Button, Drawer, Grid, Layout, Menu, Space, theme, type MenuProps } from 'antd';
import { LeftOutlined, MenuOutlined, RightOutlined, WifiOutlined } from '@ant-design/icons';
import { Link, useLocation } from 'react-router';
import { PageOutlet } from './RouteGuard';
import { isRole } from '../../contract/roles';
import { canRole } from '../../providers/access-control-provider';
import { useAuthState } from '../../providers/auth-store';
import { refineResources } from '../../resources';
import { registryVersion } from '../../resources/registry';
import { t } from '../i18n';
import { SkipLink } from '../components/SkipLink';
import { currentDirection } from '../i18n/language';
import { AvatarMenu } from './AvatarMenu';
import { UserMenu } from './UserMenu';
import { SandboxBanner } from './SandboxBanner';
import { VerificationBanner } from './VerificationBanner';

const WIDTH = 200;
const COLLAPSED_WIDTH = 80;
const HEADER_HEIGHT = 64;

type MenuItem = Required<MenuProps>['items'][number];

/** The sider's entries the role may open, groups holding their allowed children, and the routes among them. */
function useStaffMenu(): { items: MenuItem[]; routes: { route: string; group?: string }[] } {
  const { user } = useAuthState();
  const version = registryVersion();
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the trigger: the registry changed, refineResources() reads it
  return useMemo(() => {
    const resources = refineResources().filter((r) => !r.meta?.hide);
    const role = isRole(user?.role) ? user.role : null;
    const allowed = (name: string) => canRole(role, { resource: name, action: 'list' }).can;
    const routes: { route: string; group?: string }[] = [];
    const entry = (r: ReturnType<typeof refineResources>[number], group?: string): MenuItem | null => {
      if (typeof r.list !== 'string' || !allowed(r.name)) return null;
      routes.push({ route: r.list, group });
      return { key: r.list, icon: r.meta?.icon as ReactNode, label: <Link to={r.list}>{String(r.meta?.label)}</Link> };
    };
    const items: MenuItem[] = [];
    for (const r of resources.filter((x) => !x.meta?.parent)) {
      if (typeof r.list === 'string') {
        const item = entry(r);
        if (item) items.push(item);
        continue;
      }
      const children = resources
        .filter((c) => c.meta?.parent === r.name)
        .map((c) => entry(c, r.name))
        .filter((c): c is MenuItem => c !== null);
      if (children.length)
        items.push({ key: r.name, icon: r.meta?.icon as ReactNode, label: String(r.meta?.label), children });
    }
    return { items, routes };
  }, [user?.role, version]);
}

function SiderTitle({ collapsed }: { collapsed: boolean }) {
  const { token } = theme.useToken();
  return (
    <Link
      to="/"
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: collapsed ? 'center' : 'flex-start',
        gap: 8,
        height: HEADER_HEIGHT,
        padding: collapsed ? 0 : '0 16px',
        background: token.colorBgElevated,
        color: token.colorText,
        fontWeight: 700,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
      }}
    >
      <WifiOutlined style={{ color: token.colorPrimary, fontSize: 20 }} />
      {!collapsed && <span>{t('app.name')}</span>}
    </Link>
  );
}

export function StaffLayout() {
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  // Until the first measurement, assume a wide screen (the breakpoint is unknown for one render).
  const narrow = screens.lg === false;
  const [collapsed, setCollapsed] = useState(false);
  const [open, setOpen] = useState(false);
  const { items, routes } = useStaffMenu();
  const selected = routes
    .filter((r) => pathname === r.route || pathname.startsWith(`${r.route}/`))
    .sort((a, b) => b.route.length - a.route.length)[0];
  const menu = (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={selected ? [selected.route] : []}
      defaultOpenKeys={selected?.group ? [selected.group] : []}
      onClick={() => setOpen(false)}
      style={{ flex: 1, overflow: 'auto', border: 'none', paddingTop: 8 }}
      data-testid="staff-menu"
    />
  );

  return (
    <Layout style={{ minHeight: '100vh' }} hasSider={!narrow}>
      <SkipLink />
      {!narrow && (
        <Layout.Sider
          width={WIDTH}
          collapsedWidth={COLLAPSED_WIDTH}
          collapsed={collapsed}
          trigger={null}
          style={{
            background: token.colorBgContainer,
            borderRight: `1px solid ${token.colorBgElevated}`,
            height: '100vh',
            top: 0,
            position: 'sticky',
          }}
        >
          <nav aria-label={t('menu.title')} style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
            <SiderTitle collapsed={collapsed} />
            {menu}
            <Button
              type="text"
              icon={collapsed ? <RightOutlined className="mirror-rtl" /> : <LeftOutlined className="mirror-rtl" />}
              aria-label={collapsed ? t('menu.expand') : t('menu.collapse')}
              aria-expanded={!collapsed}
              onClick={() => setCollapsed(!collapsed)}
              style={{ height: 48, borderRadius: 0, background: token.colorBgElevated, color: token.colorPrimary }}
            />
          </nav>
        </Layout.Sider>
      )}
      {narrow && (
        // Phones and tablets: the sider's menu in a drawer (focus kept inside while open, Escape closes it).
        <Drawer
          id="staff-drawer"
          open={open}
          onClose={() => setOpen(false)}
          // The side the sider is on: the start of the reading direction (right in Arabic).
          placement={currentDirection() === 'rtl' ? 'right' : 'left'}
          width={`min(${WIDTH + 80}px, 86vw)`}
          title={<SiderTitle collapsed={false} />}
          styles={{ header: { padding: 0 }, body: { padding: 0 } }}
        >
          <nav aria-label={t('menu.title')}>{menu}</nav>
        </Drawer>
      )}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          style={{
            display: 'flex',
            justifyContent: narrow ? 'space-between' : 'flex-end',
            alignItems: 'center',
            gap: 12,
            padding: narrow ? '0 12px' : '0 24px',
            height: HEADER_HEIGHT,
            lineHeight: 'normal',
            background: token.colorBgElevated,
            position: 'sticky',
            top: 0,
            zIndex: 10,
          }}
        >
          {narrow && (
            <Space size="small" style={{ minWidth: 0 }}>
              <Button
                icon={<MenuOutlined />}
                size="large"
                aria-label={t('menu.open')}
                aria-expanded={open}
                aria-controls="staff-drawer"
                onClick={() => setOpen(true)}
                data-testid="menu-button"
              />
              <Link
                to="/"
                style={{
                  fontWeight: 700,
                  color: token.colorText,
                  whiteSpace: 'nowrap',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                }}
              >
                {t('app.name')}
              </Link>
            </Space>
          )}
          {narrow ? <AvatarMenu /> : <UserMenu />}
        </Layout.Header>
        <Layout.Content id="main">
          <div style={{ minHeight: 360, padding: screens.sm === false ? 12 : 24 }}>
            <SandboxBanner />
            <VerificationBanner />
            <div className="page-fade" key={pathname}>
              <PageOutlet />
            </div>
          </div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
