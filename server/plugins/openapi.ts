/**
 * The REST API's own documentation, generated from the routes' zod schemas (@fastify/swagger with
 * fastify-type-provider-zod's transforms), so it cannot drift from what the server validates:
 * - `GET /api/openapi.json`: the OpenAPI 3.1 document. It is a specification file, so it is sent as it is,
 *   not inside the API's {success, message, data} envelope (the operations it describes are).
 * - `/api/docs`: an interactive reference (@fastify/swagger-ui), served by the server only, never part of the
 *   web app's bundles.
 * Each operation says who may call it, from the same role matrix the server enforces (contract/roles.ts): an
 * `x-roles` field and a sentence in its description; signed-in operations carry the bearer security scheme.
 * Everything outside /api (the web app and its files) is left out.
 */
import { readFileSync } from 'node:fs';
import fp from 'fastify-plugin';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API_BASE, PRODUCT_NAME } from '../../contract/product';
import { effectiveAudience, endpointAudience, type Audience } from '../../contract/roles';

export const OPENAPI_PATH = `${API_BASE}/openapi.json`;
export const DOCS_PREFIX = `${API_BASE}/docs`;

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** x-roles of an operation: ['public'], ['authenticated'] or the roles allowed. */
export function rolesOf(audience: Audience): string[] {
  const a = effectiveAudience(audience);
  return typeof a === 'string' ? [a] : [...a];
}

function whoMayCall(audience: Audience): string {
  const a = effectiveAudience(audience);
  if (a === 'public') return 'Public: no sign-in needed (a bearer token, when sent, identifies the caller).';
  if (a === 'authenticated') return 'Any signed-in user.';
  return `Roles: ${a.join(', ')}.`;
}

/** The tag of a path: its first segment under /api ("/api/payments/gateways" → "payments"). */
function tagOf(path: string): string {
  return path.split('/').filter(Boolean)[0] ?? 'api';
}

export default fp(
  async (app) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: `${PRODUCT_NAME} API`,
          version: VERSION,
          description:
            'The REST API of the ISP portal. Every answer is the envelope {success, message, data}; failures are ' +
            '{success: false, message, errors?} with the HTTP status. Sign in with POST /api/auth/login and send the ' +
            'access token as "Authorization: Bearer <token>".',
        },
        servers: [{ url: '/' }],
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      transform: (input) => {
        const { url, route } = input;
        if (!url.startsWith(`${API_BASE}/`) || url === OPENAPI_PATH || url.startsWith(DOCS_PREFIX)) {
          return { schema: { ...(input.schema ?? {}), hide: true }, url };
        }
        const transformed = jsonSchemaTransform(input);
        const path = url.slice(API_BASE.length);
        const method = (Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
        const audience = endpointAudience(method, path) ?? 'authenticated';
        const schema = (transformed.schema ?? {}) as Record<string, unknown>;
        return {
          url: transformed.url,
          schema: {
            ...schema,
            tags: [tagOf(path)],
            description: [schema.description, whoMayCall(audience)].filter(Boolean).join('\n\n'),
            'x-roles': rolesOf(audience),
            ...(effectiveAudience(audience) === 'public' ? {} : { security: [{ bearerAuth: [] }] }),
          },
        };
      },
      transformObject: jsonSchemaTransformObject,
    });

    app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());

    await app.register(fastifySwaggerUi, {
      routePrefix: DOCS_PREFIX,
      // The document above, not one of its own; no calls to swagger.io's validator.
      uiConfig: { url: OPENAPI_PATH, validatorUrl: null, deepLinking: true } as Record<string, unknown>,
      uiHooks: {},
    });
  },
  { name: 'openapi' },
);
