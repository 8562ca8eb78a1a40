/**
 * The role matrix: the single source of truth for who may open which screen (spec §2, §6), who may call
 * which API endpoint, and which dashboard statistics each role is sent. Imported by the server's route
 * guards and by the front end's accessControlProvider. Dependency-free on purpose: roles and audiences live in
 * audience.ts, the resources' entries in resource-access.ts, and this file re-exports both.
 */
import {
  ADMIN_BILLING,
  ADMIN_SUPPORT,
  STAFF_ROLES,
  SUBSCRIPTION_ROLES,
  allows,
  type Audience,
  type Role,
} from './audience';
import { actionEndpoint, derivedAccess, resourceAccess } from './resource-access';

export * from './audience';
export * from './resource-access';

// ---------------------------------------------------------------------------------------------------------
// Screens (spec §2). A pattern matches its path and everything below it ("/dashboard/plans" covers
// "/dashboard/plans/create"); the most specific (longest) matching pattern decides.

/**
 * Screens and endpoints that are not a declared resource's (below): the public site, and paths outside a
 * resource's own base path (a user's page is /dashboard/user/:id, not /dashboard/users/show/:id).
 */
export const ROUTE_ACCESS: ReadonlyArray<{ pattern: string; audience: Audience }> = [
  { pattern: '/', audience: 'public' },
  { pattern: '/login', audience: 'public' },
  { pattern: '/register', audience: 'public' },
  { pattern: '/verify-email', audience: 'public' },
  { pattern: '/confirm-email', audience: 'public' },
  { pattern: '/verification-success', audience: 'public' },
  { pattern: '/password-reset', audience: 'public' },
  { pattern: '/about', audience: 'public' },
  { pattern: '/contact', audience: 'public' },
  { pattern: '/plans', audience: 'public' },
  // The service status (issue 38): current outages and maintenance by area.
  { pattern: '/status', audience: 'public' },
  { pattern: '/invoice', audience: 'public' },
  { pattern: '/privacy-policy', audience: 'public' },
  { pattern: '/terms-condition', audience: 'public' },
  { pattern: '/refund-policy', audience: 'public' },

  // The spec lists the subscription routes both as open to all and as limited; the restricted reading is the
  // more specific one, so technician (the only role affected) does not reach them.
  { pattern: '/dashboard/subscription', audience: SUBSCRIPTION_ROLES },
  { pattern: '/subscription', audience: SUBSCRIPTION_ROLES },
  { pattern: '/dashboard/user', audience: ADMIN_SUPPORT },
  { pattern: '/dashboard/payments', audience: ADMIN_BILLING },
  { pattern: '/dashboard/nas/router', audience: ['admin'] },
  // Support reads the networks; adding and changing them is for those who may POST and PUT /ipam/networks.
  { pattern: '/dashboard/nas/ip-networks/create', audience: ['admin', 'technician'] },
  { pattern: '/dashboard/nas/ip-networks/edit', audience: ['admin', 'technician'] },
  { pattern: '/dashboard/installation', audience: ['technician', 'admin', 'support'] },
];
/** Every screen pattern: ROUTE_ACCESS and those derived from the resources. */
export function routeAccessEntries(): ReadonlyArray<{ pattern: string; audience: Audience }> {
  return [...ROUTE_ACCESS, ...derivedAccess().routes];
}

