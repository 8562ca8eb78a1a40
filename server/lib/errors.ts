import type { FieldError } from '../../contract/envelope';

/** An error whose message is meant for the user; the error handler sends it as the envelope. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new AppError(400, message, errors);
export const unauthorized = (message = 'Authentication required') => new AppError(401, message);
export const forbidden = (message = 'You do not have permission to perform this action') => new AppError(403, message);
export const notFound = (message = 'Not found') => new AppError(404, message);
export const conflict = (message: string, errors?: FieldError[]) => new AppError(409, message, errors);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** PostgreSQL's unique_violation, as raised by node-postgres and PGlite (possibly wrapped by Drizzle). */
/** The name of the unique index or constraint a 23505 error names (PostgreSQL and PGlite both report it). */
export function violatedConstraint(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e === 'object' && (e as { code?: unknown }).code === '23505')
      return (e as { constraint?: string }).constraint;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e === 'object' && (e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Retry-After of a 503 for an unreachable database: a restart or a fail-over is usually over within seconds. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.';

/** SQLSTATEs of a server that cannot serve: connection exceptions (08…), shutting down or starting (57P01–57P03),
 *  too many connections (53300). Only PostgreSQL (and PGlite) raise these. */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300)$/;
/** What node-postgres and PGlite say when the connection is gone or cannot be made. */
const UNAVAILABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client was closed and is not queryable|Client has encountered a connection error|PGlite is closed|embedded database is not running/i;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * Whether an error means the database cannot be reached (issue 33): the request is then answered 503 with
 * Retry-After, not 500 — a balancer retries it elsewhere, a client later. Follows `cause` (Drizzle wraps a
 * failed query) and AggregateError's `errors` (a refused connect to every address). A bare network error counts
 * only when it came through the database driver (pg's pool or client in its stack, or wrapped by a query), so a
 * payment provider or SMTP server that is down is not mistaken for the database.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, viaQuery: boolean, depth: number): boolean => {
    if (!e || typeof e !== 'object' || depth > 5 || seen.has(e)) return false;
    seen.add(e);
    const { code, message, stack, name } = e as { code?: unknown; message?: unknown; stack?: unknown; name?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_STATE.test(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_TEXT.test(message)) return true;
    const wrapped = viaQuery || name === 'DrizzleQueryError';
    if (
      typeof code === 'string' &&
      NETWORK_CODES.has(code) &&
      (wrapped || (typeof stack === 'string' && /[\\/](pg-pool|pg)[\\/]/.test(stack)))
    )
      return true;
    const inner = [
      (e as { cause?: unknown }).cause,
      ...(Array.isArray((e as { errors?: unknown }).errors) ? (e as { errors: unknown[] }).errors : []),
    ];
    return inner.some((x) => visit(x, wrapped, depth + 1));
  };
  return visit(error, false, 0);
}
