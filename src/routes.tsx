import { lazy, Suspense, type ComponentType } from 'react';
import { Spin } from 'antd';
import { Route } from 'react-router';
import { DashboardHome } from './pages/dashboard/DashboardHome';

/**
 * Back-office screens load on first use, one chunk per resource, so signing in does not download every
 * screen's code (forms, uploads, schemas) at once.
 */
export function lazyPage<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) {
  // The screens' texts first (one chunk, fetched once): some screen modules read them while they load.
  const Page = lazy(async () => {
    await import('./i18n/screens');
    return { default: (await load())[name] as ComponentType };
  });
  return (
    <Suspense fallback={<Spin style={{ display: 'block', margin: '64px auto' }} />}>
      <Page />
    </Suspense>
  );
}

/** The not-found screen (antd's Result with its illustrations) is code no working page needs. */
export const notFoundPage = lazyPage(() => import('./components/NotFound'), 'NotFound');

/** The users list and a user's detail are one screen (spec §2): one element, so the list stays mounted. */
const usersScreen = lazyPage(() => import('../resources/users/UsersPage'), 'UsersPage');

/** Every signed-in route of spec §2, rendered inside the role's layout and behind the route guard. */
export const dashboardRoutes = (
  <>
    <Route path="/dashboard" element={<DashboardHome />} />
    <Route path="/dashboard/profile" element={lazyPage(() => import('./pages/profile/ProfilePage'), 'ProfilePage')} />
    {/* The ticket route shows one of two views by role (spec §2, contract/roles.ts ticketView). */}
    <Route path="/dashboard/tickets" element={lazyPage(() => import('../resources/tickets'), 'TicketArea')} />
    <Route path="/dashboard/tickets/shared" element={lazyPage(() => import('../resources/tickets'), 'SharedTicketsPage')} />
    <Route path="/dashboard/tickets/:id" element={lazyPage(() => import('../resources/tickets'), 'TicketDetail')} />
    <Route path="/dashboard/usage" element={lazyPage(() => import('../resources/usage/UsagePage'), 'UsagePage')} />
    <Route path="/dashboard/subscriptions" element={lazyPage(() => import('../resources/subscriptions/SubscriptionsPage'), 'SubscriptionsPage')} />
    <Route path="/dashboard/subscription/:id" element={lazyPage(() => import('../resources/subscriptions/SubscriptionDetail'), 'SubscriptionDetail')} />
    <Route path="/subscription/:id" element={lazyPage(() => import('../resources/subscriptions/SubscriptionDetail'), 'SubscriptionDetail')} />
    <Route path="/dashboard/users" element={usersScreen} />
    <Route path="/dashboard/user/:id" element={usersScreen} />
    <Route path="/dashboard/settings" element={lazyPage(() => import('../resources/settings/SettingsPage'), 'SettingsPage')} />
    <Route path="/dashboard/api-tokens" element={lazyPage(() => import('../resources/api-tokens/list'), 'ApiTokenList')} />
    <Route path="/dashboard/api-tokens/create" element={lazyPage(() => import('../resources/api-tokens/create'), 'ApiTokenCreate')} />
    <Route path="/dashboard/backups" element={lazyPage(() => import('../resources/backups/BackupsPage'), 'BackupsPage')} />
    <Route path="/dashboard/audit" element={lazyPage(() => import('../resources/audit/list'), 'AuditList')} />
    <Route path="/dashboard/audit/show/:id" element={lazyPage(() => import('../resources/audit/show'), 'AuditShow')} />
    <Route path="/dashboard/jobs" element={lazyPage(() => import('../resources/jobs/list'), 'JobList')} />
    <Route path="/dashboard/system" element={lazyPage(() => import('../resources/system/SystemPage'), 'SystemPage')} />
    <Route path="/dashboard/contact-messages" element={lazyPage(() => import('../resources/contact-messages/list'), 'ContactMessageList')} />
    <Route path="/dashboard/plans" element={lazyPage(() => import('../resources/plans/list'), 'PlanList')} />
    <Route path="/dashboard/plans/create" element={lazyPage(() => import('../resources/plans/create'), 'PlanCreate')} />
    <Route path="/dashboard/plans/edit/:id" element={lazyPage(() => import('../resources/plans/edit'), 'PlanEdit')} />
    <Route path="/dashboard/plans/show/:id" element={lazyPage(() => import('../resources/plans/show'), 'PlanShow')} />
    {/* Spec §2: /dashboard/payments is not built yet and shows the not-found screen. */}
    <Route path="/dashboard/payments" element={notFoundPage} />
    <Route path="/dashboard/billing/payment-gateways" element={lazyPage(() => import('../resources/gateways/list'), 'GatewayList')} />
    <Route path="/dashboard/billing/payment-gateways/create" element={lazyPage(() => import('../resources/gateways/create'), 'GatewayCreate')} />
    <Route path="/dashboard/billing/payment-gateways/edit/:id" element={lazyPage(() => import('../resources/gateways/edit'), 'GatewayEdit')} />
    <Route path="/dashboard/billing/payment-gateways/show/:id" element={lazyPage(() => import('../resources/gateways/show'), 'GatewayShow')} />
    <Route path="/dashboard/billing/invoices" element={lazyPage(() => import('../resources/invoices/list'), 'InvoiceList')} />
    <Route path="/dashboard/billing/invoices/show/:id" element={lazyPage(() => import('../resources/invoices/show'), 'InvoiceShow')} />
    <Route path="/dashboard/nas/router/devices" element={lazyPage(() => import('../resources/devices/list'), 'DeviceList')} />
    <Route path="/dashboard/nas/router/devices/create" element={lazyPage(() => import('../resources/devices/create'), 'DeviceCreate')} />
    <Route path="/dashboard/nas/router/devices/edit/:id" element={lazyPage(() => import('../resources/devices/edit'), 'DeviceEdit')} />
    <Route path="/dashboard/nas/router/devices/show/:id" element={lazyPage(() => import('../resources/devices/show'), 'DeviceShow')} />
    <Route path="/dashboard/nas/router/usage" element={lazyPage(() => import('../resources/traffic'), 'UsagePage')} />
    <Route path="/dashboard/nas/router/interfaces" element={lazyPage(() => import('../resources/traffic'), 'InterfacesPage')} />
    <Route path="/dashboard/nas/router/config" element={lazyPage(() => import('../resources/device-backups'), 'ConfigPage')} />
    <Route path="/dashboard/nas/router/backup" element={lazyPage(() => import('../resources/device-backups'), 'BackupPage')} />
    <Route path="/dashboard/nas/devices" element={lazyPage(() => import('../resources/devices/list'), 'TechnicianDeviceList')} />
    <Route path="/dashboard/nas/devices/show/:id" element={lazyPage(() => import('../resources/devices/show'), 'TechnicianDeviceShow')} />
    <Route path="/dashboard/installations" element={lazyPage(() => import('../resources/installations/InstallationsPage'), 'InstallationsPage')} />
    <Route path="/dashboard/installation/:id" element={lazyPage(() => import('../resources/installations/InstallationDetail'), 'InstallationDetail')} />
    <Route path="/dashboard/*" element={notFoundPage} />
  </>
);
