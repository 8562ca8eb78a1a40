/**
 * Audit retention (issue 13): with AUDIT_RETENTION_DAYS set, an hourly job deletes the events older than that,
 * and records how many it deleted and up to when, as an event of its own in the same transaction. The table's
 * trigger refuses every DELETE unless portal.audit_prune is on for the transaction, which only this job sets.
 * With several processes, a transaction-scoped advisory lock lets one prune at a time; the others skip.
 */
import fp from 'fastify-plugin';
import type { Db } from '../../db/client';
import { DAY_MS, HOUR_MS, type Clock } from '../../lib/clock';
import { PeriodicCheck } from '../../lib/periodic-check';
import { createAuditRepository } from './repository';
import { recordAudit, SYSTEM } from './trail';

export interface PruneResult {
  deleted: number;
  before: Date | null;
}

export async function pruneAuditTrail(db: Db, clock: Clock, retentionDays: number): Promise<PruneResult> {
  if (retentionDays <= 0) return { deleted: 0, before: null };
  const before = new Date(clock.now().getTime() - retentionDays * DAY_MS);
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const deleted = await createAuditRepository(tx).pruneBefore(before);
    if (deleted === null) return { deleted: 0, before };
    if (deleted > 0) {
      await recordAudit(tx, clock, SYSTEM, {
        action: 'audit.pruned',
        targetType: 'audit',
        changes: {
          deleted: { from: null, to: deleted },
          before: { from: null, to: before.toISOString() },
          retention_days: { from: null, to: retentionDays },
        },
      });
    }
    return { deleted, before };
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    auditRetention: PeriodicCheck<PruneResult>;
  }
}

export const AUDIT_RETENTION_JOB = 'audit-retention';

/** The hourly retention job (only when AUDIT_RETENTION_DAYS is above 0), a periodic job on the shared queue. */
export const auditRetentionPlugin = fp(
  async (app) => {
    const job = new PeriodicCheck(async () => {
      try {
        const result = await pruneAuditTrail(app.db, app.clock, app.config.auditRetentionDays);
        if (result.deleted) app.log.info({ deleted: result.deleted, before: result.before }, 'audit trail pruned');
        return result;
      } catch (error) {
        app.log.error({ err: error }, 'audit trail retention failed');
        return { deleted: 0, before: null };
      }
    });
    app.decorate('auditRetention', job);
    app.jobs.every(AUDIT_RETENTION_JOB, HOUR_MS / 1000, {}, () => job.run(), app.config.auditRetentionDays > 0);
    app.addHook('preClose', () => job.stop());
  },
  { name: 'audit-retention', dependencies: ['db', 'jobs'] },
);
