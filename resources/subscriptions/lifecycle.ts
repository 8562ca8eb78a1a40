/**
 * What each screen may offer for a subscription, from its status and the caller's role. The server decides
 * (its lifecycle table in server/modules/subscriptions/lifecycle.ts answers 409 to anything else); this mirror
 * only keeps buttons that would certainly be refused off the screen. Who may call what comes from the role
 * matrix (contract/roles.ts ENDPOINT_ACCESS), never from role names written here.
 */
import { canCallEndpoint, type Role } from '../../contract/roles';
import type { SubscriptionStatus } from '../../contract/schemas/subscription';

/** Status changes staff make through PATCH /subscriptions/{id}/status (the server's 'staff' transitions). */
const STAFF_TRANSITIONS: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  pending: ['cancelled'],
  active: ['suspended', 'cancelled'],
  suspended: ['active', 'cancelled'],
  cancelled: [],
  expired: [],
};

export function nextStaffStatuses(from: SubscriptionStatus): readonly SubscriptionStatus[] {
  return STAFF_TRANSITIONS[from] ?? [];
}

export type SubscriptionAction = 'upgrade' | 'renew' | 'cancel';

/**
 * Owner (and staff) actions by status: upgrade only while active; renew while active or suspended (the next
 * period's invoice); cancel while pending, active or suspended. Cancelled and expired subscriptions offer none.
 */
export function actionsFor(status: SubscriptionStatus): SubscriptionAction[] {
  switch (status) {
    case 'active':
      return ['upgrade', 'renew', 'cancel'];
    case 'suspended':
      return ['renew', 'cancel'];
    case 'pending':
      return ['cancel'];
    default:
      return [];
  }
}

/** The role sees the staff list (the full GET /subscriptions), not the customer's own view. */
export function seesStaffView(role: Role | null | undefined): boolean {
  return canCallEndpoint(role, 'GET', '/subscriptions');
}

/** Staff may cancel with effect now; a customer's cancellation always runs to the end of the paid period. */
export function canCancelImmediately(role: Role | null | undefined): boolean {
  return seesStaffView(role);
}
