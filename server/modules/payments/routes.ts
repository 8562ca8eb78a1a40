/**
 * /api/payments: initiate, status, provider webhooks, the sandbox's hosted checkout, manual payments.
 * The webhook and sandbox form routes live in a child plugin whose body parser keeps the raw bytes (the
 * signature is computed over them); the others parse JSON as usual.
 */
import { topUpSubscriptionsOf } from '../top-ups/service';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, pageSchema } from '../../../contract/envelope';
import {
  PAYMENT_MESSAGES as M,
  manualPaymentInputSchema,
  paymentInitiatedSchema,
  paymentInitiateInputSchema,
  paymentListItemSchema,
  paymentListQuerySchema,
  paymentSchema,
  paymentStatusSchema,
} from '../../../contract/schemas/payment';
import { CREDIT_MESSAGES, refundInputSchema } from '../../../contract/schemas/credit';
import { WebhookEventIgnored, type StripeApiAddress } from '../../integrations/payments';
import { buildSandboxWebhook } from '../../integrations/payments/sandbox';
import { unauthorized } from '../../lib/errors';
import { returnOrigin } from '../../lib/return-origin';
import { auditContext, SYSTEM } from '../audit/trail';
import { sandboxCheckoutPage, sandboxNotFoundPage } from './checkout-page';
import { listPayments } from './list';
import { paymentServiceDeps } from './deps';
import { PaymentService, statusMessage, toPayment, type Caller, type CompletionOutcome } from './service';

/** What a provider's webhook is answered: what the event did to its payment (`ignored`: an event type not acted on). */
const webhookReceiptSchema = z.object({
  received: z.literal(true),
  outcome: z.enum([
    'paid',
    'duplicate',
    'already_paid',
    'unchanged',
    'mismatch',
    'not_counted',
    'ignored',
  ] satisfies Array<CompletionOutcome | 'ignored'>),
  payment: paymentSchema.nullable(),
});

