/**
 * Roles and audiences: who a screen or an endpoint lets in (everybody, any signed-in user, or a list of roles).
 * Part of the role matrix (contract/roles.ts re-exports it). Dependency-free on purpose.
 */
export const ROLES = ['user', 'admin', 'super_admin', 'support', 'technician', 'billing'] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES: readonly Role[] = ['admin', 'super_admin', 'support', 'technician', 'billing'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isStaff(role: Role): boolean {
  return role !== 'user';
}

/** Who may reach something: everybody, any signed-in user, or a list of roles. */
export type Audience = 'public' | 'authenticated' | readonly Role[];

/**
 * super_admin may do everything admin may (the spec lists super_admin with admin for statistics and the
 * users issue says "super_admin everything"), so it is added wherever admin is listed.
 */
function withSuperAdmin(audience: Audience): Audience {
  if (typeof audience === 'string') return audience;
  return audience.includes('admin') && !audience.includes('super_admin') ? [...audience, 'super_admin'] : audience;
}

/** Who an audience really lets in (super_admin added where admin is listed), e.g. for the API reference. */
export function effectiveAudience(audience: Audience): Audience {
  return withSuperAdmin(audience);
}

export function allows(audience: Audience, role: Role | null | undefined): boolean {
  const a = withSuperAdmin(audience);
  if (a === 'public') return true;
  if (!role) return false;
  if (a === 'authenticated') return true;
  return a.includes(role);
}

// Role groups the matrix names more than once.
export const SUBSCRIPTION_ROLES: Role[] = ['user', 'admin', 'billing', 'support'];
export const ADMIN_BILLING: Role[] = ['admin', 'billing'];
export const ADMIN_SUPPORT: Role[] = ['admin', 'support'];
