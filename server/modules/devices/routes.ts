/**
 * /api/devices (issue 7): admin (and super_admin) manage network devices; technicians read the list and the
 * detail without secrets or configuration. "Test connection" checks SNMP and the management API, for a stored
 * device or for settings a form has not saved yet.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import {
  connectionTestSchema,
  deviceInputSchema,
  deviceListQuerySchema,
  devicePageSchema,
  deviceSchema,
  deviceSummarySchema,
  deviceTestQuerySchema,
  deviceTestSettingsSchema,
  deviceUpdateSchema,
} from '../../../contract/schemas/device';
import { unauthorized } from '../../lib/errors';
import { auditContext } from '../audit/trail';
import { createDeviceRepository } from './repository';
import { DEVICE_MESSAGES as M, DeviceService } from './service';

const idParams = z.object({ id: z.string() });

const role = (request: FastifyRequest) => {
  if (!request.user) throw unauthorized();
  return request.user.role;
};

const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new DeviceService({
    db: app.db,
    repository: createDeviceRepository(app.db),
    clock: app.clock,
    box: app.secretBox,
  });

  app.get(
    '/',
    { schema: { querystring: deviceListQuerySchema, response: { 200: envelope(devicePageSchema) } } },
    async (request) => ok(await service.list(role(request), request.query), M.list),
  );

  // Before '/:id' so the static path wins (Fastify prefers static segments anyway).
  app.post(
    '/test-connection',
    { schema: { body: deviceTestSettingsSchema, response: { 200: envelope(connectionTestSchema) } } },
    async (request) => ok(await service.testSettings(request.body), M.tested),
  );

  app.get(
    '/:id',
    { schema: { params: idParams, response: { 200: envelope(z.union([deviceSchema, deviceSummarySchema])) } } },
    async (request) => ok(await service.get(role(request), request.params.id), M.detail),
  );

  // A device is a RADIUS client (NAS) when it has a RADIUS secret: every process reads the NAS list again.
  app.post(
    '/',
    { schema: { body: deviceInputSchema, response: { 201: envelope(deviceSchema) } } },
    async (request, reply) => {
      const created = await service.create(request.body, auditContext(request));
      app.radius?.clientsChanged();
      return reply.code(201).send(ok(created, M.created));
    },
  );

  app.put(
    '/:id',
    { schema: { params: idParams, body: deviceUpdateSchema, response: { 200: envelope(deviceSchema) } } },
    async (request) => {
      const updated = await service.update(request.params.id, request.body, auditContext(request));
      app.radius?.clientsChanged();
      return ok(updated, M.updated);
    },
  );

  app.delete('/:id', { schema: { params: idParams, response: { 200: envelope(z.null()) } } }, async (request) => {
    await service.delete(request.params.id, auditContext(request));
    app.radius?.clientsChanged();
    return ok(null, M.deleted);
  });

  app.post(
    '/:id/test-connection',
    {
      schema: {
        params: idParams,
        querystring: deviceTestQuerySchema,
        response: { 200: envelope(connectionTestSchema) },
      },
    },
    async (request) => ok(await service.testStored(request.params.id, request.query.timeout_ms), M.tested),
  );
};

export default deviceRoutes;