const paymentRoutes: FastifyPluginAsyncZod<{ stripeApi?: StripeApiAddress }> = async (app, opts) => {
  const shared = paymentServiceDeps(app, opts.stripeApi);
  const { gateways, repository } = shared;
  const service = new PaymentService({
    ...shared,
    onInvoicePaid: async (invoiceId, reactivated) => {
      // A suspended subscription paid up (issue 38): its walled-garden sessions end now, and the next login gets
      // the plan (the customer is back within seconds, not at the walled garden's Session-Timeout).
      if (reactivated) app.radius?.accessChanged(reactivated, 'reactivated');
      // A fair-use top-up paid (issue 36): its subscription's live sessions get the new rate.
      for (const subscriptionId of await topUpSubscriptionsOf(app.db, invoiceId))
        app.radius?.accessChanged(subscriptionId, 'fair_use');
      await app.billing.notices.paymentReceived(invoiceId);
    },
    autopay: app.autopay,
  });
  const caller = (request: { user?: { id: string; role: Caller['role'] } | null }): Caller => {
    if (!request.user) throw unauthorized();
    return { id: request.user.id, role: request.user.role };
  };

  // The billing team's payments screen (admin, billing, support): every payment, newest first, paged and filtered.
  app.get(
    '/',
    { schema: { querystring: paymentListQuerySchema, response: { 200: envelope(pageSchema(paymentListItemSchema)) } } },
    async (request) => ok(await listPayments(repository, request.query), M.list),
  );

  app.post(
    '/initiate',
    { schema: { body: paymentInitiateInputSchema, response: { 201: envelope(paymentInitiatedSchema) } } },
    // The customer comes back to the origin they paid from when it is allowed (server/lib/return-origin.ts).
    async (request, reply) =>
      reply
        .code(201)
        .send(
          ok(await service.initiate(caller(request), request.body, returnOrigin(request, app.config)), M.initiated),
        ),
  );

  app.get(
    '/status/:id',
    { schema: { params: z.object({ id: z.string() }), response: { 200: envelope(paymentStatusSchema) } } },
    async (request) => {
      const payment = await service.status(caller(request), request.params.id);
      return ok({ payment }, statusMessage(payment.status));
    },
  );

  app.post(
    '/invoices/:id/manual',
    {
      schema: {
        params: z.object({ id: z.string() }),
        body: manualPaymentInputSchema,
        response: { 201: envelope(paymentSchema) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          ok(
            await service.recordManual(caller(request), request.params.id, request.body, auditContext(request)),
            M.manualRecorded,
          ),
        ),
  );

  // Staff refund a paid payment through its provider, or with {"to": "credit"} to the customer's credit;
  // the payment and its invoice become refunded.
  app.post(
    '/:id/refund',
    {
      schema: {
        params: z.object({ id: z.string().uuid({ message: 'id must be a valid payment id' }) }),
        body: refundInputSchema,
        response: { 200: envelope(paymentSchema) },
      },
    },
    async (request) => {
      const to = request.body?.to ?? 'provider';
      return ok(
        await service.refundByStaff(request.params.id, auditContext(request), to),
        to === 'credit' ? CREDIT_MESSAGES.refundedToCredit : M.refunded,
      );
    },
  );

  app.get(
    '/invoices/:id/payments',
    {
      schema: {
        params: z.object({ id: z.string().uuid({ message: 'id must be a valid invoice id' }) }),
        response: { 200: envelope(z.array(paymentSchema)) },
      },
    },
    async (request) => ok(await service.listForInvoice(request.params.id), M.invoicePayments),
  );

  app.get(
    '/sandbox/checkout/:transactionId',
    { schema: { params: z.object({ transactionId: z.string() }) } },
    async (request, reply) => {
      const found = await service.sandboxCheckout(request.params.transactionId);
      reply
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
      if (!found) return reply.code(404).type('text/html; charset=utf-8').send(sandboxNotFoundPage());
      const { payment, invoice } = found;
      return reply.type('text/html; charset=utf-8').send(
        sandboxCheckoutPage({
          transactionId: payment.transactionId,
          invoiceNumber: invoice.number,
          amount: payment.amount,
          currency: payment.currency,
          status: payment.status,
        }),
      );
    },
  );

  // Raw-body routes: provider webhooks (signature over the exact bytes) and the checkout page's forms.
  await app.register(async (rawPlugin) => {
    const raw = rawPlugin.withTypeProvider<ZodTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    raw.post(
      '/webhooks/:provider',
      { schema: { params: z.object({ provider: z.string() }), response: { 200: envelope(webhookReceiptSchema) } } },
      async (request) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        try {
          // A provider's word moves the money: the system acts, the request that carried it is named.
          const audit = { ...SYSTEM, ip: request.ip.slice(0, 64), requestId: String(request.id) };
          const { result, message } = await service.handleWebhook(
            request.params.provider,
            rawBody,
            request.headers,
            audit,
          );
          return ok(
            {
              received: true as const,
              outcome: result.outcome,
              payment: result.payment ? toPayment(result.payment) : null,
            },
            message,
          );
        } catch (error) {
          // Validly signed, but an event type the portal does not act on: 200, or the provider retries it for days.
          if (error instanceof WebhookEventIgnored)
            return ok({ received: true as const, outcome: 'ignored' as const, payment: null }, 'Event ignored');
          throw error;
        }
      },
    );

    // The payer's decision: the server sends itself the provider's signed webhook, verified like any other.
    for (const decision of ['approve', 'decline'] as const) {
      raw.post(
        `/sandbox/checkout/:transactionId/${decision}`,
        { schema: { params: z.object({ transactionId: z.string() }) } },
        async (request, reply) => {
          const found = await service.sandboxCheckout(request.params.transactionId);
          if (!found) return reply.code(404).type('text/html; charset=utf-8').send(sandboxNotFoundPage());
          const { payment, invoice, gateway } = found;
          if (payment.status === 'pending' && gateway) {
            const secret = gateways.openCredentials(gateway).webhook_secret ?? '';
            const webhook = buildSandboxWebhook(
              {
                type: decision === 'approve' ? 'payment.succeeded' : 'payment.failed',
                transactionId: payment.transactionId,
                amount: payment.amount,
                currency: payment.currency,
              },
              secret,
              Math.floor(app.clock.now().getTime() / 1000),
            );
            const answer = await app.inject({
              method: 'POST',
              url: '/api/payments/webhooks/sandbox',
              headers: webhook.headers,
              payload: webhook.body,
            });
            if (answer.statusCode >= 500)
              request.log.error({ status: answer.statusCode, body: answer.body }, 'sandbox webhook failed');
          }
          const after = (await service.paymentByTransaction('sandbox', payment.transactionId)) ?? payment;
          // Back to the portal origin the payer is on: the form posts to the checkout page's own origin, which
          // initiate chose by the same rule; the return_url query is never trusted (no open redirect).
          return reply.redirect(
            `${returnOrigin(request, app.config)}/invoice/${invoice.id}?payment=${after.status}`,
            303,
          );
        },
      );
    }
  });
};

export default paymentRoutes;
