/**
 * The suspended customer's page (issue 38), outside /api like the hotspot page:
 *   GET  /suspended               where the NAS sends a walled-garden customer's web traffic: the requester's
 *                                 address (request.ip; behind a reverse proxy set TRUST_PROXY so it is the
 *                                 customer's, not the proxy's) finds the open RADIUS session with that
 *                                 Framed-IP-Address and its subscription; a suspended one is sent on (303) to its
 *                                 signed link, anything else gets a page saying so (and naming nobody)
 *   GET  /suspended/<token>       the signed link (token.ts; also for messages): why the service is suspended, the
 *                                 open invoice and a Pay button. 403 for a forged or expired link.
 *   POST /suspended/<token>/pay   starts a checkout for that invoice as its customer (the payments service, as the
 *                                 customer's own Pay button does) and sends the browser (303) to the gateway
 * Paying it reactivates the subscription; the payment's webhook has its walled-garden sessions disconnected
 * (payments/routes.ts → radius accessChanged 'reactivated'), so the next login gets the plan within seconds.
 * Every request counts against the address's limit (SUSPENDED_RATE_LIMIT); the page is in the customer's
 * language, else the browser's among the offered ones, else the ISP's default.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { acceptedLanguages, isLanguage, type LanguageCode, pickLanguage } from '../../../contract/languages';
import type { PublicSettings } from '../../../contract/schemas/settings';
import { AppError } from '../../lib/errors';
import { returnOrigin } from '../../lib/return-origin';
import { paymentServiceDeps } from '../payments/deps';
import { PaymentService } from '../payments/service';
import { suspendedState, subscriptionAtAddress, type SuspendedState } from './lookup';
import { renderNotice, renderSuspended, SUSPENDED_PAGE_CSP } from './page';
import { signSuspendedToken, verifySuspendedToken } from './token';

const SUSPENDED_PATH = '/suspended';
/** Requests per address a minute: a person reloading, not someone walking through addresses or tokens. */
const SUSPENDED_RATE_LIMIT = { max: 30, windowMs: 60_000 } as const;
const TOKEN_MAX = 128;

const suspendedRoutes: FastifyPluginAsync = async (app) => {
  const payments = new PaymentService(paymentServiceDeps(app));
  const limit = app.limitRequests({ nameSpace: 'suspended-ip:', ...SUSPENDED_RATE_LIMIT });

  // The Pay button's form posts nothing but its address; browsers still send the form content type.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, _body, done) => done(null, {}),
  );

  const languageFor = (request: FastifyRequest, settings: PublicSettings, own?: string | null): LanguageCode =>
    isLanguage(own)
      ? own
      : pickLanguage(
          acceptedLanguages(request.headers['accept-language']),
          settings.languages.offered,
          settings.languages.default,
        );

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .header('content-security-policy', SUSPENDED_PAGE_CSP)
      .type('text/html; charset=utf-8')
      .send(body);

  /** The limit first: a 429 page past it (true when answered). */
  const limited = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    try {
      await limit(request);
      return false;
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 429) throw error;
      const settings = await app.settings.publicSettings();
      for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
      html(reply, 429, renderNotice(settings, languageFor(request, settings), 'tooMany'));
      return true;
    }
  };

  /** The subscription a token names and its state, or the 403 page already sent. */
  const fromToken = async (
    request: FastifyRequest<{ Params: { token: string } }>,
    reply: FastifyReply,
  ): Promise<{ state: SuspendedState; settings: PublicSettings; language: LanguageCode } | null> => {
    const settings = await app.settings.publicSettings();
    const check =
      request.params.token.length <= TOKEN_MAX
        ? verifySuspendedToken(app.secretBox, request.params.token, app.clock.now())
        : ({ ok: false, why: 'bad' } as const);
    const state = check.ok ? await suspendedState(app.db, check.subscriptionId) : null;
    if (!check.ok || !state) {
      html(
        reply,
        403,
        renderNotice(
          settings,
          languageFor(request, settings),
          !check.ok && check.why === 'expired' ? 'expiredLink' : 'badLink',
        ),
      );
      return null;
    }
    return { state, settings, language: languageFor(request, settings, state.language) };
  };

  app.get(SUSPENDED_PATH, async (request, reply) => {
    if (await limited(request, reply)) return reply;
    const subscriptionId = await subscriptionAtAddress(app.db, request.ip);
    const state = subscriptionId ? await suspendedState(app.db, subscriptionId) : null;
    if (state?.status === 'suspended') {
      const token = signSuspendedToken(app.secretBox, state.subscriptionId, app.clock.now());
      return reply.header('cache-control', 'no-store').redirect(`${SUSPENDED_PATH}/${token}`, 303);
    }
    const settings = await app.settings.publicSettings();
    return html(reply, 200, renderNotice(settings, languageFor(request, settings), state ? 'notSuspended' : 'unknown'));
  });

  app.get<{ Params: { token: string } }>(`${SUSPENDED_PATH}/:token`, async (request, reply) => {
    if (await limited(request, reply)) return reply;
    const found = await fromToken(request, reply);
    if (!found) return reply;
    const { state, settings, language } = found;
    if (state.status !== 'suspended') return html(reply, 200, renderNotice(settings, language, 'notSuspended'));
    return html(reply, 200, renderSuspended(settings, state, request.params.token, language));
  });

  app.post<{ Params: { token: string } }>(`${SUSPENDED_PATH}/:token/pay`, async (request, reply) => {
    if (await limited(request, reply)) return reply;
    const found = await fromToken(request, reply);
    if (!found) return reply;
    const { state, settings, language } = found;
    if (state.status !== 'suspended') return html(reply, 409, renderNotice(settings, language, 'notSuspended'));
    if (!state.invoice) return html(reply, 409, renderSuspended(settings, state, request.params.token, language));
    const failed = (status: number) =>
      html(reply, status, renderSuspended(settings, state, request.params.token, language, 'page.suspended.payFailed'));
    let paymentUrl: string | null;
    try {
      const started = await payments.initiate(
        { id: state.userId, role: 'user' },
        { invoice_id: state.invoice.id },
        returnOrigin(request, app.config),
      );
      paymentUrl = started.paymentUrl;
      request.log.info(
        { subscriptionId: state.subscriptionId, invoice: state.invoice.number, payment: started.payment.id },
        'suspended customer started a payment from the suspended page',
      );
    } catch (error) {
      // No gateway active, the invoice paid meanwhile: said on the page, in the customer's language.
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      request.log.warn({ err: error, subscriptionId: state.subscriptionId }, 'suspended page: payment not started');
      return failed(error.statusCode);
    }
    // A gateway without a hosted checkout (none of the online ones) has nowhere to send the browser.
    if (!paymentUrl) return failed(409);
    return reply.header('cache-control', 'no-store').redirect(paymentUrl, 303);
  });
};

export default suspendedRoutes;
