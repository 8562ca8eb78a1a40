/**
 * The REST API's own documentation, generated from the routes' zod schemas (@fastify/swagger with
 * fastify-type-provider-zod's transforms), so it cannot drift from what the server validates:
 * - `GET /api/openapi.json`: the OpenAPI 3.1 document. It is a specification file, so it is sent as it is,
 *   not inside the API's {success, message, data} envelope (the operations it describes are).
 * - `/api/docs`: an interactive reference (@fastify/swagger-ui), served by the server only, never part of the
 *   web app's bundles.
 * Each operation says who may call it, from the same role matrix the server enforces (contract/roles.ts): an
 * `x-roles` field and a sentence in its description; signed-in operations carry the bearer security scheme
 * and the failures the guard gives (401, 403), operations with input the validation failure (400), all in
 * the failure envelope. Everything outside /api (the web app and its files) is left out.
 * The document is built once, on its first request (@fastify/swagger caches it); other routes pay nothing.
 */
import fp from 'fastify-plugin';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { API_BASE, PRODUCT_NAME, REFRESH_COOKIE_NAME } from '../../contract/product';
import { VERSION } from '../lib/paths';
import { effectiveAudience, endpointAudience, type Audience } from '../../contract/roles';
import {
  EXAMPLES,
  FAILURE_EXAMPLES,
  OPERATION_IDS,
  OTHER_CONTENT,
  SUMMARIES,
  TAG_DESCRIPTIONS,
} from './openapi-operations';
import { POLICY_TYPES } from '../../contract/site-paths';
import { PAYMENT_PROVIDERS } from '../../contract/schemas/gateway';
import { SANDBOX_TEST_CARDS } from '../integrations/payments/sandbox';

export const OPENAPI_PATH = `${API_BASE}/openapi.json`;
export const DOCS_PREFIX = `${API_BASE}/docs`;

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

const pascal = (word: string) =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** The singular of a resource's plural name ("plans" → "plan", "addresses" → "address", "policies" → "policy"). */
function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * A stable, readable operationId from the method and the path (colon or brace parameters), unless the route names its
 * own or OPERATION_IDS (./openapi-operations.ts) does. A collection and its records get the CRUD verbs of their
 * resource: "GET /plans" → "listPlans", "POST /plans" → "createPlan", "GET /plans/{id}" → "getPlan", "PUT" and
 * "PATCH /plans/{id}" → "updatePlan", "DELETE /plans/{id}" → "deletePlan". Any other path falls back to the method
 * and every segment ("POST /a/{id}/b" → "postAByIdB"), which OPERATION_IDS should replace with a verb. The id depends
 * on its own method and path only, so adding a route never changes another's.
 */
export function operationIdOf(method: string, path: string): string {
  const key = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
  if (OPERATION_IDS[key]) return OPERATION_IDS[key];
  const segments = path.split('/').filter(Boolean);
  const isParam = (segment: string) => segment.startsWith(':') || segment.startsWith('{');
  const m = method.toLowerCase();
  if (segments.length === 1 && !isParam(segments[0])) {
    if (m === 'get') return `list${pascal(segments[0])}`;
    if (m === 'post') return `create${pascal(singular(segments[0]))}`;
  }
  if (segments.length === 2 && !isParam(segments[0]) && isParam(segments[1])) {
    const verb = { get: 'get', put: 'update', patch: 'update', delete: 'delete' }[m];
    if (verb) return `${verb}${pascal(singular(segments[0]))}`;
  }
  const parts = segments.map((segment) =>
    isParam(segment) ? `By${pascal(segment.replace(/[:{}]/g, ''))}` : pascal(segment),
  );
  return m + parts.join('');
}

