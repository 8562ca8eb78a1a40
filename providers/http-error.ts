/**
 * The one error shape every failed call ends in: Refine's HttpError {message, statusCode, errors}. Built once,
 * in the http client, so pages, toasts and forms never look at axios errors or envelopes themselves.
 */
import { isAxiosError } from 'axios';
import type { HttpError, ValidationErrors } from '@refinedev/core';
import type { FieldError } from '../contract/envelope';
import { translate, translateMessage } from '../src/i18n';

export class ApiError extends Error implements HttpError {
  [key: string]: unknown;
  statusCode: number;
  errors?: ValidationErrors;

  /** A refresh that found no session at all (a visitor): expected, so nobody logs it. */
  noSession?: boolean;

  constructor(message: string, statusCode: number, errors?: ValidationErrors, noSession?: boolean) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    if (errors) this.errors = errors;
    if (noSession) this.noSession = true;
  }
}

/**
 * Field errors as antd forms want them: {email: 'Enter a valid e-mail address'}, in the reader's language;
 * repeats become a list.
 */
export function toValidationErrors(list: FieldError[] | undefined): ValidationErrors | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out: Record<string, string | string[]> = {};
  for (const item of list) {
    if (!item || typeof item.field !== 'string' || typeof item.message !== 'string') continue;
    const prev = out[item.field];
    const message = translateMessage(item.message);
    out[item.field] = prev === undefined ? message : [...(Array.isArray(prev) ? prev : [prev]), message];
  }
  return Object.keys(out).length ? out : undefined;
}

function serverMessage(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | null | undefined)?.message;
  // The server answers in English; a fixed message is shown in the reader's language (issue 37).
  return typeof message === 'string' && message.trim() !== '' ? translateMessage(message) : undefined;
}

/**
 * Spec §8 precedence: the server's message when present; 'Network error' when no response arrived at all;
 * otherwise the caller's fallback (or 'An unknown error occurred.').
 */
export function toHttpError(error: unknown, fallback?: string): ApiError {
  if (error instanceof ApiError) return error;
  const fallbackText = fallback ?? translate('errors.unknown');
  if (isAxiosError(error)) {
    const response = error.response;
    if (!response) return new ApiError(translate('errors.network'), 0);
    const body = response.data as { errors?: FieldError[] } | undefined;
    return new ApiError(serverMessage(body) ?? fallbackText, response.status, toValidationErrors(body?.errors));
  }
  return new ApiError(fallbackText, 0);
}
