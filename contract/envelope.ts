/**
 * The API's response envelope (spec §7): every response, success or failure, has this shape. This module owns the
 * envelope and the list pagination, both as types and helpers (ok, fail, pagePagination) and as the zod schemas the
 * routes declare as their responses (envelope, pagePaginationSchema, pageSchema): a module does not re-declare them.
 */
import { z } from 'zod';

export interface FieldError {
  /** Dotted path of the invalid field, e.g. "email" or "address.city". */
  field: string;
  message: string;
}

export interface ApiSuccess<T> {
  success: true;
  message: string;
  data: T;
}

export interface ApiFailure {
  success: false;
  message: string;
  errors?: FieldError[];
}

export function ok<T>(data: T, message = 'OK'): ApiSuccess<T> {
  return { success: true, message, data };
}

export function fail(message: string, errors?: FieldError[]): ApiFailure {
  return errors?.length ? { success: false, message, errors } : { success: false, message };
}

/** The pagination of every list (spec §3, §9: default page 1 of 1): data is {items, pagination}. */
export interface PagePagination {
  page: number;
  totalPages: number;
  total: number;
  hasNext: boolean;
  hasPrev: boolean;
}

/** The pagination of page `page` (of `limit` items) when `total` match; an empty result is page 1 of 1. */
export function pagePagination(page: number, limit: number, total: number): PagePagination {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return { page, totalPages, total, hasNext: page < totalPages, hasPrev: page > 1 };
}

/** The schema of a success envelope around `data`: a route's response schema. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), message: z.string(), data });

/** The schema of PagePagination. */
export const pagePaginationSchema = z.object({
  page: z.number().int(),
  totalPages: z.number().int(),
  total: z.number().int(),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
});

/** The schema of a list's data, {items, pagination}, for items of `item`. */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), pagination: pagePaginationSchema });
