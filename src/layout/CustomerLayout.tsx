import { lazy, Suspense, useState } from 'react';
import { Button, Layout, theme } from 'antd';
import { MenuOutlined } from '@ant-design/icons';
import { useLogout } from '@refinedev/core';
import { Link, useLocation } from 'react-router';
import { PageOutlet } from './RouteGuard';
import { canAccessRoute } from '../../contract/roles';
import { useAuthState } from '../../providers/auth-store';
import { refineResources } from '../../resources';
import { SkipLink } from '../components/SkipLink';
import { t } from '../i18n';
import { useMediaQuery } from './useMediaQuery';
import { VerificationBanner } from './VerificationBanner';

/**
 * The navigation is code of its own for each width, loaded only where it is shown (issue 34: a customer's first
 * view on a phone within 300 KB of JavaScript): from lg up the menu row and the user menu; below it the drawer,
 * loaded when the menu button is first pointed at, focused or pressed, and drawn from the first press on.
 */
const loadWideNav = () => import('./PortalWideNav').then((m) => ({ default: m.PortalWideNav }));
const PortalWideNav = lazy(loadWideNav);
const loadMenuDrawer = () => import('./PortalMenuDrawer').then((m) => ({ default: m.PortalMenuDrawer }));
const PortalMenuDrawer = lazy(loadMenuDrawer);
/** antd's lg breakpoint: the five entries, the name and Log out fit one row from here. */
const WIDE = '(min-width: 992px)';

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
  // Without matchMedia (no browser) the wide layout, as before a width is known.
  const narrow = !useMediaQuery(WIDE, true);
  const [open, setOpen] = useState(false);
  const [drawerUsed, setDrawerUsed] = useState(false);
  const { mutate: logout } = useLogout();
  const entries = refineResources().filter(
    (r) =>
      r.meta?.portal && !r.meta?.hide && typeof r.list === 'string' && canAccessRoute(user?.role, r.list as string),
  );
  const items = entries.map((r) => ({
    key: r.list as string,
    label: <Link to={r.list as string}>{String(r.meta?.label)}</Link>,
    icon: r.meta?.icon,
  }));
  const selected = items
    .map((i) => i.key)
    .filter((k) => pathname === k || pathname.startsWith(`${k}/`))
    .sort((a, b) => b.length - a.length)
    .slice(0, 1);
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <SkipLink />
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: narrow ? 12 : 24,
          padding: '0 clamp(12px, 3vw, 32px)',
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
          position: 'sticky',
          top: 0,
          zIndex: 10,
        }}
      >
        <Link
          to="/"
          style={{
            fontWeight: 700,
            fontSize: 18,
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            minWidth: 0,
          }}
        >
          {t('app.name')}
        </Link>
        {narrow ? (
          <Button
            icon={<MenuOutlined />}
            size="large"
            aria-label={t('menu.open')}
            aria-expanded={open}
            aria-controls="portal-drawer"
            onPointerEnter={() => void loadMenuDrawer()}
            onFocus={() => void loadMenuDrawer()}
            onClick={() => {
              setDrawerUsed(true);
              setOpen(true);
            }}
            data-testid="menu-button"
          />
        ) : (
          <Suspense fallback={<div style={{ flex: 1 }} />}>
            <PortalWideNav selected={selected} items={items} />
          </Suspense>
        )}
      </Layout.Header>
      {narrow && drawerUsed && (
        <Suspense fallback={null}>
          <PortalMenuDrawer
            open={open}
            onClose={() => setOpen(false)}
            selected={selected}
            items={items}
            onLogout={() => logout()}
          />
        </Suspense>
      )}
      <Layout.Content
        id="main"
        style={{ padding: 'clamp(12px, 3vw, 32px)', maxWidth: 1200, width: '100%', margin: '0 auto' }}
      >
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
