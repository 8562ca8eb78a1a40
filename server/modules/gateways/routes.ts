/**
 * /api/payments/gateways: managed by admin and billing. Any signed-in user may list the active gateways
 * (to choose how to pay), without credentials; managers get every gateway with masked credentials.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../contract/envelope';
import { allows } from '../../../contract/roles';
import { gatewayInputSchema, gatewaySchema, gatewayUpdateSchema, publicGatewaySchema } from '../../../contract/schemas/gateway';
import type { Db } from '../../db/client';
import { auditContext } from '../audit/trail';
import { createGatewayRepository } from './repository';
import { GATEWAY_MESSAGES as M, GatewayService } from './service';

const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), message: z.string(), data });
const idParams = z.object({ id: z.string() });

/** Who manages gateways (and sees their masked credentials). */
export const GATEWAY_MANAGERS = ['admin', 'billing'] as const;
const manager = (request: FastifyRequest) => allows(GATEWAY_MANAGERS, request.user?.role);

const gatewayRoutes: FastifyPluginAsyncZod = async (app) => {
  const gateways = new GatewayService({
    repository: createGatewayRepository(app.db),
    clock: app.clock,
    box: app.secretBox,
    transaction: (work) => app.db.transaction((tx) => work(createGatewayRepository(tx as unknown as Db), tx as unknown as Db)),
  });

  app.get(
    '/',
    { schema: { response: { 200: envelope(z.array(z.union([gatewaySchema, publicGatewaySchema]))) } } },
    async (request) => ok(await gateways.list(manager(request)), M.list),
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: envelope(gatewaySchema) } } }, async (request) =>
    ok(await gateways.get(request.params.id), M.detail),
  );

  app.post('/', { schema: { body: gatewayInputSchema, response: { 201: envelope(gatewaySchema) } } }, async (request, reply) =>
    reply.code(201).send(ok(await gateways.create(request.body, auditContext(request)), M.created)),
  );

  app.put('/:id', { schema: { params: idParams, body: gatewayUpdateSchema, response: { 200: envelope(gatewaySchema) } } }, async (request) => {
    const { gateway, toggle } = await gateways.update(request.params.id, request.body, auditContext(request));
    return ok(gateway, toggle ? (gateway.is_active ? M.activated : M.deactivated) : M.updated);
  });

  app.delete('/:id', { schema: { params: idParams, response: { 200: envelope(z.null()) } } }, async (request) => {
    await gateways.delete(request.params.id, auditContext(request));
    return ok(null, M.deleted);
  });
};

export default gatewayRoutes;
