/**
 * Personal API tokens (issue 12): who may create a token for which role, the secret shown once and stored as
 * its SHA-256, revocation, and resolving a bearer secret to the token and its creator.
 */
import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_MARKER,
  API_TOKEN_PREFIX_LENGTH,
  type ApiToken,
  type ApiTokenCreateParsed,
  type ApiTokenRole,
  type ApiTokenStatus,
  type CreatedApiToken,
} from '../../../contract/schemas/api-token';
import type { Role } from '../../../contract/roles';
import type { FieldError } from '../../../contract/envelope';
import type { ApiTokenRow, UserRow } from '../../db/schema';
import { MINUTE_MS, type Clock } from '../../lib/clock';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import { validationSummary } from '../../plugins/errors';
import type { Db } from '../../db/client';
import { recordAudit, type AuditContext, type AuditEntry } from '../audit/trail';
import type { ApiTokenRepository, ApiTokenWithCreator } from './repository';

export const API_TOKEN_MESSAGES = {
  list: 'API tokens retrieved successfully',
  created: 'API token created. Copy it now: it will not be shown again.',
  revoked: 'API token revoked',
  alreadyRevoked: 'API token was already revoked',
  notFound: 'API token not found',
  superAdminOnly: 'Only a super admin can create a token with the super_admin role',
  expiryInPast: 'Expiry must be in the future',
} as const;

/** last_used_at is written at most this often per token, so a busy integration does not write on every call. */
export const LAST_USED_RESOLUTION_MS = MINUTE_MS;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who may create (and keep alive) a token acting as `tokenRole`: admins, and super_admin for super_admin tokens. */
export function mayGrant(creatorRole: Role, tokenRole: ApiTokenRole): boolean {
  if (creatorRole === 'super_admin') return true;
  return creatorRole === 'admin' && tokenRole !== 'super_admin';
}

/** A new secret: the marker and 32 random bytes in base64url. */
export function newApiTokenSecret(): string {
  return `${API_TOKEN_MARKER}${randomBytes(32).toString('base64url')}`;
}

export class ApiTokenService {
  constructor(
    private readonly deps: {
      repository: ApiTokenRepository;
      clock: Clock;
      /** Runs a change in one transaction with a repository and a handle for its audit event; absent: no audit. */
      transaction?: <T>(work: (repository: ApiTokenRepository, db: Db) => Promise<T>) => Promise<T>;
    },
  ) {}

  private audited<T>(
    audit: AuditContext | undefined,
    work: (repository: ApiTokenRepository, record: (entry: AuditEntry) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const { transaction, repository, clock } = this.deps;
    if (!transaction || !audit) return work(repository, async () => {});
    return transaction((repo, db) =>
      work(repo, (entry) => recordAudit(db, clock, audit, { targetType: 'api_token', ...entry })),
    );
  }

  statusOf(row: Pick<ApiTokenRow, 'revokedAt' | 'expiresAt'>, now = this.deps.clock.now()): ApiTokenStatus {
    if (row.revokedAt) return 'revoked';
    if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
    return 'active';
  }

  toApiToken(row: ApiTokenWithCreator): ApiToken {
    return {
      id: row.id,
      name: row.name,
      role: row.role,
      prefix: row.prefix,
      created_by: row.createdBy,
      created_by_name: row.creatorName,
      created_by_email: row.creatorEmail,
      created_at: row.createdAt.toISOString(),
      last_used_at: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
      expires_at: row.expiresAt ? row.expiresAt.toISOString() : null,
      revoked_at: row.revokedAt ? row.revokedAt.toISOString() : null,
      status: this.statusOf(row),
    };
  }

  /** The tokens the viewer may see: a super_admin's tokens are for super_admins only. */
  async list(
    q: { page: number; limit: number },
    viewer: { role: Role },
  ): Promise<{ items: ApiToken[]; total: number }> {
    const { items, total } = await this.deps.repository.page(q, viewer.role === 'super_admin');
    return { items: items.map((r) => this.toApiToken(r)), total };
  }

  /** Creates a token acting as input.role in the creator's name; the answer carries the secret this once. */
  async create(
    creator: { id: string; role: Role },
    input: ApiTokenCreateParsed,
    audit?: AuditContext,
  ): Promise<CreatedApiToken> {
    const { repository, clock } = this.deps;
    if (!mayGrant(creator.role, input.role)) throw forbidden(API_TOKEN_MESSAGES.superAdminOnly);
    const now = clock.now();
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= now.getTime()) {
      const errors: FieldError[] = [{ field: 'expiresAt', message: API_TOKEN_MESSAGES.expiryInPast }];
      throw badRequest(validationSummary(errors), errors);
    }
    const secret = newApiTokenSecret();
    const row = await this.audited(audit, async (repo, record) => {
      const inserted = await repo.insert({
        name: input.name,
        role: input.role,
        tokenHash: hashToken(secret),
        prefix: secret.slice(API_TOKEN_MARKER.length, API_TOKEN_MARKER.length + API_TOKEN_PREFIX_LENGTH),
        createdBy: creator.id,
        createdAt: now,
        expiresAt,
      });
      // The secret never: only what tells the token apart.
      await record({
        action: 'api_token.created',
        targetId: inserted.id,
        changes: {
          name: { from: null, to: inserted.name },
          role: { from: null, to: inserted.role },
          prefix: { from: null, to: inserted.prefix },
          secret: { changed: true },
        },
      });
      return inserted;
    });
    const stored = await repository.findById(row.id);
    return { ...this.toApiToken(stored!), secret };
  }

  /** Revokes a token (again: no change). 404 for an unknown id, and for a super_admin's token unless the viewer is one. */
  async revoke(
    id: string,
    viewer: { role: Role },
    audit?: AuditContext,
  ): Promise<{ token: ApiToken; already: boolean }> {
    const { repository, clock } = this.deps;
    const current = UUID.test(id) ? await repository.findById(id) : undefined;
    if (!current || (current.creatorRole === 'super_admin' && viewer.role !== 'super_admin'))
      throw notFound(API_TOKEN_MESSAGES.notFound);
    if (current.revokedAt) return { token: this.toApiToken(current), already: true };
    await this.audited(audit, async (repo, record) => {
      await repo.revoke(id, clock.now());
      await record({
        action: 'api_token.revoked',
        targetId: id,
        changes: { name: { from: current.name, to: current.name }, status: { from: 'active', to: 'revoked' } },
      });
    });
    return { token: this.toApiToken((await repository.findById(id))!), already: false };
  }

  /**
   * The token a bearer secret stands for and its creator, or null when it is unknown, revoked or expired, or
   * when its creator is gone, not active, or may no longer create a token for its role. Records the use.
   */
  async resolve(secret: string): Promise<{ token: ApiTokenRow; creator: UserRow } | null> {
    const { repository, clock } = this.deps;
    const found = await repository.findByHash(hashToken(secret));
    if (!found) return null;
    const { token, creator } = found;
    const now = clock.now();
    if (this.statusOf(token, now) !== 'active') return null;
    if (creator.status !== 'active' || !mayGrant(creator.role, token.role)) return null;
    if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await repository.touch(token.id, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS + 1));
    }
    return { token, creator };
  }
}
