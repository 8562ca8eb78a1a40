/** /api/auth: thin handlers; the rules live in AuthService and SessionService. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../../contract/envelope';
import { REFRESH_COOKIE_NAME, REFRESH_COOKIE_PATH } from '../../../contract/product';
import {
  authDataSchema,
  changePasswordBodySchema,
  confirmEmailBodySchema,
  emailBodySchema,
  loginBodySchema,
  registerBodySchema,
  resetPasswordBodySchema,
  updateProfileBodySchema,
  verifyEmailQuerySchema,
} from '../../../contract/schemas/auth';
import { isApiTokenSecret } from '../../../contract/schemas/api-token';
import { publicUserSchema } from '../../../contract/schemas/user';
import { AppError, unauthorized } from '../../lib/errors';
import { auditContext, recordAudit } from '../audit/trail';
import { AUTH_MESSAGES } from './messages';
import { EMAIL_CHANGE_MESSAGES, EmailChanges } from './email-change';
import type { Db } from '../../db/client';
import { createUserRepository } from '../users/repository';
import { createAuthRepository } from './repository';
import {
  AuthService,
  loginSteps,
  MAIL_RATE_LIMIT,
  REGISTER_RATE_LIMIT,
  type LoginLimits,
  type SignedIn,
} from './service';
import { PERSISTENT_REFRESH_TTL_MS, SessionService, type IssuedRefreshToken, type RequestContext } from './sessions';

const userData = envelope(z.object({ user: publicUserSchema }));
const noData = envelope(z.null());

/** The e-mail address of a request body (validated by then), as accounts are keyed: trimmed, lower case. */
function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

function context(request: FastifyRequest): RequestContext {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : null, requestId: String(request.id) };
}

/** The refresh token from the signed cookie, or undefined when absent or tampered with. */
function readRefreshCookie(request: FastifyRequest): string | undefined {
  const raw = request.cookies[REFRESH_COOKIE_NAME];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}

function setRefreshCookie(request: FastifyRequest, reply: FastifyReply, refresh: IssuedRefreshToken): void {
  reply.setCookie(REFRESH_COOKIE_NAME, refresh.token, {
    httpOnly: true,
    sameSite: 'strict',
    path: REFRESH_COOKIE_PATH,
    secure: request.protocol === 'https',
    signed: true,
    // Without rememberMe: a browser-session cookie (the server still ends it after 24 h).
    ...(refresh.persistent ? { maxAge: PERSISTENT_REFRESH_TTL_MS / 1000 } : {}),
  });
}

