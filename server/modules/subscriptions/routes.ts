/** /api/subscriptions (core): create with the first invoice, staff list, detail, the caller's active plan. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pageSchema } from '../../../contract/envelope';
import {
  activePlanSchema,
  orderSchema,
  subscriptionCancelInputSchema,
  subscriptionStatusInputSchema,
  subscriptionUpgradeInputSchema,
  subscriptionWithInvoiceSchema,
  subscriptionCreatedSchema,
  subscriptionInputSchema,
  subscriptionListQuerySchema,
  subscriptionSchema,
} from '../../../contract/schemas/subscription';
import { unauthorized } from '../../lib/errors';
import { auditContext } from '../audit/trail';
import { removeInstallationFiles } from '../installations/files';
import { activePlanOf, ordersOf } from './customer-views';
import { createSubscriptionRepository } from './repository';
import { SUBSCRIPTION_MESSAGES as M, SubscriptionService, type Caller } from './service';

const idParams = z.object({ id: z.string() });

const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const repository = createSubscriptionRepository(app.db);
  const service = new SubscriptionService({
    db: app.db,
    repository,
    clock: app.clock,
    taxRateBp: async () => (await app.settings.stored()).tax_rate_bp,
    onInvoiceIssued: () => app.settings.invalidate(),
    onInvoiceCommitted: (invoiceId) => app.billing.notices.invoiceIssued(invoiceId),
    onAccessChanged: (subscriptionId, change) => app.radius?.accessChanged(subscriptionId, change),
    // The subscription is deleted by then: a store that fails here leaves orphaned photos, logged, not a 500.
    onInstallationsDeleted: (ids) =>
      removeInstallationFiles(app.storage, ids).catch((err: unknown) =>
        app.log.warn({ err, installations: ids }, 'could not remove the photos of deleted installations'),
      ),
  });
  const caller = (request: { user?: { id: string; role: Caller['role'] } | null }): Caller => {
    if (!request.user) throw unauthorized();
    return { id: request.user.id, role: request.user.role };
  };

  app.post(
    '/',
    { schema: { body: subscriptionInputSchema, response: { 201: envelope(subscriptionCreatedSchema) } } },
    async (request, reply) =>
      reply.code(201).send(ok(await service.create(caller(request), request.body, auditContext(request)), M.created)),
  );

  app.get(
    '/',
    {
      schema: { querystring: subscriptionListQuerySchema, response: { 200: envelope(pageSchema(subscriptionSchema)) } },
    },
    async (request) => ok(await service.list(request.query), M.list),
  );

  app.get('/active-plan', { schema: { response: { 200: envelope(activePlanSchema) } } }, async (request) =>
    ok(await activePlanOf(repository, caller(request).id), M.activePlan),
  );

  app.get('/orders', { schema: { response: { 200: envelope(z.array(orderSchema)) } } }, async (request) =>
    ok(await ordersOf(repository, caller(request).id), M.orders),
  );

  app.patch(
    '/:id/status',
    {
      schema: {
        params: idParams,
        body: subscriptionStatusInputSchema,
        response: { 200: envelope(subscriptionSchema) },
      },
    },
    async (request) =>
      ok(
        await service.changeStatus(caller(request), request.params.id, request.body, auditContext(request)),
        M.statusChanged(request.body.status),
      ),
  );

  app.post(
    '/:id/cancel',
    {
      schema: {
        params: idParams,
        body: subscriptionCancelInputSchema.optional(),
        response: { 200: envelope(subscriptionSchema) },
      },
    },
    async (request) =>
      ok(
        await service.cancel(
          caller(request),
          request.params.id,
          request.body ?? { suspension_reason: null, immediate: false },
          auditContext(request),
        ),
        M.cancelled,
      ),
  );

  app.patch(
    '/:id/renew',
    { schema: { params: idParams, response: { 200: envelope(subscriptionWithInvoiceSchema) } } },
    async (request) => ok(await service.renew(caller(request), request.params.id, auditContext(request)), M.renewed),
  );

  app.patch(
    '/:id/upgrade',
    {
      schema: {
        params: idParams,
        body: subscriptionUpgradeInputSchema,
        response: { 200: envelope(subscriptionWithInvoiceSchema) },
      },
    },
    async (request) =>
      ok(
        await service.upgrade(caller(request), request.params.id, request.body.plan_id, auditContext(request)),
        M.upgraded,
      ),
  );

  app.delete('/:id', { schema: { params: idParams, response: { 200: envelope(z.null()) } } }, async (request) => {
    await service.remove(request.params.id, auditContext(request));
    return ok(null, M.deleted);
  });

  // The detail carries its autopay state (issue 21) for the customer and staff.
  app.get(
    '/:id',
    { schema: { params: idParams, response: { 200: envelope(subscriptionSchema) } } },
    async (request) => {
      const subscription = await service.get(caller(request), request.params.id);
      return ok({ ...subscription, autopay: await app.autopay.state(subscription.id) }, M.detail);
    },
  );
};

export default subscriptionRoutes;
