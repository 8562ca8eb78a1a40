import type { ManagedUser, PublicUser } from '../../../contract/schemas/user';
import type { UserRow } from '../../db/schema';

/** A user as the API shows it: never the password hash; timestamps as ISO strings. */
export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    company: row.company,
    role: row.role,
    status: row.status,
    isVerified: row.isVerified,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    last_login_at: row.lastLoginAt ? row.lastLoginAt.toISOString() : null,
    pending_email: row.pendingEmail,
    language: row.language ?? null,
  };
}

/** A user as the user-management endpoints show it: the public fields and the customer number. */
export function toManagedUser(row: UserRow): ManagedUser {
  return { ...toPublicUser(row), customer_number: row.customerNumber };
}
