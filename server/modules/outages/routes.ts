/**
 * GET /api/status (public): current incidents and upcoming maintenance by area, and the recently resolved, with
 * no device, customer or staff detail. POST /api/incidents/:id/resolve: staff end an incident early (audited).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import { INCIDENT_MESSAGES as M, incidentSchema, publicStatusSchema } from '../../../contract/schemas/incident';
import { conflict, notFound } from '../../lib/errors';
import { auditContext, recordAudit } from '../audit/trail';
import { createOutageRepository } from './repository';
import { publicStatus } from './status';
import { toIncident } from './presenter';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const outageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/status',
    {
      schema: {
        description:
          'The service status: current incidents and planned maintenance by area, and recently resolved ones.',
        response: { 200: envelope(publicStatusSchema) },
      },
    },
    async (_request, reply) => {
      // The same for everybody and fine a minute old.
      reply.header('cache-control', 'public, max-age=60');
      return ok(await publicStatus(app.db, app.clock.now()), M.status);
    },
  );

  app.post(
    '/incidents/:id/resolve',
    {
      schema: {
        description: 'Resolves an open incident now and tells the customers it reached that it is over.',
        params: z.object({ id: z.string() }),
        response: { 200: envelope(incidentSchema) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const existing = UUID.test(id) ? await createOutageRepository(app.db).find(id) : undefined;
      if (!existing) throw notFound(M.notFound);
      const resolved = await app.outages.resolve(id, app.clock.now(), (tx, incident) =>
        recordAudit(tx, app.clock, auditContext(request), {
          action: 'incident.resolved',
          targetType: 'incident',
          targetId: incident.id,
          changes: { resolved_at: { from: null, to: incident.resolvedAt?.toISOString() ?? null } },
        }),
      );
      if (!resolved) throw conflict(M.alreadyResolved);
      return ok(toIncident(resolved), M.resolved);
    },
  );
};

export default outageRoutes;
