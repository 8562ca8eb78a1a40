/**
 * Refine's data provider: `@refinedev/simple-rest`'s provider, built on the app's http client, with the methods
 * overridden where this API differs from a plain REST server (spec §7, design card "Versions").
 *
 * From simple-rest, as it is:
 * - `getApiUrl` (the API base, /api);
 * - `custom`'s request: simple-rest picks the client's verb method (get/post/put/patch/delete) and where the
 *   payload goes. It is handed a per-call view of OUR client (`forOneCall`), so the call still goes through the
 *   bearer token and the refresh-on-401 interceptor of providers/http-client.ts; the view adds what simple-rest
 *   cannot pass: the query as params (our filter and sort syntax, below, not simple-rest's `_like`/`_sort`) on
 *   every method, and meta.fallbackMessage. Our `custom` then unwraps the envelope, as before: `{data}` is the
 *   envelope's data, not the raw body simple-rest returns. (simple-rest sends `head`/`options` as GET; nothing
 *   here uses them.)
 *
 * Overridden, because the API answers {success, message, data} and pages differently:
 * - getList: Refine's pagination becomes page/limit, not _start/_end; filters become plain query keys (ranges
 *   as from/to keys), the first sorter becomes sort/order; the total comes from data.pagination.total (every
 *   list answers data {items, pagination}), not an X-Total-Count header.
 * - getOne, create, update, deleteOne: the record is the envelope's data, except that {<singular>: {...}}
 *   (exactly one key, named like the resource in the singular, or "item") is unwrapped to the object inside.
 *   Paths come from RESOURCE_API (or meta.endpoint); updates are PUT, not PATCH; the fields the server owns are
 *   left out of payloads; an update of the toggle field alone is a status change (its own error text).
 * - getMany: the API has no batch read (simple-rest's ?id=…&id=…), so one getOne per id.
 * Every call carries the spec §8 fallback of its resource and operation (errorFallback) for when the server
 * sends no message. A factory taking its http client, so tests inject one that answers in-process.
 */
import type {
  BaseKey,
  BaseRecord,
  CrudFilter,
  CrudSort,
  CustomParams,
  DataProvider,
  GetListParams,
  GetManyParams,
  MetaQuery,
} from '@refinedev/core';
import simpleRest from '@refinedev/simple-rest';
import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import { API_BASE } from '../contract/product';
import { resourceAccess } from '../contract/roles';
import { translate } from '../src/i18n';
import { errorKey } from '../src/i18n/en/errors';
import { httpClient } from './http-client';

interface ResourceApi {
  /** Path under /api. */
  path: string;
  /** The group of its spec §8 error texts (src/i18n/en/errors.ts). */
  errors: string;
  /** Fields the server owns: never sent in create or update payloads (spec §5). */
  serverOwned?: readonly string[];
  /** A payload holding only this field is a status toggle (its own error text). */
  toggleField?: string;
  /**
   * Fields the API filters by range as a pair of query keys: gte/gt on the field become `from`, lte/lt become
   * `to` (e.g. the audit trail's `at` → ?from=&to=).
   */
  ranges?: Record<string, { from: string; to: string }>;
}

const SERVER_OWNED = ['id', 'created_at', 'updated_at'] as const;
const gateways: ResourceApi = {
  path: 'payments/gateways',
  errors: 'gateways',
  serverOwned: SERVER_OWNED,
  toggleField: 'is_active',
};

/** Resources whose API differs from the default (path = resource name, errors group = resource name). */
export const RESOURCE_API: Record<string, ResourceApi> = {
  plans: { path: 'plans', errors: 'plans', serverOwned: SERVER_OWNED, toggleField: 'status' },
  'payment-gateways': gateways,
  gateways,
  subscriptions: { path: 'subscriptions', errors: 'subscriptions', toggleField: 'status' },
  invoices: { path: 'payments/invoices', errors: 'invoices' },
  users: { path: 'users', errors: 'users', toggleField: 'status' },
  audit: { path: 'audit', errors: 'audit', ranges: { at: { from: 'from', to: 'to' } } },
};

/** A resource's API, with meta.endpoint (path under /api) taking precedence over the table. */
export function resourceApi(resource: string, meta?: MetaQuery): ResourceApi {
  // A declared resource's API is where its role-matrix entry says (contract/roles.ts `api`), else its name.
  const api = resourceAccess(resource)?.api;
  const known = RESOURCE_API[resource] ?? {
    path: api ? api.replace(/^\/+/, '') : resource,
    errors: resource,
    serverOwned: SERVER_OWNED,
  };
  const endpoint = typeof meta?.endpoint === 'string' ? meta.endpoint.replace(/^\/+/, '') : undefined;
  return endpoint ? { ...known, path: endpoint } : known;
}

