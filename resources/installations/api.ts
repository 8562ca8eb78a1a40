/**
 * The installation calls (issue 8). Reads and mutations go through Refine's data provider (the app's http
 * client: bearer token, shared refresh, the server's message first); photo uploads use the http client
 * directly for onUploadProgress, downloads for the bearer token.
 */
import { useCustom } from '@refinedev/core';
import type { PagePagination } from '../../contract/envelope';
import type {
  Installation,
  InstallationDetail,
  InstallationListQuery,
  InstallationPhoto,
  ServiceAccess,
} from '../../contract/schemas/installation';
import { httpClient } from '../../providers/http-client';
import { uploadFiles } from '../../providers/upload';
import { retryUnlessClientError } from '../../src/components/retry';
import { errorToast, useToastedCall, type ToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';

export const installationUrl = (id: string) => `/installations/${encodeURIComponent(id)}`;

/** GET /installations with the given filters (only the non-empty ones are sent). */
export function useInstallations(query: InstallationListQuery) {
  const params = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  const { query: q, result } = useCustom<{ items: Installation[]; pagination: PagePagination }>({
    url: '/installations',
    method: 'get',
    config: { query: params },
    meta: { fallbackMessage: t('errors.installations.list') },
    errorNotification: errorToast('errors.installations.list'),
    queryOptions: { retry: retryUnlessClientError },
  });
  const data = q.isError
    ? undefined
    : (result.data as { items: Installation[]; pagination: PagePagination } | undefined);
  return {
    items: data?.items ?? [],
    pagination: data?.pagination,
    isLoading: q.isLoading,
    error: q.isError ? q.error?.message || t('errors.installations.list') : null,
  };
}

export function useInstallation(id: string) {
  const { query, result } = useCustom<InstallationDetail>({
    url: installationUrl(id),
    method: 'get',
    meta: { fallbackMessage: t('errors.installations.one') },
    errorNotification: false,
    queryOptions: { enabled: !!id, retry: retryUnlessClientError },
  });
  return {
    job: query.isError ? undefined : (result.data as InstallationDetail | undefined),
    isLoading: query.isLoading,
    error: query.isError ? query.error?.message || t('errors.installations.one') : null,
  };
}

/** Active technicians for the assignment choice (GET /users, admin/support). */
export function useTechnicians(enabled: boolean) {
  const { query, result } = useCustom<{ items: Array<{ id: string; name: string; status: string }> }>({
    url: '/users',
    method: 'get',
    config: { query: { role: 'technician', status: 'active', limit: 100 } },
    meta: { fallbackMessage: t('errors.installations.technicians') },
    errorNotification: false,
    queryOptions: { enabled, retry: false },
  });
  const data = result.data as
    | { items?: Array<{ id: string; name: string }> }
    | Array<{ id: string; name: string }>
    | undefined;
  const items = Array.isArray(data) ? data : (data?.items ?? []);
  return { technicians: items.map((u) => ({ id: u.id, name: u.name })), isLoading: query.isLoading && enabled };
}

/** One mutation with its toast; every installation read is refreshed after it. */
export function useInstallationCall() {
  return useToastedCall<ToastedCall & { method: 'post' | 'put' | 'patch' }>();
}

/** POST /installations/{id}/photos as multipart, reporting progress in percent. */
export function uploadPhotos(
  id: string,
  files: File[],
  onProgress?: (percent: number) => void,
): Promise<InstallationPhoto[]> {
  return uploadFiles<InstallationPhoto>(
    `${installationUrl(id)}/photos`,
    files,
    t('installations.photos.failed'),
    onProgress,
  );
}

/** A photo as an object URL (the download needs the bearer token, so an <img src> cannot fetch it). */
export async function photoObjectUrl(photo: Pick<InstallationPhoto, 'download_url'>): Promise<string> {
  const res = await httpClient.get<Blob>(photo.download_url.replace(/^\/api(?=\/)/, ''), { responseType: 'blob' });
  return URL.createObjectURL(res.data);
}

/** GET /subscriptions/{id}/credentials: the PPPoE login and the installation's progress. */
export function useServiceAccess(subscriptionId: string, enabled = true) {
  const { query, result } = useCustom<ServiceAccess>({
    url: `/subscriptions/${encodeURIComponent(subscriptionId)}/credentials`,
    method: 'get',
    meta: { fallbackMessage: t('errors.access') },
    errorNotification: false,
    queryOptions: { enabled: enabled && !!subscriptionId, retry: retryUnlessClientError },
  });
  return {
    access: query.isError ? undefined : (result.data as ServiceAccess | undefined),
    isLoading: query.isLoading && enabled,
    error: query.isError ? query.error?.message || t('errors.access') : null,
  };
}
