/**
 * The audit trail (issue 13): who did what, append-only. An event is written in the same transaction as the
 * change it records. Actor and target are plain values, not foreign keys: the trail outlives the users and
 * records it speaks of. A trigger (migration 0018) refuses UPDATE and DELETE, except for the retention job,
 * which sets portal.audit_prune for its own transaction.
 */
import { bigserial, index, jsonb, pgTable, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';

export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Order of writing: events of the same instant stay in the order they happened. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Null for the system (jobs, RADIUS) or an unknown caller (a failed sign-in). */
    actorId: uuid('actor_id'),
    actorEmail: varchar('actor_email', { length: 254 }),
    /** The actor's role at that moment, or 'system'. */
    actorRole: varchar('actor_role', { length: 32 }).notNull(),
    /** A stable dotted name: plan.updated, user.role_changed, auth.sign_in_failed… */
    action: varchar('action', { length: 80 }).notNull(),
    targetType: varchar('target_type', { length: 40 }),
    targetId: varchar('target_id', { length: 100 }),
    /** Changed fields as {field: {from, to}}; secrets only as {changed: true}. Other details as {detail: …}. */
    changes: jsonb('changes'),
    ip: varchar('ip', { length: 64 }),
    requestId: varchar('request_id', { length: 128 }),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at.desc(), t.seq.desc()),
    index('audit_events_actor_idx').on(t.actorId, t.at.desc()),
    index('audit_events_action_idx').on(t.action, t.at.desc()),
    index('audit_events_target_idx').on(t.targetType, t.targetId, t.at.desc()),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEventRow = typeof auditEvents.$inferInsert;
