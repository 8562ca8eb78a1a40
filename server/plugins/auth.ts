import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { API_BASE } from '../../contract/product';
import { allows, endpointAudience, type Role } from '../../contract/roles';
import { isApiTokenSecret } from '../../contract/schemas/api-token';
import type { UserStatus } from '../../contract/schemas/user';
import { createAccessTokenIssuer, type AccessTokenIssuer } from '../lib/access-token';
import { RESYNC, USER_CHANGED } from '../lib/change-bus';
import { forbidden, unauthorized } from '../lib/errors';
import { UserCache } from '../lib/user-cache';
import { createApiTokenRepository } from '../modules/api-tokens/repository';
import { ApiTokenService } from '../modules/api-tokens/service';
import { inactiveAccountError } from '../modules/auth/messages';
import { createUserRepository, type UserRepository } from '../modules/users/repository';

/** The signed-in user of a request, as loaded from the database (not merely as the token claims). */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: UserStatus;
  isVerified: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    accessTokens: AccessTokenIssuer;
    users: UserRepository;
    /** Resolves the bearer token to an active user, or throws 401/403. */
    authenticate(request: FastifyRequest): Promise<AuthUser>;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** Signed with a personal API token (issue 12) rather than a person's session: user is its creator, acting as the token's role. */
    viaApiToken: boolean;
  }
}

const MANAGE_TOKENS = 'API tokens cannot manage API tokens; sign in as yourself to do this';
const PERSONAL = 'This is a personal action of the account holder and cannot be done with an API token';

/**
 * Endpoints (as in contract/roles.ts ENDPOINT_ACCESS) that a request signed with an API token may not call,
 * whatever the token's role: tokens do not beget tokens, and the creator's own password and profile stay theirs.
 */
export const NOT_FOR_API_TOKENS: Readonly<Record<string, string>> = {
  'GET /api-tokens': MANAGE_TOKENS,
  'POST /api-tokens': MANAGE_TOKENS,
  'DELETE /api-tokens/:id': MANAGE_TOKENS,
  'PUT /auth/profile': PERSONAL,
  'POST /auth/change-password': PERSONAL,
};

const INVALID_TOKEN = 'Invalid or expired token';

export default fp(
  async (app) => {
    const accessTokens = createAccessTokenIssuer({
      secret: app.config.jwtSecret,
      ttlSeconds: app.config.accessTokenTtlSeconds,
      clock: app.clock,
    });
    const users = createUserRepository(app.db);
    app.decorate('accessTokens', accessTokens);
    app.decorate('users', users);
    app.decorateRequest('user', null);
    app.decorateRequest('viaApiToken', false);
    const apiTokens = new ApiTokenService({ repository: createApiTokenRepository(app.db), clock: app.clock });
    // The user behind an access token, without reading the row on every request (server/lib/user-cache.ts: forgotten
    // on any change to the row, in every process, at commit).
    const signedIn = new UserCache<AuthUser & { sessionVersion: number }>(
      async (id) => {
        const row = await users.findById(id);
        return (
          row && {
            id: row.id,
            email: row.email,
            name: row.name,
            role: row.role,
            status: row.status,
            isVerified: row.isVerified,
            sessionVersion: row.sessionVersion,
          }
        );
      },
      { ttlMs: 30_000 },
    );
    const stopListening = [
      app.changes.subscribe(USER_CHANGED, (data) => signedIn.invalidate(String(data.id))),
      app.changes.subscribe(RESYNC, () => signedIn.clear()),
    ];
    app.addHook('onClose', async () => {
      for (const stop of stopListening) stop();
      signedIn.dispose();
    });

    /** An API token's bearer: its creator, acting as the token's role (so the route guard applies that role). */
    const authenticateApiToken = async (request: FastifyRequest, secret: string): Promise<AuthUser> => {
      const resolved = await apiTokens.resolve(secret);
      if (!resolved) throw unauthorized(INVALID_TOKEN);
      const { token, creator } = resolved;
      const route = request.routeOptions.url;
      const path = route?.startsWith(API_BASE) ? route.slice(API_BASE.length) || '/' : null;
      const refusal = path ? NOT_FOR_API_TOKENS[`${request.method} ${path}`] : undefined;
      // A role the endpoint does not admit anyway gets the route guard's usual 403 instead.
      const audience = path ? endpointAudience(request.method, path) : undefined;
      if (refusal && audience !== undefined && allows(audience, token.role)) throw forbidden(refusal);
      const user: AuthUser = {
        id: creator.id,
        email: creator.email,
        name: creator.name,
        role: token.role,
        status: creator.status,
        isVerified: creator.isVerified,
      };
      request.user = user;
      request.viaApiToken = true;
      return user;
    };

    app.decorate('authenticate', async (request: FastifyRequest): Promise<AuthUser> => {
      const header = request.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!match) throw unauthorized('Authentication required');
      if (isApiTokenSecret(match[1])) return authenticateApiToken(request, match[1]);
      const claims = await accessTokens.verify(match[1]);
      if (!claims) throw unauthorized(INVALID_TOKEN);
      const cached = await signedIn.get(claims.sub);
      if (!cached) throw unauthorized(INVALID_TOKEN);
      if (cached.status !== 'active') throw inactiveAccountError(cached.status);
      // Signed before the user's sessions were ended (sign-out, password change or reset, suspension, role change).
      if (claims.sv !== cached.sessionVersion) throw unauthorized(INVALID_TOKEN);
      // The role comes from the database (through the cache, which forgets a changed row), so a role change takes
      // effect at once. Each request gets its own copy.
      const { sessionVersion: _version, ...user } = cached;
      request.user = user;
      return user;
    });
  },
  { name: 'auth', dependencies: ['db', 'changes'] },
);
