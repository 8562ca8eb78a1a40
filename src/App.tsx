import { App as AntdApp } from 'antd';
import { Refine } from '@refinedev/core';
import routerProvider, { DocumentTitleHandler } from '@refinedev/react-router';
import { Route, Routes } from 'react-router';
import '@refinedev/antd/dist/reset.css';
import { accessControlProvider } from '../providers/access-control-provider';
import { authProvider } from '../providers/auth-provider';
import { dataProvider } from '../providers/data-provider';
import { i18nProvider } from '../providers/i18n-provider';
import { notificationProvider } from '../providers/notification-provider';
import { resources } from '../resources';
import { NotFound } from './components/NotFound';
import { t } from './i18n';
import { DashboardLayout } from './layout/DashboardLayout';
import { NavigatorBridge } from './layout/NavigatorBridge';
import { GuestOnly, RouteGuard } from './layout/RouteGuard';
import { ColorModeProvider } from './layout/theme';
import { LoginPage } from './pages/auth/LoginPage';
import { PasswordResetPage } from './pages/auth/PasswordResetPage';
import { RegisterPage } from './pages/auth/RegisterPage';
import { VerificationSuccessPage } from './pages/auth/VerificationSuccessPage';
import { VerifyEmailPage } from './pages/auth/VerifyEmailPage';
import { InvoicePage } from './pages/invoice/InvoicePage';
import { dashboardRoutes } from './routes';

/** The portal: sign-in screens, the customer portal and the staff back office (loaded only off the public site). */
export default function PortalApp() {
  return (
    <ColorModeProvider>
      <AntdApp>
        <Refine
          routerProvider={routerProvider}
          dataProvider={dataProvider}
          authProvider={authProvider}
          accessControlProvider={accessControlProvider}
          notificationProvider={notificationProvider}
          i18nProvider={i18nProvider}
          resources={resources}
          options={{
            disableTelemetry: true,
            syncWithLocation: true,
            warnWhenUnsavedChanges: true,
            // Spec §9: unused query data is kept 60 seconds.
            reactQuery: { clientConfig: { defaultOptions: { queries: { gcTime: 60_000 } } } },
          }}
        >
          <NavigatorBridge />
          <Routes>
            <Route element={<GuestOnly />}>
              <Route path="/login" element={<LoginPage />} />
              <Route path="/register" element={<RegisterPage />} />
            </Route>
            <Route path="/password-reset/*" element={<PasswordResetPage />} />
            <Route path="/verify-email" element={<VerifyEmailPage />} />
            <Route path="/verification-success" element={<VerificationSuccessPage />} />
            <Route path="/invoice" element={<InvoicePage />} />
            <Route path="/invoice/:id" element={<InvoicePage />} />
            <Route element={<RouteGuard />}>
              <Route element={<DashboardLayout />}>{dashboardRoutes}</Route>
            </Route>
            <Route path="*" element={<NotFound />} />
          </Routes>
          <DocumentTitleHandler
            handler={({ resource }) => {
              const label = resource?.meta?.label;
              return label ? `${String(label)} | ${t('app.name')}` : t('app.name');
            }}
          />
        </Refine>
      </AntdApp>
    </ColorModeProvider>
  );
}