function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE_NAME, {
    path: REFRESH_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
  });
}

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const repository = createAuthRepository(app.db);
  const sessions = new SessionService({
    repository,
    users: app.users,
    clock: app.clock,
    // A copied refresh token: the trail names the account whose sessions were ended and where the copy came from.
    onReuse: async (tx, token, ctx) => {
      const owner = await createUserRepository(tx).findById(token.userId);
      await recordAudit(
        tx,
        app.clock,
        {
          actor: { id: null, email: owner?.email ?? null, role: 'anonymous' },
          ip: ctx.ip?.slice(0, 64) ?? null,
          requestId: ctx.requestId ?? null,
        },
        {
          action: 'auth.refresh_token_reused',
          targetType: 'user',
          targetId: token.userId,
          changes: { sessions: { from: 'active', to: 'revoked' } },
        },
      );
    },
  });
  const defaultLanguage = async () => (await app.settings.stored()).languages.default;
  const auth = new AuthService({
    config: app.config,
    clock: app.clock,
    users: app.users,
    repository,
    sessions,
    accessTokens: app.accessTokens,
    mail: app.mail,
    emailChanges: new EmailChanges({ config: app.config, clock: app.clock, mail: app.mail, defaultLanguage }),
    defaultLanguage,
    transaction: (work) =>
      app.db.transaction((tx) => work(createUserRepository(tx as unknown as Db), tx as unknown as Db)),
  });

  // Sign-in: failed attempts per address (LOGIN_RATE_LIMIT in LOGIN_RATE_WINDOW_MINUTES, any accounts), and per
  // account and address together in growing steps (loginSteps). Once one is used up every attempt from there, even a
  // right one, waits; a success clears the account's count at that address. No limit is the account's alone, so
  // failures from other addresses never lock its owner out (issue 32).
  const loginWindow = { max: app.config.loginRateLimit, windowMs: app.config.loginRateWindowMinutes * 60_000 };
  const loginByIp = app.limitFailures({ nameSpace: 'login-ip:', ...loginWindow });
  // The address first, so every key of an account ends with its e-mail address.
  const accountAtAddress = (request: FastifyRequest) => `${request.ip}|${emailOf(request)}`;
  const loginByAccountAtAddress = loginSteps(loginWindow).map((step, i) =>
    app.limitFailures({ nameSpace: `login-account-ip-${i + 1}:`, ...step, key: accountAtAddress }),
  );
  const loginLimits = (request: FastifyRequest): LoginLimits => ({
    blockedFor: async () => {
      let wait = await loginByIp.blockedFor(request);
      for (const step of loginByAccountAtAddress) wait = Math.max(wait, await step.blockedFor(request));
      return wait;
    },
    failed: async () => {
      await loginByIp.failed(request);
      for (const step of loginByAccountAtAddress) await step.failed(request);
    },
    succeeded: async () => {
      for (const step of loginByAccountAtAddress) await step.clear(request);
    },
  });

  // Mail-sending endpoints: per IP address (before anything is read) and per e-mail address (once the body is).
  const mailLimit = { ...MAIL_RATE_LIMIT, message: AUTH_MESSAGES.tooManyRequests };
  const mailRateLimit = app.limitRequests({ nameSpace: 'mail-ip:', ...mailLimit });
  const mailAccountLimit = app.limitRequests({
    nameSpace: 'mail-account:',
    ...mailLimit,
    key: (request) => emailOf(request),
  });
  const registerRateLimit = app.limitRequests({
    nameSpace: 'register-ip:',
    ...REGISTER_RATE_LIMIT,
    message: AUTH_MESSAGES.tooManyRequests,
  });
  // A taken address's owner is mailed on every attempt: at most as often as "forgot password" mails them.
  const registerAccountLimit = app.limitRequests({
    nameSpace: 'register-account:',
    ...mailLimit,
    key: (request) => emailOf(request),
  });

  const respond = (request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn) => {
    setRefreshCookie(request, reply, signedIn.refresh);
    return { user: signedIn.user, tokens: { access: signedIn.access } };
  };

  app.post(
    '/login',
    { schema: { body: loginBodySchema, response: { 200: envelope(authDataSchema) } } },
    async (request, reply) => {
      let signedIn: SignedIn;
      try {
        signedIn = await auth.login(request.body, context(request), loginLimits(request));
      } catch (error) {
        // Wrong credentials are worth a line in the trail (who tried which account, from where); a refused
        // inactive account or a rate-limited attempt is not a credential check.
        if (error instanceof AppError && error.statusCode === 401) {
          await recordAudit(app.db, app.clock, auditContext(request, emailOf(request)), {
            action: 'auth.sign_in_failed',
            targetType: 'user',
          });
        }
        throw error;
      }
      const { user } = signedIn;
      await recordAudit(
        app.db,
        app.clock,
        {
          actor: { id: user.id, email: user.email, role: user.role },
          ip: request.ip.slice(0, 64),
          requestId: String(request.id),
        },
        { action: 'auth.signed_in', targetType: 'user', targetId: user.id },
      );
      return ok(respond(request, reply, signedIn), AUTH_MESSAGES.loginSuccess);
    },
  );

  // The same answer for a new and a taken address (issue 32), so it signs nobody in: the client signs in next.
  app.post(
    '/register',
    {
      onRequest: registerRateLimit,
      preHandler: registerAccountLimit,
      schema: { body: registerBodySchema, response: { 201: noData } },
    },
    async (request, reply) => {
      await auth.register(request.body);
      return reply.code(201).send(ok(null, AUTH_MESSAGES.registered));
    },
  );

  app.post(
    '/refresh-token',
    { schema: { response: { 200: envelope(authDataSchema), 204: z.null() } } },
    async (request, reply) => {
      try {
        const token = readRefreshCookie(request);
        // A cookie whose signature does not match was forged or corrupted: not the same as having none.
        if (!token && request.cookies[REFRESH_COOKIE_NAME]) throw unauthorized('Invalid refresh token');
        // No cookie at all: a visitor without a session (every public page asks, spec §2). Nothing to refresh is
        // not a failure, so no 401 in every visitor's browser console (issue 34); a bad token still answers 401.
        if (!token) return reply.code(204).send(null);
        return ok(respond(request, reply, await auth.refresh(token, context(request))), AUTH_MESSAGES.refreshed);
      } catch (error) {
        clearRefreshCookie(request, reply);
        throw error;
      }
    },
  );

  app.post('/logout', { schema: { response: { 200: noData } } }, async (request, reply) => {
    // The session ends (its refresh token) and so does every access token of its user, on every node: a copied
    // access token must not outlive the sign-out. Other sessions of the user get new ones from their refresh tokens.
    const owners = new Set<string>();
    const sessionOwner = await sessions.end(readRefreshCookie(request));
    if (sessionOwner) owners.add(sessionOwner);
    const bearerToken = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const claims = bearerToken && !isApiTokenSecret(bearerToken) ? await app.accessTokens.verify(bearerToken) : null;
    if (claims) owners.add(claims.sub);
    for (const id of owners) await app.users.endAccessTokens(id);
    clearRefreshCookie(request, reply);
    return ok(null, AUTH_MESSAGES.loggedOut);
  });

  app.get('/profile', { schema: { response: { 200: userData } } }, async (request) =>
    ok({ user: await auth.profile(request.user!.id) }, AUTH_MESSAGES.profile),
  );

  app.put('/profile', { schema: { body: updateProfileBodySchema, response: { 200: userData } } }, async (request) => {
    const user = await auth.updateProfile(request.user!.id, request.body);
    const pending =
      request.body.email !== undefined && user.pending_email ? EMAIL_CHANGE_MESSAGES.pending(user.pending_email) : null;
    return ok({ user }, pending ? `${AUTH_MESSAGES.profileUpdated}. ${pending}` : AUTH_MESSAGES.profileUpdated);
  });

  app.post(
    '/confirm-email',
    { schema: { body: confirmEmailBodySchema, response: { 200: userData } } },
    async (request) =>
      ok(
        {
          user: await auth.confirmEmailChange(request.body.token, {
            ip: request.ip.slice(0, 64),
            requestId: String(request.id),
          }),
        },
        EMAIL_CHANGE_MESSAGES.confirmed,
      ),
  );

  app.post(
    '/change-password',
    { schema: { body: changePasswordBodySchema, response: { 200: noData } } },
    async (request) => {
      await auth.changePassword(request.user!.id, request.body, readRefreshCookie(request), auditContext(request));
      return ok(null, AUTH_MESSAGES.passwordChanged);
    },
  );

  app.get(
    '/verify-email',
    { schema: { querystring: verifyEmailQuerySchema, response: { 200: userData } } },
    async (request) => ok({ user: await auth.verifyEmail(request.query.token) }, AUTH_MESSAGES.emailVerified),
  );

  app.post(
    '/resend-verification',
    {
      onRequest: mailRateLimit,
      preHandler: mailAccountLimit,
      schema: { body: emailBodySchema, response: { 200: noData } },
    },
    async (request) => {
      await auth.resendVerification(request.body.email);
      return ok(null, AUTH_MESSAGES.verificationSent);
    },
  );

  app.post(
    '/forgot-password',
    {
      onRequest: mailRateLimit,
      preHandler: mailAccountLimit,
      schema: { body: emailBodySchema, response: { 200: noData } },
    },
    async (request) => {
      await auth.forgotPassword(request.body.email);
      return ok(null, AUTH_MESSAGES.resetSent);
    },
  );

  app.post(
    '/reset-password',
    { schema: { body: resetPasswordBodySchema, response: { 200: noData } } },
    async (request) => {
      await auth.resetPassword(request.body.token, request.body.password, {
        ip: request.ip.slice(0, 64),
        requestId: String(request.id),
      });
      return ok(null, AUTH_MESSAGES.passwordReset);
    },
  );
};

export default authRoutes;
