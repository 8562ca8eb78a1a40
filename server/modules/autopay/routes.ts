/**
 * Autopay endpoints (issue 21): the caller's saved cards, removing one, a subscription's autopay state, turning it
 * on/off, starting a card set-up; and the sandbox's hosted set-up page (under /payments/sandbox/, which answers
 * 404 in production unless ALLOW_SANDBOX_PAYMENTS). Paths are absolute under /api (see contract/roles.ts).
 */
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import {
  AUTOPAY_MESSAGES as M,
  autopaySetupStartedSchema,
  autopayStateSchema,
  autopayToggleInputSchema,
  paymentMethodListQuerySchema,
  paymentMethodSchema,
} from '../../../contract/schemas/autopay';
import { buildSandboxWebhook, isSandboxTestCard, sandboxCard } from '../../integrations/payments/sandbox';
import { unauthorized } from '../../lib/errors';
import { returnOrigin } from '../../lib/return-origin';
import { auditContext } from '../audit/trail';
import { sandboxNotFoundPage } from '../payments/checkout-page';
import { sandboxSetupPage } from './sandbox-page';
import type { Caller } from './service';

const subscriptionParams = z.object({ id: z.string({ message: 'id must be a subscription id' }) });

const autopayRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.autopay;
  const caller = (request: { user?: { id: string; role: Caller['role'] } | null }): Caller => {
    if (!request.user) throw unauthorized();
    return { id: request.user.id, role: request.user.role };
  };

  app.get(
    '/payments/methods',
    {
      schema: { querystring: paymentMethodListQuerySchema, response: { 200: envelope(z.array(paymentMethodSchema)) } },
    },
    async (request) => ok(await service.listMethods(caller(request), request.query.user_id), M.methods),
  );

  app.delete(
    '/payments/methods/:id',
    { schema: { params: z.object({ id: z.string() }), response: { 200: envelope(z.object({ id: z.string() })) } } },
    async (request) => {
      await service.removeMethod(caller(request), request.params.id, auditContext(request));
      return ok({ id: request.params.id }, M.removed);
    },
  );

  app.get(
    '/subscriptions/:id/autopay',
    { schema: { params: subscriptionParams, response: { 200: envelope(autopayStateSchema) } } },
    async (request) => ok(await service.stateFor(caller(request), request.params.id), M.state),
  );

  app.patch(
    '/subscriptions/:id/autopay',
    {
      schema: {
        params: subscriptionParams,
        body: autopayToggleInputSchema,
        response: { 200: envelope(autopayStateSchema) },
      },
    },
    async (request) => {
      const state = await service.setEnabled(
        caller(request),
        request.params.id,
        request.body.enabled,
        auditContext(request),
      );
      return ok(state, request.body.enabled ? M.enabled : M.disabled);
    },
  );

  app.post(
    '/subscriptions/:id/autopay/setup',
    { schema: { params: subscriptionParams, response: { 201: envelope(autopaySetupStartedSchema) } } },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          ok(
            await service.startSetup(
              caller(request),
              request.params.id,
              returnOrigin(request, app.config),
              auditContext(request),
            ),
            M.setupStarted,
          ),
        ),
  );

  const pageHeaders = {
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  };

  app.get(
    '/payments/sandbox/setup/:transactionId',
    { schema: { params: z.object({ transactionId: z.string() }) } },
    async (request, reply) => {
      const found = await service.sandboxSetup(request.params.transactionId);
      reply.headers(pageHeaders).type('text/html; charset=utf-8');
      if (!found) return reply.code(404).send(sandboxNotFoundPage());
      return reply.send(sandboxSetupPage({ transactionId: found.setup.transactionId, status: found.setup.status }));
    },
  );

  // The customer's choice: the sandbox posts the portal its signed method.saved webhook, verified like any other.
  await app.register(async (rawPlugin) => {
    const raw = rawPlugin.withTypeProvider<ZodTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    raw.post(
      '/payments/sandbox/setup/:transactionId/:choice',
      { schema: { params: z.object({ transactionId: z.string(), choice: z.string() }) } },
      async (request, reply) => {
        const found = await service.sandboxSetup(request.params.transactionId);
        if (!found || !(isSandboxTestCard(request.params.choice) || request.params.choice === 'cancel')) {
          return reply.code(404).headers(pageHeaders).type('text/html; charset=utf-8').send(sandboxNotFoundPage());
        }
        const { setup, credentials } = found;
        let outcome = setup.status === 'completed' ? 'saved' : 'cancelled';
        if (setup.status === 'pending' && request.params.choice === 'cancel') {
          await service.cancelSandboxSetup(setup.id);
        } else if (setup.status === 'pending' && isSandboxTestCard(request.params.choice)) {
          const now = app.clock.now();
          const card = sandboxCard(request.params.choice, `sbxcus_${setup.userId}`, now);
          const webhook = buildSandboxWebhook(
            { type: 'method.saved', transactionId: setup.transactionId, card },
            credentials.webhook_secret ?? '',
            Math.floor(now.getTime() / 1000),
          );
          const answer = await app.inject({
            method: 'POST',
            url: '/api/payments/webhooks/sandbox',
            headers: webhook.headers,
            payload: webhook.body,
          });
          if (answer.statusCode >= 400)
            request.log.error({ status: answer.statusCode, body: answer.body }, 'sandbox method.saved webhook refused');
          outcome = answer.statusCode < 400 ? 'saved' : 'failed';
        }
        const target = setup.subscriptionId ? `/subscription/${setup.subscriptionId}` : '/dashboard';
        return reply.redirect(`${returnOrigin(request, app.config)}${target}?autopay=${outcome}`, 303);
      },
    );
  });
};

export default autopayRoutes;
