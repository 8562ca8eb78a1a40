import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Role } from '../../contract/roles';
import type { UserStatus } from '../../contract/schemas/user';
import { createAccessTokenIssuer, type AccessTokenIssuer } from '../lib/access-token';
import { unauthorized } from '../lib/errors';
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
  }
}

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

    app.decorate('authenticate', async (request: FastifyRequest): Promise<AuthUser> => {
      const header = request.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!match) throw unauthorized('Authentication required');
      const claims = await accessTokens.verify(match[1]);
      if (!claims) throw unauthorized('Invalid or expired token');
      const row = await users.findById(claims.sub);
      if (!row) throw unauthorized('Invalid or expired token');
      if (row.status !== 'active') throw inactiveAccountError(row.status);
      // The role comes from the database, so a role change takes effect at once.
      const user: AuthUser = {
        id: row.id,
        email: row.email,
        name: row.name,
        role: row.role,
        status: row.status,
        isVerified: row.isVerified,
      };
      request.user = user;
      return user;
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
