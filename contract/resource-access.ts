/**
 * The resources' part of the role matrix (contract/roles.ts re-exports it): each resource's screens and, for a
 * crudModule resource, its five endpoints. Dependency-free on purpose.
 */
import { ADMIN_BILLING, ADMIN_SUPPORT, SUBSCRIPTION_ROLES, type Audience } from './audience';

// Resources (issue 20): one entry per resource of the signed-in area, named by its declaration
// (resources/<name>/resource.ts, `access`, default its name). An entry gives the screens' base path and who
// opens them; for a resource whose API the server's crudModule serves (server/crud), also the API's base path
// and who may call each of its five endpoints. Screen routes and endpoint entries are derived from it:
//
//   route              → screen (default: list)       GET    api      → list
//   route/show/:id     → show (a role list) or screen  GET    api/:id  → show
//   route/create       → create (a role list) or screen POST  api      → create
//   route/edit/:id     → update (a role list) or screen PUT   api/:id  → update (PATCH with updateMethod)
//                                                      DELETE api/:id  → delete
// An operation left out has neither its endpoint nor its screen (its route falls back to nobody).
//
// Who may do an action on a resource (the portal's buttons, issue 35) is who may call the endpoint the action
// calls: for a crudModule resource the five above (Refine's `edit` is update, `clone` is create); for any
// resource, `actions` names more (a resource whose API is its own module, and custom actions such as
// "record-payment"). An action with no endpoint here is offered to nobody but for the pages (list, show,
// create, edit), which their screen routes decide.

export interface ResourceAccess {
  /** The list screen's path; the resource's other screens are below it. */
  route: string;
  /** Who opens the resource's screens and sees its menu item (default: list). */
  screen?: Audience;
  /** The API's base path under /api when the server's crudModule serves the resource. */
  api?: string;
  list?: Audience;
  show?: Audience;
  create?: Audience;
  update?: Audience;
  /** The update endpoint's method (default PUT). */
  updateMethod?: 'PUT' | 'PATCH';
  delete?: Audience;
  /**
   * More actions and the endpoint each calls, "METHOD /path" as in contract/roles.ts ENDPOINT_ACCESS: the
   * write actions of a resource served by its own module (create, edit, delete) and custom actions.
   */
  actions?: Readonly<Record<string, string>>;
}

