/**
 * Writing the audit trail. recordAudit inserts one event with the database handle it is given, so a caller
 * inside a transaction passes the transaction: the event commits or rolls back with the change it records.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createAuditRepository } from './repository';

export interface AuditActor {
  id: string | null;
  email: string | null;
  role: string;
}

export interface AuditContext {
  actor: AuditActor;
  ip: string | null;
  requestId: string | null;
}

export const SYSTEM: AuditContext = { actor: { id: null, email: null, role: 'system' }, ip: null, requestId: null };

export interface AuditEntry {
  action: string;
  targetType?: string;
  targetId?: string | null;
  changes?: Record<string, unknown> | null;
}

/** Who is acting in a request: the signed-in user with their role now, else an anonymous caller. */
export function auditContext(request: FastifyRequest, anonymousEmail?: string): AuditContext {
  const user = request.user;
  return {
    actor: user
      ? { id: user.id, email: user.email, role: user.role }
      : { id: null, email: anonymousEmail ?? null, role: 'anonymous' },
    ip: request.ip.slice(0, 64),
    requestId: String(request.id).slice(0, 128),
  };
}

export async function recordAudit(db: Db, clock: Clock, context: AuditContext, entry: AuditEntry): Promise<void> {
  await createAuditRepository(db).insert({
    at: clock.now(),
    actorId: context.actor.id,
    actorEmail: context.actor.email,
    actorRole: context.actor.role,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    changes: entry.changes ?? null,
    ip: context.ip,
    requestId: context.requestId,
  });
}

/**
 * The fields that differ between two records as {field: {from, to}}; a secret field only as {changed: true},
 * never its value. Timestamps of the change itself are left out.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  options: { secret?: readonly string[]; ignore?: readonly string[] } = {},
): Record<string, unknown> {
  const ignore = new Set(['updated_at', 'updatedAt', ...(options.ignore ?? [])]);
  const secret = new Set(options.secret ?? []);
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (ignore.has(key)) continue;
    // Absent and null are the same "nothing" (a created record has no before): no {from: null, to: null} noise.
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    out[key] = secret.has(key) ? { changed: true } : { from, to };
  }
  return out;
}
