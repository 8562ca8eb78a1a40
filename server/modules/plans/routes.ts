/** /api/plans: public catalogue (active plans; staff see all), managed by admin and billing. */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../contract/envelope';
import { isStaff } from '../../../contract/roles';
import { planInputSchema, planListQuerySchema, planSchema, planUpdateSchema } from '../../../contract/schemas/plan';
import type { Db } from '../../db/client';
import { auditContext } from '../audit/trail';
import { createPlanRepository } from './repository';
import { PLAN_MESSAGES as M, PlanService } from './service';

const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), message: z.string(), data });
const pagination = z.object({ page: z.number(), totalPages: z.number(), total: z.number(), hasNext: z.boolean(), hasPrev: z.boolean() });
const idParams = z.object({ id: z.string() });

const staff = (request: FastifyRequest) => Boolean(request.user && isStaff(request.user.role));

const planRoutes: FastifyPluginAsyncZod = async (app) => {
  const plans = new PlanService({
    repository: createPlanRepository(app.db),
    clock: app.clock,
    defaultCurrency: async () => (await app.settings.stored()).currency,
    transaction: (work) => app.db.transaction((tx) => work(createPlanRepository(tx as unknown as Db), tx as unknown as Db)),
  });

  app.get(
    '/',
    { schema: { querystring: planListQuerySchema, response: { 200: envelope(z.object({ items: z.array(planSchema), pagination })) } } },
    async (request) => ok(await plans.list(request.query, staff(request)), M.list),
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: envelope(planSchema) } } }, async (request) =>
    ok(await plans.get(request.params.id, staff(request)), M.detail),
  );

  app.post('/', { schema: { body: planInputSchema, response: { 201: envelope(planSchema) } } }, async (request, reply) =>
    reply.code(201).send(ok(await plans.create(request.body, auditContext(request)), M.created)),
  );

  app.put('/:id', { schema: { params: idParams, body: planUpdateSchema, response: { 200: envelope(planSchema) } } }, async (request) => {
    const { plan, toggle } = await plans.update(request.params.id, request.body, auditContext(request));
    app.radius?.plansChanged();
    return ok(plan, toggle ? (plan.status === 'active' ? M.activated : M.deactivated) : M.updated);
  });

  app.delete('/:id', { schema: { params: idParams, response: { 200: envelope(z.null()) } } }, async (request) => {
    await plans.delete(request.params.id, auditContext(request));
    return ok(null, M.deleted);
  });
};

export default planRoutes;
