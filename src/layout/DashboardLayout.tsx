import { useAuthState } from '../../providers/auth-store';
import { CustomerLayout } from './CustomerLayout';
import { StaffLayout } from './StaffLayout';

/** The role decides the layout; the routes stay as the spec names them. */
export function DashboardLayout() {
  const { user } = useAuthState();
  return user?.role === 'user' ? <CustomerLayout /> : <StaffLayout />;
}
