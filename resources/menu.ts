/**
 * The menu of the signed-in area as plain data (no React), so the layouts, the access-control tests and the
 * browser tests all read the same list. Each route is a screen of spec §2; a role sees an entry only when
 * contract/roles.ts lets it open that route. `portal` marks the customers' slimmer top navigation.
 */
export interface MenuEntry {
  name: string;
  /** The list route; absent for a group that only holds children. */
  route?: string;
  show?: string;
  create?: string;
  edit?: string;
  labelKey: string;
  parent?: string;
  portal?: boolean;
}

export const MENU: MenuEntry[] = [
  { name: 'dashboard', route: '/dashboard', labelKey: 'menu.dashboard', portal: true },
  { name: 'subscriptions', route: '/dashboard/subscriptions', show: '/dashboard/subscription/:id', labelKey: 'menu.subscriptions', portal: true },
  { name: 'usage', route: '/dashboard/usage', labelKey: 'menu.usage', portal: true },
  { name: 'tickets', route: '/dashboard/tickets', show: '/dashboard/tickets/:id', labelKey: 'menu.tickets', portal: true },
  { name: 'tickets-shared', route: '/dashboard/tickets/shared', labelKey: 'menu.sharedTickets' },
  { name: 'users', route: '/dashboard/users', show: '/dashboard/user/:id', labelKey: 'menu.users' },
  { name: 'contact-messages', route: '/dashboard/contact-messages', labelKey: 'menu.contactMessages' },
  { name: 'billing', labelKey: 'menu.billing' },
  { name: 'plans', route: '/dashboard/plans', create: '/dashboard/plans/create', edit: '/dashboard/plans/edit/:id', show: '/dashboard/plans/show/:id', labelKey: 'menu.plans', parent: 'billing' },
  { name: 'payment-gateways', route: '/dashboard/billing/payment-gateways', create: '/dashboard/billing/payment-gateways/create', edit: '/dashboard/billing/payment-gateways/edit/:id', show: '/dashboard/billing/payment-gateways/show/:id', labelKey: 'menu.paymentGateways', parent: 'billing' },
  { name: 'invoices', route: '/dashboard/billing/invoices', show: '/dashboard/billing/invoices/show/:id', labelKey: 'menu.invoices', parent: 'billing' },
  { name: 'network', labelKey: 'menu.network' },
  { name: 'router-devices', route: '/dashboard/nas/router/devices', create: '/dashboard/nas/router/devices/create', edit: '/dashboard/nas/router/devices/edit/:id', show: '/dashboard/nas/router/devices/show/:id', labelKey: 'menu.routerDevices', parent: 'network' },
  { name: 'router-usage', route: '/dashboard/nas/router/usage', labelKey: 'menu.routerUsage', parent: 'network' },
  { name: 'router-interfaces', route: '/dashboard/nas/router/interfaces', labelKey: 'menu.routerInterfaces', parent: 'network' },
  { name: 'router-config', route: '/dashboard/nas/router/config', labelKey: 'menu.routerConfig', parent: 'network' },
  { name: 'router-backup', route: '/dashboard/nas/router/backup', labelKey: 'menu.routerBackup', parent: 'network' },
  { name: 'devices', route: '/dashboard/nas/devices', show: '/dashboard/nas/devices/show/:id', labelKey: 'menu.devices' },
  { name: 'installations', route: '/dashboard/installations', show: '/dashboard/installation/:id', labelKey: 'menu.installations' },
  { name: 'api-tokens', route: '/dashboard/api-tokens', create: '/dashboard/api-tokens/create', labelKey: 'menu.apiTokens' },
  { name: 'backups', route: '/dashboard/backups', labelKey: 'menu.backups' },
  { name: 'audit', route: '/dashboard/audit', show: '/dashboard/audit/show/:id', labelKey: 'menu.audit' },
  { name: 'jobs', route: '/dashboard/jobs', labelKey: 'menu.jobs' },
  { name: 'system', route: '/dashboard/system', labelKey: 'menu.system' },
  { name: 'settings', route: '/dashboard/settings', labelKey: 'menu.settings' },
  { name: 'profile', route: '/dashboard/profile', labelKey: 'menu.profile', portal: true },
];

/** Entries that open a screen (groups left out), in menu order. */
export function menuRoutes(): (MenuEntry & { route: string })[] {
  return MENU.filter((m): m is MenuEntry & { route: string } => typeof m.route === 'string');
}
