/** The API's response envelope (spec §7): every response, success or failure, has this shape. */
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

/** Offset pagination meta used by the subscription list (spec §3, §9: defaults total 0, limit 50, offset 0). */
export interface OffsetMeta {
  total: number;
  limit: number;
  offset: number;
}

/** Page pagination used by the user list (spec §3, §9: default page 1 of 1). */
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
