/**
 * User management (issue 6): the list with its filters, and the rules of who may create, edit, suspend,
 * reset or delete whom. Who-may-manage-whom is the pure contract/schemas/user.ts functions (the screens offer
 * the same choices); this adds the rules that need the database: the last super_admin, oneself, history.
 */
import type { Role } from '../../../contract/roles';
import { pagePagination, type PagePagination } from '../../../contract/envelope';
import {
  assignableRoles,
  canDeleteRole,
  canManageRole,
  canResetPasswordOf,
  type ManagedUser,
  type UserCreateParsed,
  type UserListQueryParsed,
  type UserStatus,
  type UserUpdateParsed,
} from '../../../contract/schemas/user';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { AppError, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { changedFields, recordAudit, type AuditContext, type AuditEntry } from '../audit/trail';
import type { EmailChanges } from '../auth/email-change';
import { toManagedUser } from './presenter';
import type { UserFilterInput, UserRepository } from './repository';

export const USER_MESSAGES = {
  list: 'Users retrieved successfully',
  detail: 'User retrieved successfully',
  companies: 'Companies retrieved successfully',
  created: 'User created successfully',
  updated: 'User updated successfully',
  deleted: 'User deleted successfully',
  passwordReset: 'Password reset successfully. The user has been signed out everywhere.',
  statusChanged: (status: UserStatus) => `User ${status === 'active' ? 'activated' : status} successfully`,
  notFound: 'User not found',
  emailTaken: 'A user with this e-mail already exists',
  roleNotAllowed: 'You are not allowed to give a user this role',
  notManageable: 'You are not allowed to manage this user',
  lastSuperAdmin: 'The last super admin cannot be demoted, suspended, disabled or deleted',
  ownRole: 'You cannot change your own role',
  ownStatus: 'You cannot change your own status',
  ownPassword: 'Change your own password from your profile',
  ownDelete: 'You cannot delete your own account',
  tokenCreator: 'An API token cannot change the account of the person who made it; sign in as yourself to do this',
  emailPending: (to: string) =>
    `User updated. A confirmation link was sent to ${to}; the e-mail address changes once it is confirmed from there.`,
  hasHistory: 'This user has invoices or subscriptions and cannot be deleted. Disable the account instead.',
  hasRecords: 'This user has tickets or other records and cannot be deleted. Disable the account instead.',
} as const;

const M = USER_MESSAGES;

export interface Actor {
  id: string;
  role: Role;
  /** The request was signed with an API token made by this user (issue 12): it may not change its creator. */
  viaApiToken?: boolean;
}

/** PostgreSQL's foreign_key_violation or restrict_violation (a row elsewhere still points at the user). */
function isForeignKeyViolation(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e === 'object' && ['23503', '23001'].includes(String((e as { code?: unknown }).code))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The fields of a user the trail shows (never the password hash: a password change is only "changed"). */
function auditView(row: Partial<UserRow>): Record<string, unknown> {
  const { name, email, role, status, phone, address, company, pendingEmail } = row;
  return { name, email, role, status, phone, address, company, pending_email: pendingEmail ?? null };
}

type Record_ = (entry: AuditEntry) => Promise<void>;

export class UserService {
  constructor(
    private readonly deps: {
      repository: UserRepository;
      /** The repository over a transaction (for changes made under a lock). */
      createRepository: (db: Db) => UserRepository;
      clock: Clock;
      /** Revokes every refresh token (session) of a user. */
      revokeSessions: (userId: string) => Promise<void>;
      /** A new e-mail address is pending until confirmed from it (issue 32). */
      emailChanges: EmailChanges;
    },
  ) {}

  async list(query: UserListQueryParsed): Promise<{ items: ManagedUser[]; pagination: PagePagination }> {
    const { items, total } = await this.deps.repository.page(query);
    return { items: items.map(toManagedUser), pagination: pagePagination(query.page, query.limit, total) };
  }

  companies(): Promise<string[]> {
    return this.deps.repository.companies();
  }

  scan(filters: UserFilterInput, batchSize?: number): AsyncGenerator<UserRow[]> {
    return this.deps.repository.scan(filters, batchSize);
  }

  async get(id: string): Promise<ManagedUser> {
    return toManagedUser(await this.find(id));
  }

  async create(actor: Actor, input: UserCreateParsed, audit?: AuditContext): Promise<ManagedUser> {
    if (!assignableRoles(actor.role).includes(input.role)) throw forbidden(M.roleNotAllowed);
    const now = this.deps.clock.now();
    const passwordHash = await hashPassword(input.password);
    try {
      const row = await this.audited(audit, async (repo, record) => {
        const created = await repo.insert({
          name: input.name,
          email: input.email,
          passwordHash,
          role: input.role,
          status: input.status,
          phone: input.phone ?? null,
          address: input.address ?? null,
          company: input.company ?? null,
          // Accounts made by staff are vouched for: no e-mail verification step.
          isVerified: true,
          emailVerifiedAt: now,
          createdAt: now,
          updatedAt: now,
        });
        await record({
          action: 'user.created',
          targetId: created.id,
          changes: { ...changedFields({}, auditView(created)), password: { changed: true } },
        });
        return created;
      });
      return toManagedUser(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(M.emailTaken);
      throw error;
    }
  }

  async update(actor: Actor, id: string, input: UserUpdateParsed, audit?: AuditContext): Promise<ManagedUser> {
    const target = await this.find(id);
    const self = target.id === actor.id;
    if (self && actor.viaApiToken) throw forbidden(M.tokenCreator);
    const roleChange = input.role !== undefined && input.role !== target.role;
    // One's own profile fields may be edited here; one's own role never.
    if (!self && !canManageRole(actor.role, target.role)) throw forbidden(M.notManageable);
    if (input.role !== undefined && roleChange) {
      if (input.role !== 'super_admin') await this.guardLastSuperAdmin(target);
      if (self) throw forbidden(M.ownRole);
      if (!assignableRoles(actor.role).includes(input.role)) throw forbidden(M.roleNotAllowed);
    }
    const values: Partial<UserRow> = { updatedAt: this.deps.clock.now() };
    if (input.name !== undefined) values.name = input.name;
    // Staff may see every account, so an address in use is named (409); the change itself waits for the new
    // address's owner: the account keeps its address (and "forgot password" keeps going there) until confirmed.
    let notify = () => {};
    if (input.email !== undefined) {
      const owner = input.email !== target.email ? await this.deps.repository.findByEmail(input.email) : undefined;
      if (owner && owner.id !== target.id) throw conflict(M.emailTaken);
      const change = await this.deps.emailChanges.request(target, input.email, !self);
      Object.assign(values, change.values);
      notify = change.notify;
    }
    if (input.role !== undefined) values.role = input.role;
    if (input.phone !== undefined) values.phone = input.phone;
    // Another number is not the one the customer proved (issue 38): SMS / WhatsApp wait for a new verification.
    if (input.phone !== undefined && input.phone !== target.phone) values.phoneVerifiedAt = null;
    if (input.address !== undefined) values.address = input.address;
    if (input.company !== undefined) values.company = input.company;
    try {
      const row = await this.write(target, roleChange && input.role !== 'super_admin', audit, async (repo, record) => {
        const updated = await repo.update(id, values);
        if (!updated) throw notFound(M.notFound);
        // A new role: the access tokens signed for the old one end (the sessions get new ones by refreshing).
        if (roleChange) await repo.endAccessTokens(id);
        const changes = changedFields(auditView(target), auditView(updated));
        // A role change is its own action (the one an auditor looks for), with every field that changed with it.
        if (Object.keys(changes).length)
          await record({ action: roleChange ? 'user.role_changed' : 'user.updated', targetId: id, changes });
        return updated;
      });
      notify();
      return toManagedUser(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(M.emailTaken);
      throw error;
    }
  }

  /** Suspended and disabled users cannot sign in; their sessions end at once. */
  async setStatus(actor: Actor, id: string, status: UserStatus, audit?: AuditContext): Promise<ManagedUser> {
    const target = await this.find(id);
    if (target.id === actor.id && actor.viaApiToken) throw forbidden(M.tokenCreator);
    if (target.id === actor.id) {
      if (status !== 'active') await this.guardLastSuperAdmin(target);
      throw forbidden(M.ownStatus);
    }
    if (!canManageRole(actor.role, target.role)) throw forbidden(M.notManageable);
    if (status !== 'active') await this.guardLastSuperAdmin(target);
    const row = await this.write(target, status !== 'active', audit, async (repo, record) => {
      const updated = await repo.update(id, { status, updatedAt: this.deps.clock.now() });
      if (!updated) throw notFound(M.notFound);
      if (status !== 'active') await repo.endAccessTokens(id);
      if (target.status !== status)
        await record({
          action: 'user.status_changed',
          targetId: id,
          changes: { status: { from: target.status, to: status } },
        });
      return updated;
    });
    if (status !== 'active') await this.deps.revokeSessions(id);
    return toManagedUser(row);
  }

  /** Sets a new password and signs the user out everywhere. */
  async setPassword(actor: Actor, id: string, newPassword: string, audit?: AuditContext): Promise<void> {
    const target = await this.find(id);
    if (target.id === actor.id) throw forbidden(actor.viaApiToken ? M.tokenCreator : M.ownPassword);
    if (!canResetPasswordOf(actor.role, target.role)) throw forbidden(M.notManageable);
    const passwordHash = await hashPassword(newPassword);
    await this.audited(audit, async (repo, record) => {
      const row = await repo.update(id, { passwordHash, updatedAt: this.deps.clock.now() });
      if (!row) throw notFound(M.notFound);
      await repo.endAccessTokens(id);
      await record({ action: 'user.password_reset', targetId: id, changes: { password: { changed: true } } });
    });
    await this.deps.revokeSessions(id);
  }

  async delete(actor: Actor, id: string, audit?: AuditContext): Promise<void> {
    const target = await this.find(id);
    if (target.id === actor.id) {
      await this.guardLastSuperAdmin(target);
      throw forbidden(M.ownDelete);
    }
    if (!canDeleteRole(actor.role, target.role)) throw forbidden(M.notManageable);
    await this.guardLastSuperAdmin(target);
    if (await this.deps.repository.hasBillingHistory(id)) throw conflict(M.hasHistory);
    try {
      await this.write(target, true, audit, async (repo, record) => {
        if (!(await repo.delete(id))) throw notFound(M.notFound);
        await record({ action: 'user.deleted', targetId: id, changes: changedFields(auditView(target), {}) });
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw conflict(M.hasRecords);
      throw error;
    }
  }

  private async find(id: string): Promise<UserRow> {
    const row = await this.deps.repository.findById(id);
    if (!row) throw notFound(M.notFound);
    return row;
  }

  /**
   * Runs a change; when it takes an active super_admin away (demotion, suspension, deletion) it runs under the
   * repository's lock so it is refused (409) if no other active super_admin would remain.
   */
  private async write<T>(
    target: UserRow,
    removesPrivilege: boolean,
    audit: AuditContext | undefined,
    change: (repo: UserRepository, record: Record_) => Promise<T>,
  ): Promise<T> {
    const { repository, createRepository } = this.deps;
    if (!removesPrivilege || target.role !== 'super_admin' || target.status !== 'active')
      return this.audited(audit, change);
    const result = await repository.withoutLosingLastSuperAdmin((tx) =>
      change(createRepository(tx), this.recorder(tx, audit)),
    );
    if (result === 'last') throw new AppError(409, M.lastSuperAdmin);
    return result;
  }

  /** Runs a change in one transaction with its audit event (none when no audit context is given). */
  private audited<T>(
    audit: AuditContext | undefined,
    change: (repo: UserRepository, record: Record_) => Promise<T>,
  ): Promise<T> {
    return this.deps.repository.transaction((tx) => change(this.deps.createRepository(tx), this.recorder(tx, audit)));
  }

  private recorder(tx: Db, audit: AuditContext | undefined): Record_ {
    return async (entry) => {
      if (audit) await recordAudit(tx, this.deps.clock, audit, { targetType: 'user', ...entry });
    };
  }

  /** Refuses to take away the last active super_admin (by demotion, suspension or deletion). */
  private async guardLastSuperAdmin(target: UserRow): Promise<void> {
    if (target.role !== 'super_admin' || target.status !== 'active') return;
    if ((await this.deps.repository.activeSuperAdminCount()) <= 1) throw new AppError(409, M.lastSuperAdmin);
  }
}