/** Routes that are the reference itself: served, guarded (public), but not described. */
function isReferenceRoute(url: string): boolean {
  return url === OPENAPI_PATH || url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`);
}

/**
 * The reference page's own Content-Security-Policy, set on every /api/docs answer (page and files) over the
 * portal's: Swagger UI runs from its own script files (no inline script), writes inline styles, draws its
 * icons as data: images, shows image answers of "Try it out" as blob: images and calls only this origin's API.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The failure envelope (contract/envelope.ts ApiFailure) as JSON Schema. */
const API_FAILURE_SCHEMA = {
  type: 'object',
  properties: {
    success: { type: 'boolean', const: false },
    message: { type: 'string' },
    errors: {
      type: 'array',
      description: 'The invalid fields, when the input was refused.',
      items: {
        type: 'object',
        properties: {
          field: { type: 'string', description: 'Dotted path of the field, e.g. "email" or "address.city".' },
          message: { type: 'string' },
        },
        required: ['field', 'message'],
      },
    },
  },
  required: ['success', 'message'],
};

const failure = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiFailure' } } },
});

/** Failures the API gives the same way on every route, described once and referenced by each operation. */
const COMMON_FAILURES = {
  ValidationFailed: failure('The input is invalid; `errors` names each invalid field.'),
  Unauthorized: failure('No valid bearer token: missing, malformed, expired or revoked.'),
  Forbidden: failure(
    "The signed-in user's role may not call this operation, the account is not active (suspended, inactive), or a personal API token may not call it (managing tokens, changing one's profile or password).",
  ),
  NotFound: failure('No such record (or one the caller may not see).'),
  Conflict: failure(
    "The record's present state does not allow this: a name or number already taken, a status that cannot change that way, a record still in use, or the same work already done. `message` says which.",
  ),
  UriTooLong: failure('A path parameter is longer than any identifier the API gives (over 100 characters).'),
  PayloadTooLarge: failure('The request body is larger than the API takes (1 MB for JSON).'),
  UnsupportedMediaType: failure(
    'The request body is of a media type the operation does not take (send `application/json`).',
  ),
  TooManyRequests: {
    ...failure(
      'Too many requests from this client address (or for this account); try again after `Retry-After` seconds.',
    ),
    headers: {
      'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
    },
  },
  ServiceUnavailable: {
    ...failure(
      'The database cannot be reached for the moment (or the server is shutting down); nothing was written. Try again after `Retry-After` seconds.',
    ),
    headers: {
      'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
    },
  },
};

/**
 * What particular operations answer beyond the rules of withCommonFailures (found by tests/server/openapi-fuzz.test.ts,
 * which fails on any status an operation does not declare), keyed "METHOD /path" as in contract/roles.ts.
 */
const PARTICULAR_FAILURES: Record<
  string,
  Partial<Record<'400' | '401' | '403' | '404' | '409' | '413' | '415' | '500' | '502', string>>
> = {
  'GET /settings/logo': { '404': 'No logo has been uploaded.' },
  'POST /settings/logo': {
    '400': 'Not a multipart upload with one image.',
    '413': 'The image is larger than allowed.',
    '415': 'The file is not one of the image types a logo may be (its content is read, not its name).',
  },
  'GET /subscriptions/active-plan': { '404': 'The customer has no active plan.' },
  'GET /usage': {
    '403': "Only staff read another person's usage (`user_id`).",
    '404': "No such subscription (`subscription_id`) among the person's lines.",
  },
  'POST /tickets': { '403': 'Only staff open a ticket for another user (`user_id`).' },
  // Public, but a refresh cookie that is forged, expired or revoked is refused (no cookie at all is a 204).
  'POST /auth/refresh-token': {
    '401': 'The refresh cookie is invalid, expired or revoked; it is cleared. Sign in again.',
    '403': 'The account is no longer active (suspended, inactive).',
  },
  // Uploads: the file's type is read from its content; sizes, counts and the quotas of settings "uploads".
  'POST /installations/:id/photos': {
    '413':
      "Too large: a file over the size limit, too many files, or the installation's or the day's upload quota passed (`message` names which).",
    '415': 'A file that is not one of the image types allowed (PNG, JPEG, GIF, WebP).',
  },
  'POST /tickets/:id/attachments': {
    '413':
      "Too large: a file over the size limit, too many files, or the ticket's or the day's upload quota passed (`message` names which).",
    '415': 'A file of a type attachments may not have.',
  },
  // A new batch's codes can be exported once generated, and only for a while after.
  'GET /vouchers/batches/:id/codes.csv': {
    '409': 'The codes are still being generated, or the time to export them is over (or the batch was revoked).',
  },
  'GET /vouchers/batches/:id/cards.pdf': {
    '409': 'The codes are still being generated, or the time to print them is over (or the batch was revoked).',
  },
  'POST /vouchers/redeem': { '404': 'No voucher has that code.' },
  // A bulk message's segment names a plan, a NAS or an area (issue 38).
  'GET /bulk-messages/preview': { '404': 'No such plan or NAS (`segment_value`), or no device is in that area.' },
  'POST /bulk-messages': { '404': 'No such plan or NAS (`segment_value`), or no device is in that area.' },
  // The operations that wait on another system, which may refuse or not answer.
  'POST /settings/test-email': {
    '502': 'The SMTP server could not be reached or refused the message (`message` says why).',
  },
  'GET /devices/:id/config': {
    '502': 'The device could not be reached or refused to export its configuration (`message` says why).',
  },
  'POST /payments/:id/refund': { '502': 'The payment provider could not make the refund now; nothing was refunded.' },
  'POST /payments/initiate': {
    '502': 'The payment provider could not start the checkout now (Stripe unreachable or not configured).',
  },
  'POST /subscriptions/:id/autopay/setup': { '502': 'The payment provider could not start saving a card now.' },
  'POST /auth/login': { '401': 'Wrong e-mail or password.', '403': 'The account is not active (suspended, inactive).' },
  // Taken while the admin waits: a failure (disk, bucket) is said to them, and recorded for GET /backups.
  'POST /backups': { '500': 'The backup could not be taken; `message` says why, and GET /backups shows the failure.' },
  // The message providers' callbacks (issue 38): public, but signed by the provider.
  ...Object.fromEntries(
    [
      'POST /messaging/callbacks/twilio/:providerId',
      'POST /messaging/callbacks/twilio/:providerId/inbound',
      'POST /messaging/callbacks/whatsapp/:providerId',
      'POST /messaging/callbacks/webhook/:providerId',
    ].map((key) => [
      key,
      {
        '401': 'The signature (or callback token) is missing.',
        '403': 'The signature (or callback token) is wrong.',
        '404': 'No such provider of this kind.',
      },
    ]),
  ),
  'GET /messaging/callbacks/whatsapp/:providerId': {
    '403': 'hub.mode is not subscribe or hub.verify_token is wrong.',
    '404': 'No such provider of this kind.',
  },
};

/**
 * Path parameters that take one of a fixed set of words. Their routes answer any other word with 404 (no such policy,
 * provider, choice), as the spec'd API always has, rather than the 400 a zod enum would give; so the set is stated
 * here for the document, beside the words' own lists.
 */
const PATH_ENUMS: Record<string, Record<string, readonly string[]>> = {
  'GET /settings/policies/:type': { type: POLICY_TYPES },
  'POST /payments/webhooks/:provider': { provider: PAYMENT_PROVIDERS.filter((p) => p !== 'manual') },
  'POST /payments/sandbox/setup/:transactionId/:choice': { choice: [...Object.keys(SANDBOX_TEST_CARDS), 'cancel'] },
};

/** Pages a person's browser posts to, which answer by sending the browser back to the portal. */
const REDIRECTS: Record<string, string> = {
  'POST /payments/sandbox/checkout/:transactionId/approve':
    "Back to the invoice's page in the portal, with the payment's outcome.",
  'POST /payments/sandbox/checkout/:transactionId/decline':
    "Back to the invoice's page in the portal, with the payment's outcome.",
  'POST /payments/sandbox/setup/:transactionId/:choice':
    "Back to the subscription's page in the portal, with the card set-up's outcome.",
};

/**
 * Operations that read the refresh cookie (set by sign-in, httpOnly, sent only to /api/auth): it is optional on
 * both, hence the empty requirement beside it.
 */
const COOKIE_SECURITY: Record<string, Array<Record<string, string[]>>> = {
  'POST /auth/refresh-token': [{ refreshCookie: [] }, {}],
  'POST /auth/logout': [{ refreshCookie: [] }, { bearerAuth: [] }, {}],
};

/** What a failure status means when an operation's answer with that status is not JSON (a page for a person). */
const COMMON_DESCRIPTIONS: Record<string, string> = { '404': 'No such record (a page saying so).' };

type Operation = {
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  'x-roles'?: string[];
};
type OpenApiDocument = {
  tags?: Array<{ name: string; description?: string }>;
  components?: { schemas?: Record<string, unknown>; responses?: Record<string, unknown> };
  paths?: Record<string, Record<string, Operation>>;
};

/** Whether a request body names records by id (a `plan_id`, `subscription_ids`…), any of which may not exist. */
function namesRecords(body: unknown): boolean {
  const seen = new Set<unknown>();
  const walk = (schema: unknown): boolean => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return false;
    seen.add(schema);
    const s = schema as { properties?: Record<string, unknown> };
    if (s.properties && Object.keys(s.properties).some((name) => /(^|_)ids?$/.test(name))) return true;
    return Object.values(schema).some(walk);
  };
  return walk((body as { content?: unknown } | undefined)?.content);
}

/** Adds the shared failure responses to each operation, from what its guard and its input can refuse. */
function withCommonFailures<T extends OpenApiDocument>(document: T): T {
  const ref = (name: keyof typeof COMMON_FAILURES) => ({ $ref: `#/components/responses/${name}` });
  for (const [fullPath, operations] of Object.entries(document.paths ?? {})) {
    const path = fullPath.startsWith(`${API_BASE}/`) ? fullPath.slice(API_BASE.length) : fullPath;
    for (const [method, operation] of Object.entries(operations)) {
      const roles = operation['x-roles'] ?? [];
      operation.responses ??= {};
      const responses = operation.responses;
      const add = (code: string, name: keyof typeof COMMON_FAILURES) => {
        if (!(code in responses)) responses[code] = ref(name);
      };
      if (operation.parameters?.length || operation.requestBody) add('400', 'ValidationFailed');
      // Any body is read before the route sees it: one too large, or of a type no parser takes, is refused first.
      if (operation.requestBody) {
        add('413', 'PayloadTooLarge');
        add('415', 'UnsupportedMediaType');
      }
      if (!roles.includes('public')) add('401', 'Unauthorized');
      // Signed-in operations: a role not admitted, an account no longer active, an API token where one may not serve.
      if (!roles.includes('public')) add('403', 'Forbidden');
      // A path parameter names a record: one that does not exist (or that the caller may not see) is a 404, and
      // one longer than any id (Fastify's maxParamLength) is a 414.
      const named = (operation.parameters as Array<{ in?: string }> | undefined)?.some((p) => p.in === 'path');
      if (named) {
        add('404', 'NotFound');
        add('414', 'UriTooLong');
      }
      // A change: its input may name a record that is not there (a plan, a subscription), and the present state may
      // not allow it (409).
      if (method !== 'get' && method !== 'head') {
        if (namesRecords(operation.requestBody)) add('404', 'NotFound');
        add('409', 'Conflict');
      }
      const key = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
      for (const parameter of (operation.parameters ?? []) as Array<{
        in: string;
        name: string;
        schema?: Record<string, unknown>;
        description?: string;
      }>) {
        const words = parameter.in === 'path' ? PATH_ENUMS[key]?.[parameter.name] : undefined;
        if (!words) continue;
        parameter.schema = { ...parameter.schema, enum: [...words] };
        parameter.description ??= `One of ${words.join(', ')}; any other answers 404.`;
      }
      for (const [code, description] of Object.entries(PARTICULAR_FAILURES[key] ?? {})) {
        // Beside a shared failure of the same status, both are said.
        const shared = (responses[code] as { $ref?: string } | undefined)?.$ref?.replace(
          '#/components/responses/',
          '',
        ) as keyof typeof COMMON_FAILURES | undefined;
        responses[code] = failure(shared ? `${description} Or: ${COMMON_FAILURES[shared].description}` : description);
      }
      if (REDIRECTS[key]) {
        responses['303'] = {
          description: REDIRECTS[key],
          headers: {
            Location: { description: 'Where the browser goes next.', schema: { type: 'string', format: 'uri' } },
          },
        };
      }
      for (const [code, example] of Object.entries(EXAMPLES[key] ?? {})) {
        const media = (responses[code] as { content?: Record<string, { example?: unknown }> } | undefined)?.content?.[
          'application/json'
        ];
        if (media) media.example = example;
      }
      // Answers that are not JSON (a CSV, a PDF, a page): their media type, beside the JSON one when there is one.
      for (const [code, content] of Object.entries(OTHER_CONTENT[key] ?? {})) {
        responses[code] ??= { description: 'Default Response' };
        const response = responses[code] as { content?: Record<string, unknown>; $ref?: string; description?: string };
        if (response.$ref) {
          // The shared JSON failure stays beside the page (e.g. a 404 before the page's route is reached).
          const shared =
            COMMON_FAILURES[response.$ref.replace('#/components/responses/', '') as keyof typeof COMMON_FAILURES];
          responses[code] = {
            description: COMMON_DESCRIPTIONS[code] ?? 'Default Response',
            content: { ...shared?.content, ...content },
          };
        } else {
          response.content = { ...response.content, ...content };
        }
      }
      // Every route is rate-limited (@fastify/rate-limit, per client address) and may meet a database outage.
      add('429', 'TooManyRequests');
      add('503', 'ServiceUnavailable');
    }
  }
  const used = new Set(
    Object.values(document.paths ?? {}).flatMap((ops) =>
      Object.values(ops).flatMap((op) => (op as { tags?: string[] }).tags ?? []),
    ),
  );
  return {
    ...document,
    // Every tag the operations use, in order, with its description (a tag without one fails redocly's tag-description).
    tags: [...used]
      .sort()
      .map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    components: {
      ...document.components,
      schemas: { ...document.components?.schemas, ApiFailure: API_FAILURE_SCHEMA },
      responses: {
        ...document.components?.responses,
        ...Object.fromEntries(
          Object.entries(COMMON_FAILURES).map(([name, response]) => {
            const example = FAILURE_EXAMPLES[name];
            return [
              name,
              example === undefined
                ? response
                : {
                    ...response,
                    content: { 'application/json': { ...response.content['application/json'], example } },
                  },
            ];
          }),
        ),
      },
    },
  };
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
            'access token as "Authorization: Bearer <token>" (an integration uses a personal API token the same ' +
            'way). Requests are rate-limited per client address (429 with Retry-After).',
        },
        servers: [{ url: '/', description: 'This server (the portal and its API share one origin).' }],
        components: {
          securitySchemes: {
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'JWT',
              description:
                'The access token from POST /api/auth/login or /api/auth/refresh-token, or a personal API token (POST /api/api-tokens).',
            },
            refreshCookie: {
              type: 'apiKey',
              in: 'cookie',
              name: REFRESH_COOKIE_NAME,
              description: 'The httpOnly refresh cookie sign-in sets; sent by the browser to /api/auth only.',
            },
          },
        },
      },
      transform: (input) => {
        const { url, route } = input;
        if (!url.startsWith(`${API_BASE}/`) || isReferenceRoute(url)) {
          return { schema: { ...(input.schema ?? {}), hide: true }, url };
        }
        const transformed = jsonSchemaTransform(input);
        const path = url.slice(API_BASE.length);
        const method = (Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
        const audience = endpointAudience(method, path) ?? 'authenticated';
        const schema = (transformed.schema ?? {}) as Record<string, unknown>;
        const key = `${method} ${path}`;
        return {
          url: transformed.url,
          schema: {
            ...schema,
            summary: (schema.summary as string | undefined) ?? SUMMARIES[key],
            tags: [tagOf(path)],
            description: [schema.description, whoMayCall(audience)].filter(Boolean).join('\n\n'),
            operationId: (schema.operationId as string | undefined) ?? operationIdOf(method, path),
            'x-roles': rolesOf(audience),
            // A public operation says so: an empty requirement (no sign-in), rather than no word on it.
            security: COOKIE_SECURITY[key] ?? (effectiveAudience(audience) === 'public' ? [] : [{ bearerAuth: [] }]),
          },
        };
      },
      transformObject: (input) => withCommonFailures(jsonSchemaTransformObject(input) as OpenApiDocument),
    });

    // A specification file, so sent as it is rather than inside the {success, message, data} envelope. Its text
    // is made once, on the first request (the routes are all known by then), and reused.
    let documentText: string | undefined;
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => {
      documentText ??= JSON.stringify(app.swagger());
      return reply.type('application/json; charset=utf-8').send(documentText);
    });

    await app.register(fastifySwaggerUi, {
      routePrefix: DOCS_PREFIX,
      // The document above, not one of its own; no calls to swagger.io's validator.
      // Tags collapsed: with 130-odd operations, expanding every tag at once left the page half drawn in Chromium
      // (it stopped after the first two tags, at random); a reader opens the tag they want.
      uiConfig: { url: OPENAPI_PATH, validatorUrl: null, deepLinking: true, docExpansion: 'none' } as Record<
        string,
        unknown
      >,
      theme: { title: `${PRODUCT_NAME} API reference` },
      // Its own policy on its page and files, whatever the web app's policy becomes.
      staticCSP: DOCS_CONTENT_SECURITY_POLICY,
    });
  },
  { name: 'openapi' },
);
