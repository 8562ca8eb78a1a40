import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { useAuthState } from '../../../providers/auth-store';
import { loadCustomerHome, loadDashboardHome } from '../../layout/role-screens';

/*
 * Each home in its own chunk, loaded once the signed-in person's role is known: a customer does not download the
 * staff dashboard (its cards, time frames and stats cache), nor staff the customer's home (npm run bench:web).
 */
const CustomerHome = lazy(() => loadCustomerHome().then((m) => ({ default: m.CustomerHome })));
const DashboardHome = lazy(() => loadDashboardHome().then((m) => ({ default: m.DashboardHome })));

/** /dashboard: a customer's home (their service, bill and tickets), the staff's statistics dashboard. */
export function RoleHome() {
  const { user } = useAuthState();
  if (!user) return null;
  return (
    <Suspense fallback={<Spin style={{ display: 'block', margin: '48px auto' }} />}>
      {user.role === 'user' ? <CustomerHome /> : <DashboardHome />}
    </Suspense>
  );
}
