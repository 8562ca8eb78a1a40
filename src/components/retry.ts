import type { HttpError } from '@refinedev/core';

/**
 * react-query's retry for reads: retry only what may pass on a second try, never a 4xx (a 404 is an answer,
 * and must show at once rather than after the back-off); at most two retries.
 */
export function retryUnlessClientError(failureCount: number, error: HttpError): boolean {
  const status = error?.statusCode ?? 0;
  return !(status >= 400 && status < 500) && failureCount < 2;
}
