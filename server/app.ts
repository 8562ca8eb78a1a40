/**
 * The application as a Fastify instance: external plugins first, then the app's own plugins, then the routes
 * under /api. server.ts only opens the database and listens; tests call buildApp and use app.inject.
 */
import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
} from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { createResponseSerializer } from './lib/response-serializer';
import { API_BASE } from '../contract/product';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Mailer } from './integrations/mail/mailer';
import { systemClock, type Clock } from './lib/clock';
import accessPlugin, { isApiPath } from './plugins/access';
import authPlugin from './plugins/auth';
import dbPlugin from './plugins/db';
import errorsPlugin, { frameworkErrorReply } from './plugins/errors';
import inputBoundaryPlugin from './plugins/input-boundary';
import mailPlugin from './plugins/mail';
import rateLimitPlugin from './plugins/rate-limit';
import securityHeadersPlugin, { isHashedSubresource } from './plugins/security-headers';
import openApiPlugin from './plugins/openapi';
import settingsPlugin from './plugins/settings';
import spaPlugin from './plugins/static';
import siteIndexPlugin from './plugins/site-index';
import authRoutes from './modules/auth/routes';
import healthRoutes from './modules/health/routes';
import mailRoutes from './modules/mail/routes';
import contactRoutes from './modules/contact/routes';
import { CRUD_MODULES } from './crud';
import settingsRoutes from './modules/settings/routes';
import apiTokenRoutes from './modules/api-tokens/routes';
import voucherRoutes from './modules/vouchers/routes';
import bulkMessageRoutes from './modules/bulk-messages/routes';
import topUpRoutes from './modules/top-ups/routes';
import subscriptionRoutes from './modules/subscriptions/routes';
import invoiceRoutes from './modules/invoices/routes';
import paymentRoutes from './modules/payments/routes';
import creditRoutes from './modules/credit/routes';
import sandboxGuardPlugin from './plugins/sandbox-guard';
import type { StripeApiAddress } from './integrations/payments';
import billingPlugin from './modules/billing/plugin';
import autopayPlugin from './modules/autopay/plugin';
import autopayRoutes from './modules/autopay/routes';
import billingRoutes from './modules/billing/routes';
import reconciliationRoutes from './modules/reconciliation/routes';
import ticketRoutes from './modules/tickets/routes';
import userRoutes from './modules/users/routes';
import deviceRoutes from './modules/devices/routes';
import deviceBackupsPlugin from './modules/device-backups/plugin';
import libreqosPlugin from './modules/libreqos/plugin';
import { libreqosRoutes } from './modules/libreqos/routes';
import backupsPlugin from './modules/backups/plugin';
import backupRoutes from './modules/backups/routes';
import auditRoutes from './modules/audit/routes';
import jobRoutes from './modules/jobs/routes';
import systemPlugin from './modules/system/plugin';
import systemRoutes from './modules/system/routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set on SIGTERM before closing: readiness answers 503 "draining" while requests are still served. */
    draining: boolean;
  }
}
import changesPlugin from './plugins/changes';
import jobsPlugin from './plugins/jobs';
import { auditRetentionPlugin } from './modules/audit/retention';
import { embeddedVacuumPlugin } from './modules/system/embedded-vacuum';
import { paymentExpiryPlugin } from './modules/payments/expiry';
import deviceBackupRoutes from './modules/device-backups/routes';
import dashboardRoutes from './modules/dashboard/routes';
import installationRoutes, { serviceAccessRoutes } from './modules/installations/routes';
import usageRoutes from './modules/usage/routes';
import homeRoutes from './modules/home/routes';
import radiusPlugin from './modules/radius/plugin';
import messagingPlugin from './modules/messaging/plugin';
import messagingRoutes from './modules/messaging/routes';
import trafficPlugin from './modules/traffic/plugin';
import outagesPlugin from './modules/outages/plugin';
import outageRoutes from './modules/outages/routes';
import metricsPlugin from './plugins/metrics';
import trafficRoutes from './modules/traffic/routes';
import { ipamRoutes, subscriptionAddressRoutes } from './modules/ipam/routes';
import hotspotRoutes from './modules/hotspot/routes';
import suspendedRoutes from './modules/suspended/routes';

