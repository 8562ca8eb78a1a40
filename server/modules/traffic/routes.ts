/**
 * Interfaces and traffic of a device (issue 7), under /api/devices: the interface list with live status
 * (admin; technician read-only), an interface's traffic over a range, and "poll now" (admin).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import {
  deviceInterfaceListSchema,
  devicePollResultSchema,
  trafficQuerySchema,
  trafficSchema,
} from '../../../contract/schemas/traffic';
import { notFound } from '../../lib/errors';
import { createTrafficRepository } from './repository';
import { TRAFFIC_MESSAGES as M, TrafficService } from './service';

/** A poll asked for from the screen gives up after this long (the device is then marked down). */
const POLL_NOW_TIMEOUT_MS = 12_000;

const uuid = z.string().uuid({ message: 'Not a valid id' });
const deviceParams = z.object({ id: uuid });
const interfaceParams = z.object({ id: uuid, interfaceId: uuid });

const trafficRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new TrafficService({ repository: createTrafficRepository(app.db), clock: app.clock });

  app.get(
    '/:id/interfaces',
    { schema: { params: deviceParams, response: { 200: envelope(deviceInterfaceListSchema) } } },
    async (request) => ok(await service.interfaces(request.params.id), M.interfaces),
  );

  app.get(
    '/:id/interfaces/:interfaceId/traffic',
    {
      schema: { params: interfaceParams, querystring: trafficQuerySchema, response: { 200: envelope(trafficSchema) } },
    },
    async (request) =>
      ok(await service.traffic(request.params.id, request.params.interfaceId, request.query), M.traffic),
  );

  app.post(
    '/:id/poll',
    { schema: { params: deviceParams, response: { 200: envelope(devicePollResultSchema) } } },
    async (request) => {
      // Answer within the browser's 15-second request timeout, whatever the device does.
      const outcome = await app.traffic.poller.pollDevice(request.params.id, undefined, {
        timeoutMs: POLL_NOW_TIMEOUT_MS,
      });
      if (!outcome) throw notFound(M.deviceNotFound);
      return ok(
        {
          device_id: outcome.deviceId,
          status: outcome.status,
          interfaces: outcome.interfaces,
          samples: outcome.samples,
          error: outcome.error,
          next_poll_at: outcome.nextPollAt.toISOString(),
        },
        outcome.status === 'up' ? M.polled : `Device did not answer: ${outcome.error}`,
      );
    },
  );
};

export default trafficRoutes;
