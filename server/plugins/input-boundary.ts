/**
 * The one input boundary (issue 32): no text with a NUL byte (U+0000) or a lone UTF-16 surrogate gets past it,
 * wherever it comes from — the path, the query string, a header, a JSON or form body at any depth, the names of
 * a body's fields included. PostgreSQL cannot store U+0000 in text (the driver's error became a 500, and a CSV
 * export stopped after its header row) and a lone surrogate is not Unicode at all (stored, it breaks every JSON
 * and UTF-8 reader downstream). Such a request is refused with 400 and the usual failure envelope, naming the
 * field, before any route, guard or database sees it; routes need not care.
 *
 * Where: the path parameters, query and headers in an onRequest hook (the router has matched by then), the body
 * in a preValidation hook (parsed by then, checked before the route's schema). Multipart uploads are read by their
 * routes as streams: their file names are decoded as UTF-8 (which cannot yield a lone surrogate) and stripped of
 * control characters (sanitizeFileName in server/lib/stored-files.ts).
 */
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { FieldError } from '../../contract/envelope';
import { badRequest } from '../lib/errors';
import { validationSummary } from './errors';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text that can be stored and shown: no NUL byte, no lone surrogate. */
export function isCleanText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

export const UNCLEAN_TEXT_MESSAGE = 'contains a character that is not allowed (a NUL byte or an unpaired surrogate)';

/** A field name fit for a message even when the name itself is the bad text. */
function printable(name: string): string {
  return isCleanText(name)
    ? name
    : JSON.stringify(name)
        .slice(1, -1)
        .replace(/[\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/**
 * The first field of `root` holding unclean text (a string value or an object key), as a dotted path under
 * `prefix`; undefined when all is clean. Walks without recursion, so a deeply nested body cannot overflow the stack.
 */
export function firstUncleanField(root: unknown, prefix: string[] = []): string | undefined {
  const stack: Array<[unknown, string[]]> = [[root, prefix]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (!isCleanText(value)) return path.map(printable).join('.') || 'request';
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], [...path, String(i)]]);
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      const entries = Object.entries(value as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        if (!isCleanText(key)) return [...path, key].map(printable).join('.');
        stack.push([child, [...path, key]]);
      }
    }
  }
  return undefined;
}

function refuse(field: string) {
  const errors: FieldError[] = [{ field, message: `${field} ${UNCLEAN_TEXT_MESSAGE}` }];
  return badRequest(validationSummary(errors), errors);
}

function checkUrlAndHeaders(request: FastifyRequest) {
  const field =
    firstUncleanField(request.params) ??
    firstUncleanField(request.query) ??
    // The path outside any parameter (a route with none, or no route at all): its raw, decoded form.
    (isCleanText(safeDecode(request.url.split('?')[0])) ? undefined : 'path') ??
    firstUncleanField(request.headers, ['headers']);
  if (field) throw refuse(field);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // malformed escapes are the router's business (it answers 400 or 404)
  }
}

export default fp(
  async (app) => {
    app.addHook('onRequest', async (request) => checkUrlAndHeaders(request));
    app.addHook('preValidation', async (request) => {
      const field = firstUncleanField(request.body);
      if (field) throw refuse(field);
    });
  },
  { name: 'input-boundary', dependencies: ['errors'] },
);
