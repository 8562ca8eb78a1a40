/**
 * /api/ipam (issue 22): networks and their address maps, who had an address at a time, and a subscription's
 * addressing (/api/subscriptions/:id/address). Admin and technicians change them, support reads (role matrix).
 * A change of what a NAS is told for a subscription reaches its live sessions through the RADIUS module.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import {
  ipAddressListQuerySchema,
  ipAddressMapSchema,
  ipHistoryQuerySchema,
  ipHistorySchema,
  ipNetworkInputSchema,
  ipNetworkListQuerySchema,
  ipNetworkPageSchema,
  ipNetworkSchema,
  ipNetworkUpdateSchema,
  subscriptionAddressInputSchema,
  subscriptionAddressSchema,
} from '../../../contract/schemas/ipam';
import { RADIUS_SUBSCRIPTION_CHANGED } from '../radius/plugin';
import { auditContext } from '../audit/trail';
import { addressHistory } from './history';
import { IPAM_MESSAGES as M, IpamService } from './service';

const idParams = z.object({ id: z.string() });

/** Released addresses of subscriptions that ended: checked this often (and on every subscription change). */
export const IPAM_QUARANTINE_JOB = 'ipam-quarantine';
const QUARANTINE_EVERY_SECONDS = 300;

export const ipamRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new IpamService({ db: app.db, clock: app.clock });

  app.get(
    '/networks',
    { schema: { querystring: ipNetworkListQuerySchema, response: { 200: envelope(ipNetworkPageSchema) } } },
    async (request) => ok(await service.list(request.query), M.list),
  );
  app.get(
    '/networks/:id',
    { schema: { params: idParams, response: { 200: envelope(ipNetworkSchema) } } },
    async (request) => ok(await service.get(request.params.id), M.detail),
  );
  app.post(
    '/networks',
    { schema: { body: ipNetworkInputSchema, response: { 201: envelope(ipNetworkSchema) } } },
    async (request, reply) =>
      reply.code(201).send(ok(await service.create(request.body, auditContext(request)), M.created)),
  );
  app.put(
    '/networks/:id',
    { schema: { params: idParams, body: ipNetworkUpdateSchema, response: { 200: envelope(ipNetworkSchema) } } },
    async (request) => {
      const updated = await service.update(request.params.id, request.body, auditContext(request));
      // A pool's name or a network's purpose may be in what a NAS is told: every directory reads again.
      app.radius?.plansChanged();
      return ok(updated, M.updated);
    },
  );
  app.delete(
    '/networks/:id',
    { schema: { params: idParams, response: { 200: envelope(z.null()) } } },
    async (request) => {
      await service.delete(request.params.id, auditContext(request));
      return ok(null, M.deleted);
    },
  );
  app.get(
    '/networks/:id/addresses',
    {
      schema: {
        params: idParams,
        querystring: ipAddressListQuerySchema,
        response: { 200: envelope(ipAddressMapSchema) },
      },
    },
    async (request) => ok(await service.addresses(request.params.id, request.query), M.addresses),
  );
  app.get(
    '/history',
    { schema: { querystring: ipHistoryQuerySchema, response: { 200: envelope(ipHistorySchema) } } },
    async (request) => ok(await addressHistory(app.db, request.query), M.history),
  );
};

/** /api/subscriptions/:id/address. */
export const subscriptionAddressRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = new IpamService({ db: app.db, clock: app.clock });

  app.get(
    '/:id/address',
    { schema: { params: idParams, response: { 200: envelope(subscriptionAddressSchema) } } },
    async (request) =>
      // Customers read their own subscription's address (to set up a server or a firewall rule); staff any.
      ok(
        await service.getSubscriptionAddress(
          request.params.id,
          request.user?.role === 'user' ? request.user.id : undefined,
        ),
        M.address,
      ),
  );
  app.put(
    '/:id/address',
    {
      schema: {
        params: idParams,
        body: subscriptionAddressInputSchema,
        response: { 200: envelope(subscriptionAddressSchema) },
      },
    },
    async (request) => {
      const { address, changed } = await service.setSubscriptionAddress(
        request.params.id,
        request.body,
        auditContext(request),
      );
      // Live sessions keep the address they were given: they are disconnected, and the login that follows gets the new one.
      if (changed) app.radius?.accessChanged(request.params.id, 'address');
      return ok(address, M.assigned);
    },
  );
  app.delete(
    '/:id/address',
    { schema: { params: idParams, response: { 200: envelope(subscriptionAddressSchema) } } },
    async (request) => {
      const { address, changed } = await service.releaseSubscriptionAddress(request.params.id, auditContext(request));
      if (changed) app.radius?.accessChanged(request.params.id, 'address');
      return ok(address, M.released);
    },
  );

  // A subscription that ended (expired, cancelled and over) gives its address to quarantine: on every change of
  // a subscription made in this process, and periodically for cancellations whose period ran out.
  const quarantine = (subscriptionId?: string) =>
    service.quarantineEnded(subscriptionId).then((ids) => {
      for (const id of ids) app.radius?.accessChanged(id, 'address');
    });
  const stop = app.changes.subscribe(RADIUS_SUBSCRIPTION_CHANGED, async (data, { local }) => {
    if (local && typeof data.id === 'string' && !data.credentials) await quarantine(data.id);
  });
  app.addHook('onClose', async () => stop());
  app.jobs.every(IPAM_QUARANTINE_JOB, QUARANTINE_EVERY_SECONDS, { expireInSeconds: 600 }, () => quarantine());
};