const SHIPPED_RESOURCES = {
  dashboard: { route: '/dashboard', screen: 'authenticated' },
  subscriptions: {
    route: '/dashboard/subscriptions',
    screen: SUBSCRIPTION_ROLES,
    actions: {
      // A customer's order of a plan (staff order for a customer the same way).
      create: 'POST /subscriptions',
      upgrade: 'PATCH /subscriptions/:id/upgrade',
      renew: 'PATCH /subscriptions/:id/renew',
      cancel: 'POST /subscriptions/:id/cancel',
      // Suspend and resume are status changes.
      'change-status': 'PATCH /subscriptions/:id/status',
      delete: 'DELETE /subscriptions/:id',
    },
  },
  usage: { route: '/dashboard/usage', screen: 'authenticated' },
  tickets: {
    route: '/dashboard/tickets',
    screen: 'authenticated',
    actions: {
      // Every signed-in role opens tickets and edits its own (the service checks whose it is).
      create: 'POST /tickets',
      edit: 'PUT /tickets/:id',
      assign: 'PATCH /tickets/:id/assign',
      'change-status': 'PATCH /tickets/:id/status',
      reply: 'POST /tickets/:id/replies',
      delete: 'DELETE /tickets/:id',
    },
  },
  'tickets-shared': { route: '/dashboard/tickets/shared', screen: ['admin', 'support', 'technician', 'billing'] },
  users: {
    route: '/dashboard/users',
    screen: ADMIN_SUPPORT,
    // A role change is an edit (PUT /users/:id with a role); which roles one may give is contract/rules on top.
    actions: {
      create: 'POST /users',
      edit: 'PUT /users/:id',
      'change-role': 'PUT /users/:id',
      'change-status': 'PATCH /users/:id/status',
      'reset-password': 'PATCH /users/:id/password',
      delete: 'DELETE /users/:id',
      'view-credit': 'GET /users/:id/credit',
      'adjust-credit': 'POST /users/:id/credit',
    },
  },
  // Messages from the public contact form (POST /contact, not part of this resource): admin and support read them
  // and mark them handled.
  'contact-messages': {
    route: '/dashboard/contact-messages',
    screen: ADMIN_SUPPORT,
    api: '/contact-messages',
    list: ADMIN_SUPPORT,
    update: ADMIN_SUPPORT,
    updateMethod: 'PATCH',
  },
  // Plans: the catalogue is public (staff, recognised by an optional token, also see inactive plans).
  plans: {
    route: '/dashboard/plans',
    screen: ADMIN_BILLING,
    api: '/plans',
    list: 'public',
    show: 'public',
    create: ADMIN_BILLING,
    update: ADMIN_BILLING,
    delete: ADMIN_BILLING,
  },
  // Fair-use top-up packages (issue 36): admin and billing manage them; signed-in customers list the active ones.
  'top-up-packages': {
    route: '/dashboard/billing/top-up-packages',
    screen: ADMIN_BILLING,
    api: '/top-up-packages',
    list: 'authenticated',
    show: 'authenticated',
    create: ADMIN_BILLING,
    update: ADMIN_BILLING,
    delete: ADMIN_BILLING,
  },
  // Payment gateways: any signed-in user lists the active ones (no credentials) to choose how to pay; admin and
  // billing manage them and see every gateway with masked credentials.
  'payment-gateways': {
    route: '/dashboard/billing/payment-gateways',
    screen: ADMIN_BILLING,
    api: '/payments/gateways',
    list: 'authenticated',
    show: ADMIN_BILLING,
    create: ADMIN_BILLING,
    update: ADMIN_BILLING,
    delete: ADMIN_BILLING,
  },
  // SMS / WhatsApp providers (issue 38): admin only (secrets, costs). A test message is sent through one.
  'message-providers': {
    route: '/dashboard/settings/message-providers',
    screen: ['admin'],
    api: '/messaging/providers',
    list: ['admin'],
    show: ['admin'],
    create: ['admin'],
    update: ['admin'],
    delete: ['admin'],
    actions: { 'send-test': 'POST /messaging/providers/:id/test' },
  },
  // The messages sent to customers on every channel (issue 38), read-only: the staff who answer customers.
  messages: {
    route: '/dashboard/messages',
    screen: ['admin', 'support', 'billing'],
    actions: { 'view-log': 'GET /messaging/messages' },
  },
  invoices: {
    route: '/dashboard/billing/invoices',
    screen: ['admin', 'billing', 'support'],
    actions: {
      delete: 'DELETE /payments/invoices/:id',
      'record-payment': 'POST /payments/invoices/:id/manual',
      refund: 'POST /payments/:id/refund',
    },
  },
  // Every payment for the billing team (issue 31): the same audience as GET /payments (support reads it).
  payments: { route: '/dashboard/billing/payments', screen: ['admin', 'billing', 'support'] },
  // Reconciliation (issue 31): the same audience as GET /billing/reconciliation.
  reconciliation: { route: '/dashboard/billing/reconciliation', screen: ADMIN_BILLING },
  'router-devices': {
    route: '/dashboard/nas/router/devices',
    screen: ['admin'],
    actions: {
      create: 'POST /devices',
      edit: 'PUT /devices/:id',
      delete: 'DELETE /devices/:id',
      'test-connection': 'POST /devices/:id/test-connection',
    },
  },
  'router-usage': { route: '/dashboard/nas/router/usage', screen: ['admin'] },
  'router-interfaces': { route: '/dashboard/nas/router/interfaces', screen: ['admin'] },
  'router-config': { route: '/dashboard/nas/router/config', screen: ['admin'] },
  'router-backup': { route: '/dashboard/nas/router/backup', screen: ['admin'] },
  // The technician's read-only view of the same devices: the writes are the admin's (router-devices).
  devices: {
    route: '/dashboard/nas/devices',
    screen: ['technician'],
    actions: { create: 'POST /devices', edit: 'PUT /devices/:id', delete: 'DELETE /devices/:id' },
  },
  // Outages and maintenance windows (issue 38): the poller opens outages; the staff who answer customers and work
  // on the network (admin, support, technician) read them, post maintenance windows and notices, and resolve them.
  incidents: {
    route: '/dashboard/incidents',
    screen: ['admin', 'support', 'technician'],
    api: '/incidents',
    list: ['admin', 'support', 'technician'],
    show: ['admin', 'support', 'technician'],
    create: ['admin', 'support', 'technician'],
    update: ['admin', 'support', 'technician'],
    actions: { resolve: 'POST /incidents/:id/resolve' },
  },
  // The spec gives installations to technician alone; issue 8 lets admin and support see and schedule them too.
  installations: { route: '/dashboard/installations', screen: ['technician', 'admin', 'support'] },
  'api-tokens': {
    route: '/dashboard/api-tokens',
    screen: ['admin'],
    actions: { create: 'POST /api-tokens', revoke: 'DELETE /api-tokens/:id' },
  },
  backups: { route: '/dashboard/backups', screen: ['admin'] },
  // The audit trail (issue 13): read-only, the same audience as GET /audit.
  audit: { route: '/dashboard/audit', screen: ['admin'] },
  // IP address management (issue 22): the same audiences as GET /ipam/networks and GET /ipam/history.
  'ip-networks': {
    route: '/dashboard/nas/ip-networks',
    screen: ['admin', 'technician', 'support'],
    actions: { create: 'POST /ipam/networks', edit: 'PUT /ipam/networks/:id', delete: 'DELETE /ipam/networks/:id' },
  },
  'ip-history': { route: '/dashboard/nas/ip-history', screen: ['admin', 'technician', 'support'] },
  // Prepaid voucher batches (issue 22): the same audience as GET /vouchers/batches.
  vouchers: {
    route: '/dashboard/billing/vouchers',
    screen: ADMIN_BILLING,
    actions: {
      create: 'POST /vouchers/batches',
      'revoke-batch': 'POST /vouchers/batches/:id/revoke',
      revoke: 'POST /vouchers/:id/revoke',
      'export-codes': 'GET /vouchers/batches/:id/codes.csv',
      'print-cards': 'GET /vouchers/batches/:id/cards.pdf',
    },
  },
  // Bulk messages (issue 38): the same audience as GET /bulk-messages.
  'bulk-messages': {
    route: '/dashboard/bulk-messages',
    screen: ADMIN_SUPPORT,
    actions: { create: 'POST /bulk-messages', cancel: 'POST /bulk-messages/:id/cancel' },
  },
  // Background jobs (issue 14): the same audience as GET /jobs.
  jobs: { route: '/dashboard/jobs', screen: ['admin'] },
  // The system page (issue 18): the same audience as GET /system.
  system: { route: '/dashboard/system', screen: ['admin'] },
  settings: { route: '/dashboard/settings', screen: ['admin'] },
  profile: { route: '/dashboard/profile', screen: 'authenticated' },
} as const satisfies Record<string, ResourceAccess>;

