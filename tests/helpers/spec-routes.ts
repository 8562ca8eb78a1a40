import { ROLES, type Role } from '../../contract/roles';

/**
 * Spec §2's signed-in routes and who may open them, written out independently of contract/roles.ts so the
 * tests check the matrix against the specification (super_admin goes wherever admin goes; technician is kept
 * out of the subscription routes, the restricted reading). Sub-paths such as /dashboard/plans/create and
 * concrete ids stand for what the route covers.
 */
export const SPEC_ROUTES: Record<string, readonly Role[]> = {
  '/dashboard': ROLES,
  '/dashboard/profile': ROLES,
  '/dashboard/tickets': ROLES,
  '/dashboard/tickets/12': ROLES,
  '/dashboard/usage': ROLES,
  '/dashboard/users': ['admin', 'super_admin', 'support'],
  '/dashboard/user/42': ['admin', 'super_admin', 'support'],
  '/dashboard/settings': ['admin', 'super_admin'],
  // Issue 12 (not in spec §2): personal API tokens, for admins.
  '/dashboard/api-tokens': ['admin', 'super_admin'],
  '/dashboard/api-tokens/create': ['admin', 'super_admin'],
  // Issue 13 (not in spec §2): the portal's own kept backups, for admins.
  '/dashboard/backups': ['admin', 'super_admin'],
  // Issue 13 (not in spec §2): the audit trail and one event, for admins.
  '/dashboard/audit': ['admin', 'super_admin'],
  '/dashboard/jobs': ['admin', 'super_admin'],
  // Issue 18 (not in spec §2): the system page, for admins.
  '/dashboard/system': ['admin', 'super_admin'],
  '/dashboard/audit/show/9': ['admin', 'super_admin'],
  '/dashboard/plans': ['admin', 'super_admin', 'billing'],
  '/dashboard/plans/create': ['admin', 'super_admin', 'billing'],
  '/dashboard/payments': ['admin', 'super_admin', 'billing'],
  '/dashboard/billing/payment-gateways': ['admin', 'super_admin', 'billing'],
  // Issue 4 (not in spec §2): the staff invoices screen, for the roles that may list invoices.
  '/dashboard/billing/invoices': ['admin', 'super_admin', 'billing', 'support'],
  '/dashboard/billing/invoices/show/5': ['admin', 'super_admin', 'billing', 'support'],
  // Issue 31 (not in spec §2): the billing team's payments screen, for the roles that may list payments.
  '/dashboard/billing/payments': ['admin', 'super_admin', 'billing', 'support'],
  '/dashboard/subscriptions': ['user', 'admin', 'super_admin', 'billing', 'support'],
  '/dashboard/subscription/7': ['user', 'admin', 'super_admin', 'billing', 'support'],
  '/subscription/7': ['user', 'admin', 'super_admin', 'billing', 'support'],
  '/dashboard/nas/router/devices': ['admin', 'super_admin'],
  '/dashboard/nas/router/usage': ['admin', 'super_admin'],
  '/dashboard/nas/router/interfaces': ['admin', 'super_admin'],
  '/dashboard/nas/router/config': ['admin', 'super_admin'],
  '/dashboard/nas/router/backup': ['admin', 'super_admin'],
  '/dashboard/tickets/shared': ['admin', 'super_admin', 'support', 'technician', 'billing'],
  // Issue 8 over the spec's table: admin and support see and schedule installations too.
  '/dashboard/installations': ['technician', 'admin', 'super_admin', 'support'],
  '/dashboard/installation/3': ['technician', 'admin', 'super_admin', 'support'],
  '/dashboard/nas/devices': ['technician'],
  // Issue 38 (not in spec §2): outages and maintenance windows, for the staff who answer customers and run the network.
  '/dashboard/incidents': ['admin', 'super_admin', 'support', 'technician'],
  '/dashboard/incidents/create': ['admin', 'super_admin', 'support', 'technician'],
  '/dashboard/incidents/show/5': ['admin', 'super_admin', 'support', 'technician'],
};
