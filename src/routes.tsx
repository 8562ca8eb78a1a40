import { Route } from 'react-router';
import { ticketView } from '../contract/roles';
import { useAuthState } from '../providers/auth-store';
import { ComingSoon } from './components/ComingSoon';
import { NotFound } from './components/NotFound';
import { DashboardHome } from './pages/dashboard/DashboardHome';
import { ProfilePage } from './pages/profile/ProfilePage';
import { ContactMessageList } from '../resources/contact-messages/list';
import { GatewayCreate } from '../resources/gateways/create';
import { GatewayEdit } from '../resources/gateways/edit';
import { GatewayList } from '../resources/gateways/list';
import { GatewayShow } from '../resources/gateways/show';
import { PlanCreate } from '../resources/plans/create';
import { PlanEdit } from '../resources/plans/edit';
import { PlanList } from '../resources/plans/list';
import { PlanShow } from '../resources/plans/show';
import { SettingsPage } from '../resources/settings/SettingsPage';

/** The ticket route shows one of two views by role (spec §2); both are built in the tickets issue. */
function TicketArea() {
  const { user } = useAuthState();
  return <ComingSoon screen={user && ticketView(user.role) === 'shared' ? 'screen.sharedTickets' : 'screen.tickets'} />;
}

const soon = (screen: string) => <ComingSoon screen={screen} />;

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
    <Route path="/dashboard/settings" element={<SettingsPage />} />
    <Route path="/dashboard/contact-messages" element={<ContactMessageList />} />
    <Route path="/dashboard/plans" element={<PlanList />} />
    <Route path="/dashboard/plans/create" element={<PlanCreate />} />
    <Route path="/dashboard/plans/edit/:id" element={<PlanEdit />} />
    <Route path="/dashboard/plans/show/:id" element={<PlanShow />} />
    {/* Spec §2: /dashboard/payments is not built yet and shows the not-found screen. */}
    <Route path="/dashboard/payments" element={<NotFound />} />
    <Route path="/dashboard/billing/payment-gateways" element={<GatewayList />} />
    <Route path="/dashboard/billing/payment-gateways/create" element={<GatewayCreate />} />
    <Route path="/dashboard/billing/payment-gateways/edit/:id" element={<GatewayEdit />} />
    <Route path="/dashboard/billing/payment-gateways/show/:id" element={<GatewayShow />} />
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