function normalisePath(pathname: string): string {
  const p = pathname.split(/[?#]/)[0].replace(/\/+$/, '');
  return p === '' ? '/' : p;
}

/** The audience of a screen path, or null when the path is not a known screen (the not-found screen). */
export function routeAudience(pathname: string): Audience | null {
  const path = normalisePath(pathname);
  let best: { pattern: string; audience: Audience } | null = null;
  for (const entry of routeAccessEntries()) {
    const matches =
      entry.pattern === '/' ? path === '/' : path === entry.pattern || path.startsWith(`${entry.pattern}/`);
    if (matches && (!best || entry.pattern.length > best.pattern.length)) best = entry;
  }
  return best ? best.audience : null;
}

/** May a user with this role (null: signed out) open this screen? Unknown paths are open (they show not-found). */
export function canAccessRoute(role: Role | null | undefined, pathname: string): boolean {
  const a = routeAudience(pathname);
  return a === null ? true : allows(a, role);
}

/** Ticket area (spec §2): admin and support get the first view, technician and billing the second. */
export function ticketView(role: Role): 'manage' | 'shared' {
  return role === 'technician' || role === 'billing' ? 'shared' : 'manage';
}

// ---------------------------------------------------------------------------------------------------------
// API endpoints: "METHOD /path" as the route is registered under /api (Fastify's pattern syntax). The server
// refuses to start when an /api route has no entry here, so no endpoint can be left unguarded by accident.

export const ENDPOINT_ACCESS = {
  'GET /health': 'public',
  'GET /health/live': 'public',
  'GET /health/ready': 'public',
  // The API's reference: the OpenAPI document and the interactive page with its files (server/plugins/openapi.ts).
  'GET /openapi.json': 'public',
  'GET /docs': 'public',
  'GET /docs/json': 'public',
  'GET /docs/yaml': 'public',
  'GET /docs/static/index.html': 'public',
  'GET /docs/static/swagger-initializer.js': 'public',
  'GET /docs/static/*': 'public',

  'POST /auth/login': 'public',
  'POST /auth/register': 'public',
  'POST /auth/logout': 'public',
  'POST /auth/refresh-token': 'public',
  'GET /auth/verify-email': 'public',
  'POST /auth/confirm-email': 'public',
  'POST /auth/resend-verification': 'public',
  'POST /auth/forgot-password': 'public',
  'POST /auth/reset-password': 'public',
  'GET /auth/profile': 'authenticated',
  'PUT /auth/profile': 'authenticated',
  'POST /auth/change-password': 'authenticated',

  // The audit trail (admin only; read-only: no endpoint changes or deletes an event).
  'GET /audit': ['admin'],
  'GET /audit/:id': ['admin'],
  // The background jobs (issue 14): their state, tries and failures, read-only, admin only.
  'GET /jobs': ['admin'],
  // The system page (issue 18): version, nodes, database, jobs, mail, RADIUS, billing and backups at a glance.
  'GET /system': ['admin'],
  // What every back-office page warns about (the sandbox-payments banner), for every staff role.
  'GET /system/notices': STAFF_ROLES,

  // The backups the portal keeps in DATA_DIR/backups: list, take one now, download (admin only).
  'GET /backups': ['admin'],
  'POST /backups': ['admin'],
  'GET /backups/:name/download': ['admin'],

  // Mail that could not be delivered (no SMTP configured) stays readable to the admin here.
  'GET /mail/outbox': ['admin'],

  // Personal API tokens for integrations (issue 12): admins (super_admin too) who signed in as themselves; a
  // request made with an API token is refused here whatever its role (server/plugins/auth.ts NOT_FOR_API_TOKENS).
  'GET /api-tokens': ['admin'],
  'POST /api-tokens': ['admin'],
  'DELETE /api-tokens/:id': ['admin'],

  // Prepaid vouchers (issue 22): admin and billing manage batches; customers redeem a code.
  'POST /vouchers/batches': ADMIN_BILLING,
  'GET /vouchers/batches': ADMIN_BILLING,
  'GET /vouchers/batches/:id': ADMIN_BILLING,
  'GET /vouchers/batches/:id/vouchers': ADMIN_BILLING,
  'GET /vouchers/batches/:id/codes.csv': ADMIN_BILLING,
  'GET /vouchers/batches/:id/cards.pdf': ADMIN_BILLING,
  'POST /vouchers/batches/:id/revoke': ADMIN_BILLING,
  'POST /vouchers/:id/revoke': ADMIN_BILLING,
  'POST /vouchers/redeem': ['user'],

  // Bulk messages (issue 38): admin and support (who talk to customers) count a segment, send, follow and cancel.
  'GET /bulk-messages': ADMIN_SUPPORT,
  'GET /bulk-messages/:id': ADMIN_SUPPORT,
  'GET /bulk-messages/:id/messages': ADMIN_SUPPORT,
  'GET /bulk-messages/preview': ADMIN_SUPPORT,
  'GET /bulk-messages/segments': ADMIN_SUPPORT,
  'POST /bulk-messages': ADMIN_SUPPORT,
  'POST /bulk-messages/:id/cancel': ADMIN_SUPPORT,

  // Subscriptions: customers subscribe for themselves, admin/billing/support for anyone (checked in the
  // service); detail for the owner or those staff (others get 404); the list is staff only.
  'POST /subscriptions': SUBSCRIPTION_ROLES,
  'GET /subscriptions': ['admin', 'billing', 'support'],
  'GET /subscriptions/active-plan': 'authenticated',
  'GET /subscriptions/:id': SUBSCRIPTION_ROLES,
  // Lifecycle: staff change the status; owner or staff (checked in the service, others 404) cancel, renew,
  // upgrade; only admin deletes. Orders: the caller's own.
  'GET /subscriptions/orders': 'authenticated',
  'PATCH /subscriptions/:id/status': ['admin', 'billing', 'support'],
  'POST /subscriptions/:id/cancel': SUBSCRIPTION_ROLES,
  'PATCH /subscriptions/:id/renew': SUBSCRIPTION_ROLES,
  'PATCH /subscriptions/:id/upgrade': SUBSCRIPTION_ROLES,
  'DELETE /subscriptions/:id': ['admin'],

  // Invoices: staff list; everybody their own; one invoice is public through its unguessable uuid (the
  // public /invoice/{id} page: invoice, customer name, plan name only); admin/billing delete unpaid ones.
  'GET /payments/invoices': ['admin', 'billing', 'support'],
  'GET /payments/user/invoices': 'authenticated',
  'GET /payments/invoices/:id': 'public',
  // The invoice PDF: reached like the public page, by the unguessable uuid (e-mail only for owner and staff).
  'GET /payments/invoices/:id/pdf': 'public',
  'DELETE /payments/invoices/:id': ['admin', 'billing'],

  // Payments: a customer pays their own invoice (staff admin/billing any) and reads their payments; the
  // provider webhooks and the sandbox's hosted checkout are public (signature / unguessable transaction id).
  'POST /payments/initiate': 'authenticated',
  'GET /payments/status/:id': 'authenticated',
  'POST /payments/webhooks/:provider': 'public',
  'GET /payments/sandbox/checkout/:transactionId': 'public',
  'POST /payments/sandbox/checkout/:transactionId/approve': 'public',
  'POST /payments/sandbox/checkout/:transactionId/decline': 'public',
  'POST /payments/invoices/:id/manual': ['admin', 'billing'],
  'POST /payments/:id/refund': ['admin', 'billing'],
  'GET /payments/invoices/:id/payments': ['admin', 'billing', 'support'],
  // The billing team's payments screen (issue 31): every payment, paged and filtered; support reads it too.
  'GET /payments': ['admin', 'billing', 'support'],

  // Autopay (issue 21): everybody their own saved cards (admin/billing anyone's, ?user_id=); the owner or
  // admin/billing remove a card or turn a subscription's autopay on/off (checked in the service, others 404);
  // only the owner saves a card (set-up); the sandbox's set-up page is public (unguessable set-up id).
  'GET /payments/methods': 'authenticated',
  'DELETE /payments/methods/:id': 'authenticated',
  'GET /subscriptions/:id/autopay': SUBSCRIPTION_ROLES,
  'PATCH /subscriptions/:id/autopay': SUBSCRIPTION_ROLES,
  'POST /subscriptions/:id/autopay/setup': ['user'],
  'GET /payments/sandbox/setup/:transactionId': 'public',
  'POST /payments/sandbox/setup/:transactionId/:choice': 'public',
  // The customer credit ledger (issue 21): a customer reads their own; staff who read invoices read anyone's;
  // admin and billing add or take credit (with a reason, audited).
  'GET /credit': 'authenticated',
  'GET /users/:id/credit': ['admin', 'billing', 'support'],
  'POST /users/:id/credit': ['admin', 'billing'],

  // The recurring billing job: admin runs it now (once a day at most; a second run answers alreadyRan);
  // admin and billing read the past runs.
  'POST /billing/run': ['admin'],
  'GET /billing/runs': ['admin', 'billing'],
  // Reconciliation (issue 31): the period's money by method and gateway, credit, refunds, and the customers whose
  // books do not balance; as JSON and as CSV.
  'GET /billing/reconciliation': ['admin', 'billing'],
  'GET /billing/reconciliation/export.csv': ['admin', 'billing'],

  // Tickets: any signed-in user opens tickets and works on those they may see (creator, assignee, or staff
  // whose ticket view covers it: admin/support all, technician technical+installation, billing billing; the
  // service answers 404 for the others). Only admin deletes; admin and support assign.
  'GET /tickets': 'authenticated',
  'GET /tickets/assigned': ['admin', 'support', 'technician', 'billing'],
  'GET /tickets/stats': 'authenticated',
  'GET /tickets/:id': 'authenticated',
  'POST /tickets': 'authenticated',
  'PUT /tickets/:id': 'authenticated',
  'DELETE /tickets/:id': ['admin'],
  'GET /tickets/:id/replies': 'authenticated',
  'POST /tickets/:id/replies': 'authenticated',
  'PATCH /tickets/:id/status': 'authenticated',
  'PATCH /tickets/:id/assign': ['admin', 'support'],
  'GET /tickets/:id/attachments': 'authenticated',
  'POST /tickets/:id/attachments': 'authenticated',
  'GET /tickets/:id/attachments/:attachmentId/download': 'authenticated',

  // Users (issue 6): admin and support (super_admin everything); the service decides whom: support views
  // everybody, creates customers and changes customers' status; admin manages everybody but admins; only
  // super_admin manages admins. Only admin deletes and resets passwords.
  'GET /users': ['admin', 'support'],
  'GET /users/companies': ['admin', 'support'],
  'GET /users/export.csv': ['admin', 'support'],
  'GET /users/:id': ['admin', 'support'],
  'POST /users': ['admin', 'support'],
  'PUT /users/:id': ['admin', 'support'],
  'DELETE /users/:id': ['admin'],
  'PATCH /users/:id/status': ['admin', 'support'],
  'PATCH /users/:id/password': ['admin'],

  // Dashboard statistics (issue 6): every signed-in user; the service sends only the groups statGroupsFor(role)
  // allows, and tickets within the caller's ticket scope (a customer's own).
  'GET /dashboard/stats': 'authenticated',

  // Network devices (issue 7): admin (and super_admin) manage them; technicians read the list and detail,
  // which the service sends without any secret or configuration field.
  'GET /devices': ['admin', 'technician'],
  'GET /devices/:id': ['admin', 'technician'],
  'POST /devices': ['admin'],
  'PUT /devices/:id': ['admin'],
  'DELETE /devices/:id': ['admin'],
  'POST /devices/test-connection': ['admin'],
  'POST /devices/:id/test-connection': ['admin'],

  // Configuration and backups of network devices (issue 7): admin only. The running configuration and every
  // stored version are shown with secrets masked; the download carries a version as stored.
  'GET /devices/:id/config': ['admin'],
  'POST /devices/:id/backups': ['admin'],
  'GET /devices/:id/backups': ['admin'],
  'GET /devices/:id/backups/diff': ['admin'],
  'GET /devices/:id/backups/:backupId': ['admin'],
  'GET /devices/:id/backups/:backupId/download': ['admin'],
  'GET /devices/:id/backup-jobs': ['admin'],
  'GET /device-jobs/:jobId': ['admin'],

  // Installations (issue 8): admin and support see, create, schedule and assign every job; a technician sees
  // the jobs assigned to them and works on them (the service answers 404 for others' jobs and 403 for the
  // fields only staff change). Customers see their job's progress through their subscription's credentials.
  'GET /installations': ['admin', 'support', 'technician'],
  'GET /installations/:id': ['admin', 'support', 'technician'],
  'POST /installations': ['admin', 'support'],
  'PUT /installations/:id': ['admin', 'support', 'technician'],
  'PATCH /installations/:id': ['admin', 'support', 'technician'],
  'PATCH /installations/:id/status': ['admin', 'support', 'technician'],
  'PATCH /installations/:id/assign': ['admin', 'support'],
  'GET /installations/:id/photos': ['admin', 'support', 'technician'],
  'POST /installations/:id/photos': ['admin', 'support', 'technician'],
  'GET /installations/:id/photos/:photoId/download': ['admin', 'support', 'technician'],
  // A subscription's PPPoE login and installation progress: the owner (checked in the service, others 404)
  // and the staff who help customers connect.
  'GET /subscriptions/:id/credentials': ['user', 'admin', 'support', 'technician'],
  // Data usage from RADIUS accounting: everybody their own; admin, support and technicians anyone's (?user_id=).
  'GET /usage': 'authenticated',
  // The customer's home (issue 34): their order, service, usage, bill, credit and tickets in one answer. Customers
  // only: staff land on their dashboard, and a staff account's own "service" means nothing.
  'GET /me/home': ['user'],
  // Outages (issue 38): the public status page's answer (no personal data); staff resolve an incident early.
  'GET /status': 'public',
  'POST /incidents/:id/resolve': ['admin', 'support', 'technician'],
  // Fair-use top-ups (issue 36): customers see the packages on sale and buy one for their own subscription.
  'GET /me/top-up-packages': ['user'],
  'POST /me/subscriptions/:id/top-ups': ['user'],
  // Staff's overview (issue 34): every customer's usage this month, the heaviest first; the staff who read anyone's.
  'GET /usage/customers': ['admin', 'support', 'technician'],

  'POST /contact': 'public',

  'GET /settings/public': 'public',
  'GET /settings/policies/:type': 'public',
  'GET /settings/logo': 'public',
  'GET /settings': ['admin'],
  'PUT /settings': ['admin'],
  'POST /settings/logo': ['admin'],
  'POST /settings/test-email': ['admin'],

  // Interfaces and traffic of network devices (issue 7): admin; the technician's read-only device view shows
  // interfaces with their live status. Polling on demand is admin only.
  'GET /devices/:id/interfaces': ['admin', 'technician'],
  'GET /devices/:id/interfaces/:interfaceId/traffic': ['admin'],
  'POST /devices/:id/poll': ['admin'],

  // IP address management (issue 22): admin and technicians manage networks and subscriptions' addresses;
  // support reads them and the address history (abuse reports come to support).
  'GET /ipam/networks': ['admin', 'technician', 'support'],
  'GET /ipam/networks/:id': ['admin', 'technician', 'support'],
  'GET /ipam/networks/:id/addresses': ['admin', 'technician', 'support'],
  'POST /ipam/networks': ['admin', 'technician'],
  'PUT /ipam/networks/:id': ['admin', 'technician'],
  'DELETE /ipam/networks/:id': ['admin', 'technician'],
  'GET /ipam/history': ['admin', 'technician', 'support'],
  // Customers read their own subscriptions' addressing (the server checks ownership).
  'GET /subscriptions/:id/address': ['admin', 'technician', 'support', 'user'],
  'PUT /subscriptions/:id/address': ['admin', 'technician'],
  'DELETE /subscriptions/:id/address': ['admin', 'technician'],
  // The LibreQoS shaper export (issue 36): the subscribers' addresses and plan rates, for those who run the network.
  'GET /exports/libreqos/shaped-devices.csv': ['admin', 'technician'],
  'GET /exports/libreqos/network.json': ['admin', 'technician'],
  // Messages (issue 38): customers choose their channels per category and prove their phone number; staff who
  // answer customers read the message log; the providers' callbacks are public and signed (checked by the server).
  'GET /me/message-preferences': ['user'],
  'PUT /me/message-preferences': ['user'],
  'POST /me/phone-verification': ['user'],
  'POST /me/phone-verification/confirm': ['user'],
  'GET /messaging/messages': ['admin', 'support', 'billing'],
  'POST /messaging/providers/:id/test': ['admin'],
  'POST /messaging/callbacks/twilio/:providerId': 'public',
  'POST /messaging/callbacks/twilio/:providerId/inbound': 'public',
  'GET /messaging/callbacks/whatsapp/:providerId': 'public',
  'POST /messaging/callbacks/whatsapp/:providerId': 'public',
  'POST /messaging/callbacks/webhook/:providerId': 'public',
} as const satisfies Record<string, Audience>;

/**
 * Every endpoint: ENDPOINT_ACCESS and those derived from the resources' entries (the CRUD endpoints of plans,
 * payment gateways, contact messages and any resource added since).
 */
export function endpointAccessEntries(): Readonly<Record<string, Audience>> {
  return { ...(ENDPOINT_ACCESS as Record<string, Audience>), ...derivedAccess().endpoints };
}

export function endpointAudience(method: string, path: string): Audience | undefined {
  const key = `${method.toUpperCase()} ${path}`;
  return (ENDPOINT_ACCESS as Record<string, Audience>)[key] ?? derivedAccess().endpoints[key];
}

export function canCallEndpoint(role: Role | null | undefined, method: string, path: string): boolean {
  const a = endpointAudience(method, path);
  return a !== undefined && allows(a, role);
}

/**
 * Who may do an action on a resource (the matrix entry's name): who may call the endpoint the action calls
 * (resource-access.ts actionEndpoint). Undefined when the entry names no endpoint for the action, or names one
 * this matrix does not list.
 */
export function actionAudience(resource: string, action: string): Audience | undefined {
  const entry = resourceAccess(resource);
  const endpoint = entry ? actionEndpoint(entry, action) : undefined;
  if (!endpoint) return undefined;
  const space = endpoint.indexOf(' ');
  return endpointAudience(endpoint.slice(0, space), endpoint.slice(space + 1));
}

// ---------------------------------------------------------------------------------------------------------
// Dashboard statistics by role (spec §6): the server sends only these groups.

export const STAT_GROUPS = [
  'users',
  'subscriptions',
  'revenue',
  'tickets',
  'bandwidth',
  'networkDevices',
  'activeConnections',
] as const;
export type StatGroup = (typeof STAT_GROUPS)[number];

export function statGroupsFor(role: Role): readonly StatGroup[] {
  switch (role) {
    case 'admin':
    case 'super_admin':
      return STAT_GROUPS;
    case 'technician':
      return ['bandwidth', 'tickets', 'networkDevices', 'activeConnections'];
    case 'billing':
      return ['bandwidth', 'tickets', 'revenue', 'subscriptions'];
    default:
      return ['bandwidth', 'tickets'];
  }
}
