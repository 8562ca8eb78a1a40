import { lazy, Suspense } from 'react';
import { useAuthState } from '../../providers/auth-store';
import { LoadingScreen } from './LoadingScreen';
import { loadCustomerLayout, loadStaffLayout } from './role-screens';

// Each role downloads only its own layout: the staff back office's themed layout (Refine's sider, header and
// their antd parts) is not part of a customer's portal, nor the customer's top navigation of the back office.
const CustomerLayout = lazy(async () => ({ default: (await loadCustomerLayout()).CustomerLayout }));
const StaffLayout = lazy(async () => ({ default: (await loadStaffLayout()).StaffLayout }));

/** The role decides the layout; the routes stay as the spec names them. */
export function DashboardLayout() {
  const { user } = useAuthState();
  return (
    <Suspense fallback={<LoadingScreen />}>{user?.role === 'user' ? <CustomerLayout /> : <StaffLayout />}</Suspense>
  );
}
