// The portal's texts before anything that shows them.
import './i18n/portal';
import { App as AntdApp } from 'antd';
import { Refine } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { Route, Routes } from 'react-router';
import '@refinedev/antd/dist/reset.css';
import { accessControlProvider } from '../providers/access-control-provider';
import { authProvider } from '../providers/auth-provider';
import { dataProvider } from '../providers/data-provider';
import { i18nProvider } from '../providers/i18n-provider';
import { notificationProvider } from '../providers/notification-provider';
import { refineResources } from '../resources';
import { aliasRoutes } from './aliases';
import { DashboardLayout } from './layout/DashboardLayout';
import { NavigatorBridge } from './layout/NavigatorBridge';
import { GuestOnly, RouteGuard } from './layout/RouteGuard';
import { ColorModeProvider } from './layout/theme';
import { dashboardRoutes, lazyPage, notFoundPage } from './routes';

// The sign-in screens and the public invoice page load on first use: a signed-in staff member opening
// /dashboard needs none of their forms (issue 15, scripts/bench-web.mjs).
const loginPage = lazyPage(() => import('./pages/auth/LoginPage'), 'LoginPage');
const registerPage = lazyPage(() => import('./pages/auth/RegisterPage'), 'RegisterPage');
const passwordResetPage = lazyPage(() => import('./pages/auth/PasswordResetPage'), 'PasswordResetPage');
const verifyEmailPage = lazyPage(() => import('./pages/auth/VerifyEmailPage'), 'VerifyEmailPage');
const confirmEmailPage = lazyPage(() => import('./pages/auth/ConfirmEmailPage'), 'ConfirmEmailPage');
const verificationSuccessPage = lazyPage(
  () => import('./pages/auth/VerificationSuccessPage'),
  'VerificationSuccessPage',
);
const invoicePage = lazyPage(() => import('./pages/invoice/InvoicePage'), 'InvoicePage');

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
          resources={refineResources()}
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
              <Route path="/login" element={loginPage} />
              <Route path="/register" element={registerPage} />
            </Route>
            <Route path="/password-reset/*" element={passwordResetPage} />
            <Route path="/verify-email" element={verifyEmailPage} />
            <Route path="/confirm-email" element={confirmEmailPage} />
            <Route path="/verification-success" element={verificationSuccessPage} />
            <Route path="/invoice" element={invoicePage} />
            <Route path="/invoice/:id" element={invoicePage} />
            {aliasRoutes()}
            <Route element={<RouteGuard />}>
              <Route element={<DashboardLayout />}>{dashboardRoutes()}</Route>
            </Route>
            {/* Outside any layout: the not-found screen is the page's main landmark itself. */}
            <Route path="*" element={<main id="main">{notFoundPage}</main>} />
          </Routes>
        </Refine>
      </AntdApp>
    </ColorModeProvider>
  );
}
