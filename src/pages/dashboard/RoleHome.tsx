import { useAuthState } from '../../../providers/auth-store';
import { CustomerHome } from './CustomerHome';
import { DashboardHome } from './DashboardHome';

/** /dashboard: a customer's home (their service, bill and tickets), the staff's statistics dashboard. */
export function RoleHome() {
  const { user } = useAuthState();
  if (!user) return null;
  return user.role === 'user' ? <CustomerHome /> : <DashboardHome />;
}
