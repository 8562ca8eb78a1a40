import { ROLES } from '../../contract/roles';
import { USER_STATUSES } from '../../contract/schemas/user';
import type { FieldOption } from '../../src/components/resource';
import { UserOutlined } from '@ant-design/icons';
import { defineResource } from '../../src/components/resource/define';

/** The list route and the detail route (the same screen, spec §2; resources/menu.ts). */
export const USERS_PATH = '/dashboard/users';
export const userDetailPath = (id: string) => `/dashboard/user/${encodeURIComponent(id)}`;

export const USER_STATUS_COLORS: Record<string, string> = { active: 'green', suspended: 'gold', disabled: 'red' };
/** Tag presets whose text meets WCAG AA contrast on their own background (volcano, cyan, green, gold do not). */
export const ROLE_COLORS: Record<string, string> = {
  user: 'default',
  admin: 'red',
  super_admin: 'magenta',
  support: 'blue',
  technician: 'geekblue',
  billing: 'purple',
};

export const USER_STATUS_OPTIONS: FieldOption[] = USER_STATUSES.map((s) => ({
  value: s,
  labelKey: `users.status.${s}`,
  color: USER_STATUS_COLORS[s],
}));
export const ROLE_OPTIONS: FieldOption[] = ROLES.map((r) => ({
  value: r,
  labelKey: `role.${r}`,
  color: ROLE_COLORS[r],
}));

/**
 * Users (spec §3 "User list", §7, issue 6): GET /users paged by page/limit with data.pagination, filters
 * search, role, status and company kept in the URL. Created and edited in a modal; status and password
 * have their own calls.
 */
export const usersResource = defineResource({
  name: 'users',
  auditTargets: ['user'],
  menu: { order: 60, labelKey: 'menu.users', icon: UserOutlined },
  // The list and a user's page are one screen (spec §2): one element, so the list stays mounted.
  pages: { list: () => import('./UsersPage').then((m) => m.UsersPage), show: 'list' },
  routes: { show: '/dashboard/user/:id' },
  titleKey: 'users.title',
  singularKey: 'users.singular',
  search: true,
  canCreate: true,
  actions: ['show'],
  messages: { created: 'users.toast.created', updated: 'users.toast.updated', deleted: 'users.toast.deleted' },
  fields: [
    { name: 'name', type: 'text', labelKey: 'users.fields.name', column: true, priority: 1 },
    { name: 'email', type: 'text', labelKey: 'users.fields.email', column: true },
    { name: 'phone', type: 'text', labelKey: 'users.fields.phone', column: true, priority: 3 },
    { name: 'customer_number', type: 'text', labelKey: 'users.fields.customerNumber', column: true, priority: 3 },
    { name: 'company', type: 'text', labelKey: 'users.fields.company', column: true, priority: 3 },
    { name: 'role', type: 'status', labelKey: 'users.fields.role', column: true, filter: true, options: ROLE_OPTIONS },
    {
      name: 'status',
      type: 'status',
      labelKey: 'users.fields.status',
      column: true,
      priority: 1,
      filter: true,
      options: USER_STATUS_OPTIONS,
    },
    { name: 'created_at', type: 'date', labelKey: 'users.fields.createdAt', column: true, priority: 3 },
    { name: 'address', type: 'text', labelKey: 'users.fields.address' },
    { name: 'isVerified', type: 'boolean', labelKey: 'users.fields.verified' },
    { name: 'last_login_at', type: 'date', labelKey: 'users.fields.lastLogin' },
  ],
});
