/** /api/dashboard/stats: the role's statistics and chart series for a time frame (spec §3, §5, §6, §7). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../../contract/envelope';
import {
  DASHBOARD_MESSAGES as M,
  dashboardDataSchema,
  dashboardStatsQuerySchema,
} from '../../../contract/schemas/dashboard';
import { unauthorized } from '../../lib/errors';
import { createDashboardRepository } from './repository';
import { DashboardService } from './service';
import { networkStats } from '../usage/network-stats';

const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new DashboardService({
    repository: createDashboardRepository(app.db),
    clock: app.clock,
    currency: async () => (await app.settings.stored()).currency,
    network: (caller, window) => networkStats(app.db, window, caller),
  });

  app.get(
    '/stats',
    { schema: { querystring: dashboardStatsQuerySchema, response: { 200: envelope(dashboardDataSchema) } } },
    async (request, reply) => {
      if (!request.user) throw unauthorized();
      // Per caller and time-dependent: never stored by a shared cache (the client keeps its own 5-minute cache).
      reply.header('cache-control', 'private, no-store');
      return ok(await service.stats({ id: request.user.id, role: request.user.role }, request.query), M.stats);
    },
  );
};

export default dashboardRoutes;
