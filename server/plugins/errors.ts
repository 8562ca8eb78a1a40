/**
 * One error path for the API: every failure leaves as the envelope {success:false, message, errors?}.
 * Validation failures name their fields; 5xx details are logged, never sent.
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodFastifySchemaValidationError } from 'fastify-type-provider-zod';
import { fail, type FieldError } from '../../contract/envelope';
import { AppError, isDatabaseUnavailable, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../lib/errors';

function valueAt(root: unknown, path: string[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'request body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

export function validationFieldErrors(
  issues: ZodFastifySchemaValidationError[],
  request: FastifyRequest,
  context: string | undefined,
): FieldError[] {
  const source = context
    ? (request as unknown as Record<string, unknown>)[context === 'querystring' ? 'query' : context]
    : undefined;
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const issue of issues) {
    const path = issue.instancePath.split('/').filter(Boolean);
    const field = path.join('.') || CONTEXT_NAMES[context ?? ''] || 'request';
    const missing =
      issue.keyword === 'invalid_type' &&
      (valueAt(source, path) === undefined || / received undefined$/.test(issue.message ?? ''));
    const message = missing ? `${field} is required` : (issue.message ?? 'is invalid');
    // One message per field (the first rule it breaks) is what a form can show.
    if (seen.has(field)) continue;
    seen.add(field);
    errors.push({ field, message });
  }
  return errors;
}

export function validationSummary(errors: FieldError[]): string {
  const parts = errors.map((e) =>
    e.message.toLowerCase().includes(e.field.toLowerCase()) ? e.message : `${e.field}: ${e.message}`,
  );
  return `Validation failed: ${parts.join('; ')}`;
}

const CLIENT_ERROR_TEXT: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON in request body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid content length',
};

/**
 * Fastify's own answers for an address its router cannot read (a malformed %-escape: FST_ERR_BAD_URL, 400) or a
 * path parameter over its length limit (FST_ERR_MAX_PARAM_LENGTH, 414) are sent before any route or error
 * handler; given as the `frameworkErrors` option, this sends them in the failure envelope like every other.
 */
export function frameworkErrorReply(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status =
    typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A part of the address is too long' : 'The address is not valid';
  return reply.code(status).type('application/json; charset=utf-8').send(fail(message));
}

export default fp(
  async (app) => {
    // An empty body with a JSON content type (a bodiless POST from some clients) counts as no body.
    const defaultJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      defaultJson(request, text, done);
    });

    // A missing body is validated as an empty object, so each required field is named in the answer.
    app.addHook('preValidation', async (request) => {
      if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    });

    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors = validationFieldErrors(error.validation, request, error.validationContext);
        return reply.code(400).send(fail(validationSummary(errors), errors));
      }
      if (error instanceof AppError) {
        if (error.headers) reply.headers(error.headers);
        if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
        return reply.code(error.statusCode).send(fail(error.message, error.errors));
      }
      if (isDatabaseUnavailable(error)) {
        // Not a bug: the database is down, restarting or failing over (issue 33). 503 + Retry-After, which
        // balancers retry elsewhere and clients later; the log names the dependency.
        request.log.error({ err: error, dependency: 'database' }, 'database unavailable');
        reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        return reply.code(503).send(fail(UNAVAILABLE_MESSAGE));
      }
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply.code(status).send(fail('Internal server error'));
      }
      if (status === 429) reply.header('retry-after', reply.getHeader('retry-after') ?? '60');
      const text =
        (error.code && CLIENT_ERROR_TEXT[error.code]) ||
        (error instanceof SyntaxError ? CLIENT_ERROR_TEXT.FST_ERR_CTP_INVALID_JSON_BODY : error.message);
      return reply.code(status).send(fail(text));
    });
  },
  { name: 'errors' },
);
