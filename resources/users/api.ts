/**
 * The user calls that are not plain list/read (spec §7 Users): companies for the filter, create/update,
 * status, password and delete, and the CSV export, all through Refine's data provider (the app's http client:
 * bearer token, shared refresh, spec §8 fallbacks). Mutations toast their text on success and the server's
 * message (else the spec §8 text) on failure, then refresh every query on screen.
 */
import { useCustom, useDataProvider, type BaseRecord, type CrudFilter } from '@refinedev/core';
import { usersCsv, type ManagedUser } from '../../contract/schemas/user';
import { useToastedCall, type ToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';

/** GET /users/companies: the known companies, for the company filter. */
export function useCompanies(): string[] {
  const { result } = useCustom<string[]>({
    url: '/users/companies',
    method: 'get',
    meta: { fallbackMessage: t('errors.users.list') },
    errorNotification: false,
  });
  return Array.isArray(result.data) ? (result.data as string[]) : [];
}

export type UserCall = ToastedCall;

/** One user mutation: resolves with the response data, or undefined when it failed (already toasted). */
export function useUserCall() {
  return useToastedCall<UserCall>();
}

export const userUrl = (id: string) => `/users/${encodeURIComponent(id)}`;

/** Page size of the export's reads (the API's largest page). */
export const EXPORT_PAGE_SIZE = 100;

/**
 * Every user matching the filters, read page by page through the list endpoint, as CSV text (the contract's
 * columns and escaping, formula-safe). onProgress is told how many of how many are in.
 */
export function useUsersCsvExport() {
  const getProvider = useDataProvider();
  return async (
    filters: CrudFilter[],
    onProgress?: (done: number, total: number) => void,
  ): Promise<{ csv: string; count: number }> => {
    const provider = getProvider();
    const all: ManagedUser[] = [];
    for (let page = 1; ; page++) {
      const { data, total } = await provider.getList<BaseRecord>({
        resource: 'users',
        filters,
        pagination: { currentPage: page, pageSize: EXPORT_PAGE_SIZE, mode: 'server' },
        meta: { fallbackMessage: t('errors.users.list') },
      });
      all.push(...(data as unknown as ManagedUser[]));
      onProgress?.(all.length, total ?? all.length);
      if (data.length < EXPORT_PAGE_SIZE || all.length >= (total ?? 0)) break;
    }
    return { csv: usersCsv(all), count: all.length };
  };
}

/** Hands a text to the browser as a file download. */
export function downloadText(text: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
