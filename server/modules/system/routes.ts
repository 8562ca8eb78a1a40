/** GET /api/system (admin): the system page's figures; GET /api/system/notices (staff): the back office's banners. See contract/schemas/system.ts. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../../contract/envelope';
import { z } from 'zod';
import {
  SYSTEM_MESSAGES,
  systemNoticesSchema,
  systemStatusSchema,
  type SystemStatus,
} from '../../../contract/schemas/system';
import { VERSION } from '../../lib/paths';
import { appliedMigrations, databaseSize, knownMigrations, readSharedFigures } from './figures';

const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  const known = knownMigrations();
  // Every staff page's banners: sandbox payments allowed in production (ALLOW_SANDBOX_PAYMENTS=true).
  app.get(
    '/notices',
    {
      schema: {
        response: { 200: z.object({ success: z.literal(true), message: z.string(), data: systemNoticesSchema }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok({ sandbox_payments_allowed: app.config.sandboxPaymentsWarning }, SYSTEM_MESSAGES.notices);
    },
  );
  app.get(
    '/',
    {
      schema: {
        response: { 200: z.object({ success: z.literal(true), message: z.string(), data: systemStatusSchema }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const shared = await readSharedFigures(app);
      const self = app.system.heartbeat.self;
      const status: SystemStatus = {
        version: VERSION,
        node: {
          id: self.id,
          hostname: self.hostname,
          pid: self.pid,
          started_at: self.startedAt.toISOString(),
          uptime_seconds: Math.round(process.uptime()),
          node_version: process.version,
        },
        database: {
          kind: app.database.kind,
          size_bytes: await databaseSize(app),
          migrations: { applied: await appliedMigrations(app), known: known.count, latest: known.latest },
          pool: app.database.poolStats?.() ?? null,
        },
        nodes: shared.nodes.map((n) => ({
          id: n.id,
          hostname: n.hostname,
          pid: n.pid,
          version: n.version,
          started_at: n.startedAt.toISOString(),
          last_seen_at: n.lastSeenAt.toISOString(),
          responding: n.responding,
          current: n.id === self.id,
        })),
        jobs: {
          by_state: shared.jobs.byState.map((r) => ({ queue: r.name, state: r.state, n: r.n })),
          failed_24h: shared.jobs.failed24h.map((r) => ({ queue: r.name, n: r.n })),
          oldest_waiting_seconds: shared.jobs.oldestWaitingSeconds,
        },
        mail: shared.mail,
        radius: {
          enabled: app.config.radiusEnabled,
          sessions_open: shared.radius.sessionsOpen,
          last_hour: shared.radius.lastHour,
        },
        billing: {
          last_run_at: shared.billing.lastRunAt?.toISOString() ?? null,
          last_run_seconds: shared.billing.lastRunSeconds,
          last_run_counts: shared.billing.lastRunCounts,
        },
        backups: {
          last_at: shared.backups.lastAt?.toISOString() ?? null,
          last_size_bytes: shared.backups.lastSize,
          kept: shared.backups.kept,
          scheduled: shared.backups.scheduled,
          last_failure: shared.backups.lastFailure,
        },
      };
      return ok(status, SYSTEM_MESSAGES.status);
    },
  );
};

export default systemRoutes;
