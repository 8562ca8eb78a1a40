import { lazy, Suspense, useState } from 'react';
import { Button, Grid, Layout, Menu, theme } from 'antd';
import { MenuOutlined } from '@ant-design/icons';
import { useLogout } from '@refinedev/core';
import { Link, useLocation } from 'react-router';
import { PageOutlet } from './RouteGuard';
import { canAccessRoute } from '../../contract/roles';
import { useAuthState } from '../../providers/auth-store';
import { refineResources } from '../../resources';
import { SkipLink } from '../components/SkipLink';
import { t } from '../i18n';
import { UserMenu } from './UserMenu';
import { VerificationBanner } from './VerificationBanner';

/** The phone menu's drawer: loaded only below lg, so a customer at a desk does not download it. */
const PortalMenuDrawer = lazy(() => import('./PortalMenuDrawer').then((m) => ({ default: m.PortalMenuDrawer })));

/**
 * Customers get a slimmer portal: top navigation and their own few pages, not the staff back office. Below
 * antd's `lg` (992 px: phones and tablets, where the five entries, the name and Log out do not fit one row) the
 * navigation, who is signed in, the theme switch and Log out move into a drawer behind one menu button, so the
 * header holds only the name of the ISP and that button.
 */
export function CustomerLayout() {
  const { user } = useAuthState();
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const narrow = screens.lg === false;
  const [open, setOpen] = useState(false);
  const { mutate: logout } = useLogout();
  const entries = refineResources().filter((r) => r.meta?.portal && !r.meta?.hide && typeof r.list === 'string' && canAccessRoute(user?.role, r.list as string));
  const items = entries.map((r) => ({ key: r.list as string, label: <Link to={r.list as string}>{String(r.meta?.label)}</Link>, icon: r.meta?.icon }));
  const selected = items
    .map((i) => i.key)
    .filter((k) => pathname === k || pathname.startsWith(`${k}/`))
    .sort((a, b) => b.length - a.length)
    .slice(0, 1);
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <SkipLink />
      <Layout.Header
        style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: narrow ? 12 : 24,
          padding: '0 clamp(12px, 3vw, 32px)', background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}`,
          position: 'sticky', top: 0, zIndex: 10 }}
      >
        <Link to="/" style={{ fontWeight: 700, fontSize: 18, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 }}>
          {t('app.name')}
        </Link>
        {narrow ? (
          <Button icon={<MenuOutlined />} size="large" aria-label={t('menu.open')} aria-expanded={open} aria-controls="portal-drawer"
            onClick={() => setOpen(true)} data-testid="menu-button" />
        ) : (
          <>
            <Menu mode="horizontal" selectedKeys={selected} items={items} style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
              data-testid="portal-menu" />
            <UserMenu />
          </>
        )}
      </Layout.Header>
      {narrow && (
        <Suspense fallback={null}>
          <PortalMenuDrawer open={open} onClose={() => setOpen(false)} selected={selected} items={items} onLogout={() => logout()} />
        </Suspense>
      )}
      <Layout.Content id="main" style={{ padding: 'clamp(12px, 3vw, 32px)', maxWidth: 1200, width: '100%', margin: '0 auto' }}>
        <VerificationBanner />
        <div className="page-fade" key={pathname}>
          <PageOutlet />
        </div>
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center' }}>
        {t('app.footer', { year: new Date().getFullYear(), name: t('app.name') })}
      </Layout.Footer>
    </Layout>
  );
}