const resourceAccessByName = new Map<string, ResourceAccess>(Object.entries(SHIPPED_RESOURCES));
let derived: { routes: { pattern: string; audience: Audience }[]; endpoints: Record<string, Audience> } | null = null;

/** Every resource's entry, by name. */
export function resourceAccessEntries(): ReadonlyMap<string, ResourceAccess> {
  return resourceAccessByName;
}

/** The matrix entry a declaration names, or undefined. */
export function resourceAccess(name: string): ResourceAccess | undefined {
  return resourceAccessByName.get(name);
}

/**
 * Adds an entry at run time (a plugin's resource, or a test's fixture resource that is never shipped); returns
 * the function that removes it again. Refuses a name or a route already taken.
 */
export function registerResourceAccess(name: string, entry: ResourceAccess): () => void {
  if (resourceAccessByName.has(name)) throw new Error(`The role matrix already has a resource named "${name}".`);
  for (const [other, e] of resourceAccessByName) {
    if (e.route === entry.route) throw new Error(`The route ${entry.route} is already resource "${other}"'s.`);
  }
  resourceAccessByName.set(name, entry);
  derived = null;
  return () => {
    if (resourceAccessByName.get(name) === entry) resourceAccessByName.delete(name);
    derived = null;
  };
}

const REFINE_TO_OPERATION: Record<string, 'list' | 'show' | 'create' | 'update' | 'delete'> = {
  list: 'list',
  show: 'show',
  create: 'create',
  clone: 'create',
  edit: 'update',
  delete: 'delete',
};

/**
 * The endpoint ("METHOD /path") a resource's action calls, or undefined when the entry names none: the entry's
 * `actions`, else for a crudModule resource the endpoint of the operation (edit → update, clone → create).
 */
export function actionEndpoint(entry: ResourceAccess, action: string): string | undefined {
  const own = entry.actions?.[action] ?? (action === 'clone' ? entry.actions?.create : undefined);
  if (own) return own;
  const op = REFINE_TO_OPERATION[action];
  if (!entry.api || !op || entry[op] === undefined) return undefined;
  const one = `${entry.api}/:id`;
  switch (op) {
    case 'list':
      return `GET ${entry.api}`;
    case 'show':
      return `GET ${one}`;
    case 'create':
      return `POST ${entry.api}`;
    case 'update':
      return `${entry.updateMethod ?? 'PUT'} ${one}`;
    case 'delete':
      return `DELETE ${one}`;
  }
}

/** The screen patterns and endpoint entries derived from the resources' entries (made once per change). */
export function derivedAccess() {
  if (derived) return derived;
  const routes: { pattern: string; audience: Audience }[] = [];
  const endpoints: Record<string, Audience> = {};
  const nobody: Audience = [];
  for (const entry of resourceAccessByName.values()) {
    const screen = entry.screen ?? entry.list ?? nobody;
    const sub = (audience: Audience | undefined): Audience =>
      audience === undefined ? nobody : typeof audience === 'string' ? screen : audience;
    routes.push({ pattern: entry.route, audience: screen });
    // Only a CRUD resource's sub-screens are derived: a screen-only entry's paths below its route are its own.
    if (entry.api) {
      routes.push({ pattern: `${entry.route}/show`, audience: sub(entry.show) });
      routes.push({ pattern: `${entry.route}/create`, audience: sub(entry.create) });
      routes.push({ pattern: `${entry.route}/edit`, audience: sub(entry.update) });
      const one = `${entry.api}/:id`;
      if (entry.list !== undefined) endpoints[`GET ${entry.api}`] = entry.list;
      if (entry.show !== undefined) endpoints[`GET ${one}`] = entry.show;
      if (entry.create !== undefined) endpoints[`POST ${entry.api}`] = entry.create;
      if (entry.update !== undefined) endpoints[`${entry.updateMethod ?? 'PUT'} ${one}`] = entry.update;
      if (entry.delete !== undefined) endpoints[`DELETE ${one}`] = entry.delete;
    }
  }
  derived = { routes, endpoints };
  return derived;
}