/** The spec §8 text for a resource and operation, or 'An unknown error occurred.' when it has none. */
export function errorFallback(resource: string, operation: string, meta?: MetaQuery): string {
  if (typeof meta?.fallbackMessage === 'string') return meta.fallbackMessage;
  const key = errorKey(resourceApi(resource, meta).errors, operation);
  const text = translate(key);
  return text === key ? translate('errors.unknown') : text;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * Filters → query. eq (and the other one-value operators the server has no syntax for) → field=value;
 * contains on q/search → search=value, on another field → field=value; in → comma list; gte/gt and lte/lt on
 * a field of `ranges` → its from/to key. Empty values are dropped; or/and groups are not supported by the API
 * and are ignored.
 */
export function filtersToQuery(
  filters: CrudFilter[] | undefined,
  ranges?: ResourceApi['ranges'],
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const filter of filters ?? []) {
    if (!('field' in filter) || isEmpty(filter.value)) continue;
    const { field, operator, value } = filter;
    switch (operator) {
      case 'eq':
      case 'eqs':
        query[field] = String(value);
        break;
      case 'contains':
      case 'containss':
        query[field === 'q' ? 'search' : field] = String(value);
        break;
      case 'in':
      case 'ina': {
        const list = (Array.isArray(value) ? value : [value]).filter((v) => !isEmpty(v));
        if (list.length) query[field] = list.join(',');
        break;
      }
      case 'gte':
      case 'gt':
      case 'lte':
      case 'lt': {
        const range = ranges?.[field];
        if (range) query[operator.startsWith('g') ? range.from : range.to] = String(value);
        break;
      }
      default:
        break; // ne, between…, and ranges on fields without from/to keys: no query syntax on the API side
    }
  }
  return query;
}

export function sortersToQuery(sorters: CrudSort[] | undefined): Record<string, string> {
  const first = sorters?.find((s) => s.field && s.order);
  return first ? { sort: first.field, order: first.order } : {};
}

export function paginationToQuery(pagination: GetListParams['pagination']): Record<string, string> {
  if (pagination?.mode && pagination.mode !== 'server') return {};
  const page = Math.max(1, pagination?.currentPage ?? 1);
  const size = Math.max(1, pagination?.pageSize ?? 10);
  return { page: String(page), limit: String(size) };
}

function singular(name: string): string {
  if (/ies$/.test(name)) return name.replace(/ies$/, 'y');
  if (/(ss|x|ch|sh|us)es$/.test(name)) return name.replace(/es$/, '');
  return name.replace(/s$/, '');
}

