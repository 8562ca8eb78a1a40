import { lazy, Suspense, type ComponentType } from 'react';
import { Spin } from 'antd';
import { Route } from 'react-router';
import { ticketView } from '../contract/roles';
import { useAuthState } from '../providers/auth-store';
import { ComingSoon } from './components/ComingSoon';
import { NotFound } from './components/NotFound';
import { DashboardHome } from './pages/dashboard/DashboardHome';
import { ProfilePage } from './pages/profile/ProfilePage';

/** The ticket route shows one of two views by role (spec §2); both are built in the tickets issue. */
function TicketArea() {
  const { user } = useAuthState();
  return <ComingSoon screen={user && ticketView(user.role) === 'shared' ? 'screen.sharedTickets' : 'screen.tickets'} />;
}

const soon = (screen: string) => <ComingSoon screen={screen} />;

/**
 * Back-office screens load on first use, one chunk per resource, so signing in does not download every
 * screen's code (forms, uploads, schemas) at once.
 */
function lazyPage<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) {
  const Page = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return (
    <Suspense fallback={<Spin style={{ display: 'block', margin: '64px auto' }} />}>
      <Page />
    </Suspense>
  );
}


/** Every signed-in route of spec §2, rendered inside the role's layout and behind the route guard. */
export const dashboardRoutes = (
  <>
    <Route path="/dashboard" element={<DashboardHome />} />
    <Route path="/dashboard/profile" element={<ProfilePage />} />
    <Route path="/dashboard/tickets" element={<TicketArea />} />
    <Route path="/dashboard/tickets/shared" element={soon('screen.sharedTickets')} />
    <Route path="/dashboard/tickets/:id" element={soon('screen.ticket')} />
    <Route path="/dashboard/usage" element={soon('screen.usage')} />
    <Route path="/dashboard/subscriptions" element={soon('screen.subscriptions')} />
    <Route path="/dashboard/subscription/:id" element={soon('screen.subscription')} />
    <Route path="/subscription/:id" element={soon('screen.subscription')} />
    <Route path="/dashboard/users" element={soon('screen.users')} />
    <Route path="/dashboard/user/:id" element={soon('screen.users')} />
    <Route path="/dashboard/settings" element={lazyPage(() => import('../resources/settings/SettingsPage'), 'SettingsPage')} />
    <Route path="/dashboard/contact-messages" element={lazyPage(() => import('../resources/contact-messages/list'), 'ContactMessageList')} />
    <Route path="/dashboard/plans" element={lazyPage(() => import('../resources/plans/list'), 'PlanList')} />
    <Route path="/dashboard/plans/create" element={lazyPage(() => import('../resources/plans/create'), 'PlanCreate')} />
    <Route path="/dashboard/plans/edit/:id" element={lazyPage(() => import('../resources/plans/edit'), 'PlanEdit')} />
    <Route path="/dashboard/plans/show/:id" element={lazyPage(() => import('../resources/plans/show'), 'PlanShow')} />
    {/* Spec §2: /dashboard/payments is not built yet and shows the not-found screen. */}
    <Route path="/dashboard/payments" element={<NotFound />} />
    <Route path="/dashboard/billing/payment-gateways" element={lazyPage(() => import('../resources/gateways/list'), 'GatewayList')} />
    <Route path="/dashboard/billing/payment-gateways/create" element={lazyPage(() => import('../resources/gateways/create'), 'GatewayCreate')} />
    <Route path="/dashboard/billing/payment-gateways/edit/:id" element={lazyPage(() => import('../resources/gateways/edit'), 'GatewayEdit')} />
    <Route path="/dashboard/billing/payment-gateways/show/:id" element={lazyPage(() => import('../resources/gateways/show'), 'GatewayShow')} />
    <Route path="/dashboard/nas/router/devices" element={soon('screen.routerDevices')} />
    <Route path="/dashboard/nas/router/usage" element={soon('screen.routerUsage')} />
    <Route path="/dashboard/nas/router/interfaces" element={soon('screen.routerInterfaces')} />
    <Route path="/dashboard/nas/router/config" element={soon('screen.routerConfig')} />
    <Route path="/dashboard/nas/router/backup" element={soon('screen.routerBackup')} />
    <Route path="/dashboard/nas/devices" element={soon('screen.devices')} />
    <Route path="/dashboard/installations" element={soon('screen.installations')} />
    <Route path="/dashboard/installation/:id" element={soon('screen.installation')} />
    <Route path="/dashboard/*" element={<NotFound />} />
  </>
);
