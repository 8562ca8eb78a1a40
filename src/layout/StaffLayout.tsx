import { Layout as AntLayout, theme } from 'antd';
import { ThemedLayout, ThemedSider, ThemedTitle } from '@refinedev/antd';
import { WifiOutlined } from '@ant-design/icons';
import { Outlet, useLocation } from 'react-router';
import { t } from '../i18n';
import { UserMenu } from './UserMenu';
import { VerificationBanner } from './VerificationBanner';

function StaffHeader() {
  const { token } = theme.useToken();
  return (
    <AntLayout.Header
      style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', padding: '0 24px',
        background: token.colorBgElevated, position: 'sticky', top: 0, zIndex: 10 }}
    >
      <UserMenu />
    </AntLayout.Header>
  );
}

/** Back office for staff: Refine's themed layout, sider menu filtered by the role matrix. */
export function StaffLayout() {
  const { pathname } = useLocation();
  return (
    <ThemedLayout
      Header={StaffHeader}
      Sider={(props) => <ThemedSider {...props} fixed render={({ items }) => <>{items}</>} />}
      Title={({ collapsed }) => <ThemedTitle collapsed={collapsed} text={t('app.name')} icon={<WifiOutlined />} />}
    >
      <VerificationBanner />
      <div className="page-fade" key={pathname}>
        <Outlet />
      </div>
    </ThemedLayout>
  );
}