export interface BuildAppOptions {
  config: Config;
  /** An open, migrated database; its owner closes it (closing the app does not). */
  database: Database;
  /** Source of "now" for every time rule. Default: the system clock. */
  clock?: Clock;
  /** Outgoing mail: a Mailer, null to only log and keep in the outbox, undefined for SMTP_URL (or log). */
  mailer?: Mailer | null;
  /** Fastify logger: false to silence; an options object (e.g. {level, stream}) over the configured one. */
  logger?: FastifyServerOptions['logger'];
  /** Extra route plugins mounted under /api (they are guarded like every other API route). */
  extraRoutes?: FastifyPluginAsync[];
  /** Where the Stripe SDK sends its requests (a local fake in tests); default: config.stripeApiBase, else Stripe. */
  stripeApi?: StripeApiAddress;
}

/** Header names and body fields that must never reach the log. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.passwordHash',
  '*.token',
  '*.refreshToken',
];

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const fastifyOptions: FastifyServerOptions = {
    // Options given as an object are laid over the defaults, so the redaction stays unless replaced.
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
            // Readable lines for a person at a terminal (pino-pretty in a worker thread); JSON for collectors.
            ...(config.logFormat === 'pretty' && typeof options.logger !== 'object'
              ? {
                  transport: {
                    target: 'pino-pretty',
                    options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true },
                  },
                }
              : {}),
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    // A hop count trusts that many proxies in front of us (Fastify's types do not list the number form).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, i: number) =>
              i < hops
          )(config.trustProxy)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Keep a caller's x-request-id (if sane) so a request can be followed across services.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    // A malformed %-escape or an over-long path parameter: the failure envelope too (see frameworkErrorReply).
    frameworkErrors: frameworkErrorReply,
    // One line per completed request instead of Fastify's two (see the onResponse hook below). Through Fastify's
    // LogController (its top-level disableRequestLogging is deprecated, FSTDEP023).
    logController: new LogController({ disableRequestLogging: true }),
    // A drain loses nothing (issue 33): a request that reached us while the server closes is served (with
    // Connection: close, see the hook below), not answered 503 — it was sent before the listener closed, and a POST
    // is not retried by anyone. New connections are refused at connect once the listener is closed.
    return503OnClosing: false,
    // Plugins read the database as they start, and the job queue creates its schema and queues on the first start:
    // on the embedded database of a small or busy machine that passed Fastify's 10 s default (a CI run under load
    // failed a production start with "Plugin did not start in time").
    pluginTimeout: 60_000,
  };
  const app = Fastify(fastifyOptions);
  // A start that fails half-way closes what did start (RADIUS sockets, the job queue), so it holds no port.
  try {
    app.decorate('draining', false);
    // While draining (and closing), every answer tells a keep-alive client to close its connection: its next request
    // goes out on a new connection, to a node that is not going away, instead of racing the close of this one.
    app.addHook('onRequest', async (_request, reply) => {
      if (app.draining) reply.header('connection', 'close');
    });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(createResponseSerializer({ check: !config.isProduction }));
    // Not on the hashed scripts and style sheets of the web app (their requests are not logged either; see below).
    app.addHook('onRequest', async (request, reply) => {
      if (!isHashedSubresource(request.url)) reply.header('x-request-id', request.id);
    });
    // One line per completed request: method, route, status, duration, user and (as reqId) the request id. The web
    // app's files and the health checks only at debug, so the log shows what people and integrations did.
    app.addHook('onResponse', async (request, reply) => {
      const url = request.url.split('?')[0];
      const quiet = !isApiPath(url) || url.startsWith(`${API_BASE}/health`);
      const level = reply.statusCode >= 500 ? 'error' : quiet ? 'debug' : 'info';
      request.log[level](
        {
          method: request.method,
          url,
          route: request.routeOptions.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          user: request.user?.id,
        },
        'request',
      );
    });

    // External plugins.
    await app.register(fastifyCookie, { secret: config.cookieSecret });
    await app.register(import('./plugins/compression')); // br/gzip answers above 1 KB, never downloads

    // The app's own plugins.
    await app.register(errorsPlugin);
    await app.register(inputBoundaryPlugin); // NUL bytes and lone surrogates: 400 naming the field, before any route
    await app.register(dbPlugin, { config, database: options.database, clock: options.clock ?? systemClock });
    await app.register(import('./plugins/storage')); // app.storage: the file store (DATA_DIR or S3_BUCKET)
    await app.register(changesPlugin);
    await app.register(jobsPlugin);
    await app.register(rateLimitPlugin);
    await app.register(settingsPlugin);
    await app.register(mailPlugin, { mailer: options.mailer });
    await app.register(messagingPlugin); // app.notifier: messages on the customer's channels (issue 38)
    await app.register(radiusPlugin);
    await app.register(billingPlugin);
    await app.register(autopayPlugin, { stripeApi: options.stripeApi }); // saved cards, off-session charges (issue 21)
    await app.register(deviceBackupsPlugin);
    await app.register(libreqosPlugin); // the LibreQoS shaper export and its scheduled file (issue 36)
    await app.register(backupsPlugin);
    await app.register(auditRetentionPlugin);
    await app.register(embeddedVacuumPlugin);
    await app.register(paymentExpiryPlugin); // abandoned checkouts expire, dead manual recordings fail (issue 31)
    await app.register(trafficPlugin);
    await app.register(outagesPlugin); // outages and maintenance windows: poller incidents, staff windows (issue 38)
    await app.register(systemPlugin); // this node's heartbeat and RADIUS counts (the system page, /metrics)
    await app.register(metricsPlugin);
    await app.register(authPlugin);
    await app.register(accessPlugin);
    await app.register(securityHeadersPlugin);
    await app.register(sandboxGuardPlugin); // production: the Sandbox provider's routes answer 404 unless allowed
    // Before the routes: the API reference collects them as they are added.
    await app.register(openApiPlugin);
    await app.register(spaPlugin, { distDir: config.serveSpa ? config.distDir : null });
    await app.register(siteIndexPlugin); // /robots.txt and /sitemap.xml (issue 34)
    await app.register(hotspotRoutes); // /hotspot/login: the MikroTik hotspot's external login page (outside /api)
    await app.register(suspendedRoutes); // /suspended: where a walled-garden customer's web traffic lands (issue 38)

    // Routes.
    await app.register(
      async (api) => {
        await api.register(healthRoutes);
        await api.register(authRoutes, { prefix: '/auth' });
        await api.register(mailRoutes, { prefix: '/mail' });
        // The plain resources (plans, payment gateways, contact messages): each at its own paths from the role matrix.
        for (const crud of CRUD_MODULES) await api.register(crud);
        await api.register(subscriptionRoutes, { prefix: '/subscriptions' });
        await api.register(invoiceRoutes, { prefix: '/payments' });
        await api.register(paymentRoutes, { prefix: '/payments', stripeApi: options.stripeApi });
        await api.register(billingRoutes, { prefix: '/billing' });
        await api.register(reconciliationRoutes, { prefix: '/billing/reconciliation' });
        await api.register(autopayRoutes); // /payments/methods, /subscriptions/:id/autopay, the sandbox's set-up page
        await api.register(ticketRoutes, { prefix: '/tickets' });
        await api.register(userRoutes, { prefix: '/users' });
        await api.register(creditRoutes); // /credit and /users/:id/credit (the customer credit ledger)
        await api.register(deviceRoutes, { prefix: '/devices' });
        await api.register(deviceBackupRoutes);
        await api.register(dashboardRoutes, { prefix: '/dashboard' });
        await api.register(installationRoutes, { prefix: '/installations' });
        await api.register(serviceAccessRoutes, { prefix: '/subscriptions' });
        await api.register(usageRoutes, { prefix: '/usage' });
        await api.register(outageRoutes); // /status (public) and /incidents/:id/resolve (issue 38)
        await api.register(homeRoutes); // /me/home: the customer's home in one answer (issue 34)
        await api.register(topUpRoutes); // /me/top-up-packages, /me/subscriptions/:id/top-ups: fair-use top-ups (issue 36)
        await api.register(trafficRoutes, { prefix: '/devices' });
        await api.register(ipamRoutes, { prefix: '/ipam' });
        await api.register(subscriptionAddressRoutes, { prefix: '/subscriptions' });
        await api.register(libreqosRoutes, { prefix: '/exports/libreqos' });
        await api.register(messagingRoutes); // /me/message-preferences, /me/phone-verification, /messaging/... (issue 38)
        await api.register(contactRoutes);
        await api.register(settingsRoutes, { prefix: '/settings' });
        await api.register(backupRoutes, { prefix: '/backups' });
        await api.register(auditRoutes, { prefix: '/audit' });
        await api.register(jobRoutes, { prefix: '/jobs' });
        await api.register(systemRoutes, { prefix: '/system' });
        await api.register(apiTokenRoutes, { prefix: '/api-tokens' });
        await api.register(voucherRoutes, { prefix: '/vouchers' });
        await api.register(bulkMessageRoutes, { prefix: '/bulk-messages' }); // staff messages to a segment (issue 38)
        for (const extra of options.extraRoutes ?? []) await api.register(extra);
      },
      { prefix: API_BASE },
    );

    await app.ready();
    return app;
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
}
