import { CustomerSubscriptions } from './CustomerSubscriptions';
import { seesStaffView } from './lifecycle';
import { StaffSubscriptionList } from './StaffSubscriptionList';
import { useRole } from './SubscriptionActions';

/**
 * /dashboard/subscriptions: one route, two views (spec §2 lists it for user, admin, billing and support).
 * Roles the role matrix lets list every subscription (GET /subscriptions) get the staff table; everyone else
 * their own subscriptions.
 */
export function SubscriptionsPage() {
  const role = useRole();
  return seesStaffView(role) ? <StaffSubscriptionList /> : <CustomerSubscriptions />;
}
