import { Layout, Menu, theme } from 'antd';
import { Link, Outlet, useLocation } from 'react-router';
import { canAccessRoute } from '../../contract/roles';
import { useAuthState } from '../../providers/auth-store';
import { resources } from '../../resources';
import { t } from '../i18n';
import { UserMenu } from './UserMenu';
import { VerificationBanner } from './VerificationBanner';

/** Customers get a slimmer portal: top navigation and their own few pages, not the staff back office. */
export function CustomerLayout() {
  const { user } = useAuthState();
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  const items = resources
    .filter((r) => r.meta?.portal && typeof r.list === 'string' && canAccessRoute(user?.role, r.list as string))
    .map((r) => ({ key: r.list as string, label: <Link to={r.list as string}>{String(r.meta?.label)}</Link>, icon: r.meta?.icon }));
  const selected = items
    .map((i) => i.key)
    .filter((k) => pathname === k || pathname.startsWith(`${k}/`))
    .sort((a, b) => b.length - a.length)
    .slice(0, 1);
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{ display: 'flex', alignItems: 'center', gap: 24, padding: '0 clamp(12px, 3vw, 32px)',
          background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
      >
        <Link to="/" style={{ fontWeight: 700, fontSize: 18, whiteSpace: 'nowrap' }}>{t('app.name')}</Link>
        <Menu mode="horizontal" selectedKeys={selected} items={items} style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
          data-testid="portal-menu" />
        <UserMenu />
      </Layout.Header>
      <Layout.Content style={{ padding: 'clamp(12px, 3vw, 32px)', maxWidth: 1200, width: '100%', margin: '0 auto' }}>
        <VerificationBanner />
        <div className="page-fade" key={pathname}>
          <Outlet />
        </div>
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center' }}>
        {t('app.footer', { year: new Date().getFullYear(), name: t('app.name') })}
      </Layout.Footer>
    </Layout>
  );
}
