import type { PublicUser } from '../../../contract/schemas/user';
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
  };
}
