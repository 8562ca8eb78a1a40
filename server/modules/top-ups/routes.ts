/**
 * Top-ups for customers (issue 36): the packages on sale, and buying one for a subscription's current cycle
 * (POST /api/me/subscriptions/:id/top-ups {package_id}): a pending top-up and its invoice, paid through the
 * usual checkout (or at once by the customer's credit). Asking again for the same package in the same cycle
 * while it is pending returns the same top-up and invoice (200 instead of 201).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import { topUpBoughtSchema, topUpBuySchema, topUpPackageSchema } from '../../../contract/schemas/top-up';
import type { SubscriptionTopUpRow, TopUpPackageRow } from '../../db/schema/fair-use';
import { unauthorized } from '../../lib/errors';
import { TOP_UP_MESSAGES as M, activePackages, buyTopUp } from './service';

export const toPackage = (p: TopUpPackageRow) => ({
  id: p.id,
  name: p.name,
  kind: p.kind,
  data_gb: p.dataGb,
  price: p.price,
  currency: p.currency,
  status: p.status,
  sort_order: p.sortOrder,
});

export const toTopUp = (t: SubscriptionTopUpRow) => ({
  id: t.id,
  subscription_id: t.subscriptionId,
  package_id: t.packageId,
  kind: t.kind,
  extra_bytes: t.extraBytes,
  price: t.price,
  currency: t.currency,
  cycle_start: t.cycleStart.toISOString(),
  cycle_end: t.cycleEnd.toISOString(),
  invoice_id: t.invoiceId,
  status: t.status,
  activated_at: t.activatedAt?.toISOString() ?? null,
  created_at: t.createdAt.toISOString(),
});

const topUpRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me/top-up-packages',
    { schema: { response: { 200: envelope(z.array(topUpPackageSchema)) } } },
    async (request) => {
      if (!request.user) throw unauthorized();
      return ok((await activePackages(app.db)).map(toPackage), 'Top-up packages retrieved successfully');
    },
  );

  app.post(
    '/me/subscriptions/:id/top-ups',
    {
      schema: {
        params: z.object({ id: z.string().uuid() }),
        body: topUpBuySchema,
        response: { 200: envelope(topUpBoughtSchema), 201: envelope(topUpBoughtSchema) },
      },
    },
    async (request, reply) => {
      const user = request.user;
      if (!user) throw unauthorized();
      const { topUp, invoice, created } = await buyTopUp(app.db, {
        userId: user.id,
        subscriptionId: request.params.id,
        packageId: request.body.package_id,
        now: app.clock.now(),
        taxRateBp: (await app.settings.stored()).tax_rate_bp,
      });
      if (created) {
        app.settings.invalidate();
        if (invoice) void app.billing.notices.invoiceIssued(invoice.id);
        // Paid at once by credit: the live sessions get the new rate now.
        if (topUp.status === 'active') app.radius?.accessChanged(topUp.subscriptionId, 'fair_use');
      }
      return reply.code(created ? 201 : 200).send(
        ok(
          {
            top_up: toTopUp(topUp),
            invoice: invoice
              ? { id: invoice.id, number: invoice.number, status: invoice.status, total_amount: invoice.totalAmount }
              : null,
          },
          M.bought,
        ),
      );
    },
  );
};

export default topUpRoutes;