function camel(name: string): string {
  return name.replace(/[-_](\w)/g, (_, c: string) => c.toUpperCase());
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The record inside a single-resource response: data itself, unless data is {<name>: {...}} with exactly one
 * key that is the resource's singular name (plain or camelCase, or the last segment of its path) or "item".
 */
export function unwrapEntity<T>(data: unknown, resource: string, path = resource): T {
  if (!isPlainObject(data)) return data as T;
  const keys = Object.keys(data);
  if (keys.length !== 1) return data as T;
  const lastSegment = path.split('/').filter(Boolean).pop() ?? resource;
  const names = new Set(['item', singular(resource), camel(singular(resource)), singular(lastSegment)]);
  const inner = data[keys[0]];
  return (names.has(keys[0]) && isPlainObject(inner) ? inner : data) as T;
}

/**
 * Items and total of a list response's data: {items, pagination} (every paginated list), or a bare array (the
 * lists that are not paginated).
 */
export function listItems<T>(data: unknown): { items: T[]; total: number } {
  if (Array.isArray(data)) return { items: data as T[], total: data.length };
  const d = (data ?? {}) as { items?: T[]; pagination?: { total?: number }; total?: number };
  const items = Array.isArray(d.items) ? d.items : [];
  const total = d.pagination?.total ?? d.total ?? items.length;
  return { items, total: Number(total) || 0 };
}

function payloadFor(api: ResourceApi, variables: unknown): unknown {
  if (!api.serverOwned || !isPlainObject(variables)) return variables;
  const copy = { ...variables };
  for (const field of api.serverOwned) delete copy[field];
  return copy;
}

function isToggle(api: ResourceApi, variables: unknown): boolean {
  return !!api.toggleField && isPlainObject(variables) && Object.keys(variables).join() === api.toggleField;
}

function customPath(url: string): string {
  if (/^https?:\/\//.test(url)) return url;
  const withSlash = url.startsWith('/') ? url : `/${url}`;
  return withSlash.startsWith(`${API_BASE}/`) ? withSlash.slice(API_BASE.length) : withSlash;
}

interface Envelope<T> {
  data: T;
}

/**
 * `http` as simple-rest sees it for one call: each verb method is the client's own, with `extra` added to the
 * request's config. simple-rest ends a GET's url with "?" for the query it would append; that "?" is dropped.
 */
function forOneCall(http: AxiosInstance, extra: AxiosRequestConfig): AxiosInstance {
  const tidy = (target: string) => target.replace(/\?$/, '');
  return Object.assign(Object.create(http) as AxiosInstance, {
    get: (target: string, config?: AxiosRequestConfig) => http.get(tidy(target), { ...config, ...extra }),
    delete: (target: string, config?: AxiosRequestConfig) => http.delete(tidy(target), { ...config, ...extra }),
    post: (target: string, data?: unknown, config?: AxiosRequestConfig) =>
      http.post(target, data, { ...config, ...extra }),
    put: (target: string, data?: unknown, config?: AxiosRequestConfig) =>
      http.put(target, data, { ...config, ...extra }),
    patch: (target: string, data?: unknown, config?: AxiosRequestConfig) =>
      http.patch(target, data, { ...config, ...extra }),
  });
}

export function createDataProvider(http: AxiosInstance): DataProvider {
  const url = (api: ResourceApi, id?: BaseKey) =>
    id === undefined ? `/${api.path}` : `/${api.path}/${encodeURIComponent(String(id))}`;

  const provider: DataProvider = {
    ...simpleRest(API_BASE, http),

    async getList<TData extends BaseRecord = BaseRecord>({
      resource,
      pagination,
      filters,
      sorters,
      meta,
    }: GetListParams) {
      const api = resourceApi(resource, meta);
      const params = {
        ...filtersToQuery(filters, api.ranges),
        ...sortersToQuery(sorters),
        ...paginationToQuery(pagination),
        ...(isPlainObject(meta?.query) ? meta.query : {}),
      };
      const res = await http.get<Envelope<unknown>>(url(api), {
        params,
        headers: meta?.headers,
        fallbackMessage: errorFallback(resource, 'list', meta),
      });
      const { items, total } = listItems<TData>(res.data?.data);
      return { data: items, total };
    },

    async getOne({ resource, id, meta }) {
      const api = resourceApi(resource, meta);
      const res = await http.get<Envelope<unknown>>(url(api, id), {
        headers: meta?.headers,
        fallbackMessage: errorFallback(resource, 'one', meta),
      });
      return { data: unwrapEntity(res.data?.data, resource, api.path) };
    },

    async getMany<TData extends BaseRecord = BaseRecord>({ resource, ids, meta }: GetManyParams) {
      // The API has no batch read; one read per id, in parallel.
      const records = await Promise.all(ids.map((id) => provider.getOne<TData>({ resource, id, meta })));
      return { data: records.map((r) => r.data) };
    },

    async create({ resource, variables, meta }) {
      const api = resourceApi(resource, meta);
      const res = await http.post<Envelope<unknown>>(url(api), payloadFor(api, variables), {
        headers: meta?.headers,
        fallbackMessage: errorFallback(resource, 'create', meta),
      });
      return { data: unwrapEntity(res.data?.data, resource, api.path) };
    },

    async update({ resource, id, variables, meta }) {
      const api = resourceApi(resource, meta);
      const operation = isToggle(api, variables) ? 'status' : 'update';
      const res = await http.put<Envelope<unknown>>(url(api, id), payloadFor(api, variables), {
        headers: meta?.headers,
        fallbackMessage: errorFallback(resource, operation, meta),
      });
      return { data: unwrapEntity(res.data?.data, resource, api.path) };
    },

    async deleteOne({ resource, id, variables, meta }) {
      const api = resourceApi(resource, meta);
      const res = await http.delete<Envelope<unknown>>(url(api, id), {
        data: variables,
        headers: meta?.headers,
        fallbackMessage: errorFallback(resource, 'delete', meta),
      });
      // Deletes often answer data: null; Refine wants a record, so fall back to the id.
      const data = res.data?.data ?? { id };
      return { data: unwrapEntity(data, resource, api.path) };
    },

    async custom({ url: target, method, filters, sorters, payload, query, headers, meta }: CustomParams) {
      const params = {
        ...filtersToQuery(filters),
        ...sortersToQuery(sorters),
        ...(isPlainObject(query) ? query : {}),
      };
      const fallbackMessage = typeof meta?.fallbackMessage === 'string' ? meta.fallbackMessage : undefined;
      // simple-rest's request on our client; filters, sorters and query already travel as params.
      const res = await simpleRest(API_BASE, forOneCall(http, { params, fallbackMessage })).custom({
        url: customPath(target),
        method,
        payload,
        headers,
      });
      const body = res.data as Envelope<unknown> | undefined;
      return { data: body?.data as never };
    },
  };
  return provider;
}

/** The app's data provider on the app's http client. */
export const dataProvider: DataProvider = createDataProvider(httpClient);
