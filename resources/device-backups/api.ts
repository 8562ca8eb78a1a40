/**
 * The calls behind the configuration and backup screens, through Refine's data provider (the app's http
 * client): the router list for the picker, the running configuration, back up now and its job, versions,
 * failed runs, a version's masked text, the diff of two versions, and the download (a Blob through the
 * http client, which carries the bearer token a plain link would not).
 */
import { useCustom, useCustomMutation } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import type { PagePagination } from '../../contract/envelope';
import type { DeviceSummary } from '../../contract/schemas/device';
import {
  DEVICE_JOB_FINISHED,
  type DeviceBackup,
  type DeviceBackupDetail,
  type DeviceBackupDiff,
  type DeviceConfig,
  type DeviceJob,
} from '../../contract/schemas/device-backup';
import { httpClient } from '../../providers/http-client';
import { errorToast } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';

const dev = (id: string) => `/devices/${encodeURIComponent(id)}`;

/** How often a running job is re-read. */
export const JOB_POLL_MS = 1000;
/** Query keys of the backup screen's lists start with this, so one invalidation refreshes them all. */
const BACKUP_KEY = 'device-backups';

export interface Page<T> {
  items: T[];
  pagination: PagePagination;
}

/** useCustom's result before the first answer is not the answer's shape: only a real answer counts. */
const pageOf = <T>(value: unknown): Page<T> | undefined =>
  Array.isArray((value as Page<T> | undefined)?.items) ? (value as Page<T>) : undefined;
const withField = <T>(value: unknown, field: string): T | undefined =>
  value && typeof value === 'object' && field in value ? (value as T) : undefined;

/** GET /devices?vendor=mikrotik: the routers whose configuration can be exported (first 100 by name). */
export function useRouterOptions() {
  const { query, result } = useCustom<{ items: DeviceSummary[] }>({
    url: '/devices',
    method: 'get',
    config: { query: { limit: 100, vendor: 'mikrotik' } },
    meta: { fallbackMessage: t('errors.deviceBackups.devices') },
    errorNotification: errorToast('errors.deviceBackups.devices'),
  });
  const items = pageOf<DeviceSummary>(result.data)?.items ?? [];
  return { devices: [...items].sort((a, b) => a.name.localeCompare(b.name)), isLoading: query.isLoading };
}

/** GET /devices/{id}/config: fetched from the router when asked (it takes a router round trip). */
export function useRunningConfig(deviceId: string | undefined) {
  const { query, result } = useCustom<DeviceConfig>({
    url: `${dev(deviceId ?? '')}/config`,
    method: 'get',
    meta: { fallbackMessage: t('errors.deviceBackups.config') },
    errorNotification: false,
    queryOptions: { enabled: !!deviceId, retry: false, staleTime: Infinity, refetchOnWindowFocus: false },
  });
  return {
    config: query.isError ? undefined : withField<DeviceConfig>(result.data, 'content'),
    isFetching: query.isFetching,
    error: query.isError ? query.error?.message || t('errors.deviceBackups.config') : null,
    refetch: () => query.refetch(),
  };
}

/** GET /devices/{id}/backups: the versions, newest first. */
export function useBackupVersions(deviceId: string | undefined, page: number, limit = 20) {
  const { query, result } = useCustom<Page<DeviceBackup>>({
    url: `${dev(deviceId ?? '')}/backups`,
    method: 'get',
    config: { query: { page, limit } },
    meta: { fallbackMessage: t('errors.deviceBackups.versions') },
    errorNotification: errorToast('errors.deviceBackups.versions'),
    queryOptions: { enabled: !!deviceId, queryKey: [BACKUP_KEY, 'versions', deviceId, page, limit] },
  });
  const data = query.isError ? undefined : pageOf<DeviceBackup>(result.data);
  return { versions: data?.items ?? [], pagination: data?.pagination, isLoading: query.isLoading && !!deviceId };
}

/** GET /devices/{id}/backup-jobs?kind=backup&status=failed: the failed runs with their reason. */
export function useFailedRuns(deviceId: string | undefined) {
  const { query, result } = useCustom<Page<DeviceJob>>({
    url: `${dev(deviceId ?? '')}/backup-jobs`,
    method: 'get',
    config: { query: { kind: 'backup', status: 'failed', limit: 10 } },
    meta: { fallbackMessage: t('errors.deviceBackups.jobs') },
    errorNotification: errorToast('errors.deviceBackups.jobs'),
    queryOptions: { enabled: !!deviceId, queryKey: [BACKUP_KEY, 'failed', deviceId] },
  });
  const data = query.isError ? undefined : pageOf<DeviceJob>(result.data);
  return { runs: data?.items ?? [], total: data?.pagination.total ?? 0, isLoading: query.isLoading && !!deviceId };
}

/** GET /devices/{id}/backups/{backupId}: one version's text, masked. */
export function useBackupVersion(deviceId: string | undefined, backupId: string | undefined) {
  const { query, result } = useCustom<DeviceBackupDetail>({
    url: `${dev(deviceId ?? '')}/backups/${encodeURIComponent(backupId ?? '')}`,
    method: 'get',
    meta: { fallbackMessage: t('errors.deviceBackups.version') },
    errorNotification: errorToast('errors.deviceBackups.version'),
    queryOptions: { enabled: !!deviceId && !!backupId },
  });
  return {
    version: query.isError ? undefined : withField<DeviceBackupDetail>(result.data, 'content'),
    isLoading: query.isLoading && !!backupId,
  };
}

/** GET /devices/{id}/backups/diff?from=&to=. */
export function useBackupDiff(deviceId: string | undefined, from: string | undefined, to: string | undefined) {
  const enabled = !!deviceId && !!from && !!to;
  const { query, result } = useCustom<DeviceBackupDiff>({
    url: `${dev(deviceId ?? '')}/backups/diff`,
    method: 'get',
    config: { query: { from, to } },
    meta: { fallbackMessage: t('errors.deviceBackups.diff') },
    errorNotification: errorToast('errors.deviceBackups.diff'),
    queryOptions: { enabled, queryKey: [BACKUP_KEY, 'diff', deviceId, from, to] },
  });
  return {
    diff: query.isError ? undefined : withField<DeviceBackupDiff>(result.data, 'hunks'),
    isLoading: query.isLoading && enabled,
  };
}

export const isFinished = (job: Pick<DeviceJob, 'status'> | undefined) =>
  !!job && DEVICE_JOB_FINISHED.includes(job.status);

/** GET /device-jobs/{jobId}, re-read every JOB_POLL_MS until the job has finished. */
export function useJob(jobId: string | undefined) {
  const { query, result } = useCustom<DeviceJob>({
    url: `/device-jobs/${encodeURIComponent(jobId ?? '')}`,
    method: 'get',
    meta: { fallbackMessage: t('errors.deviceBackups.job') },
    errorNotification: errorToast('errors.deviceBackups.job'),
    queryOptions: {
      enabled: !!jobId,
      queryKey: ['device-job', jobId],
      refetchInterval: (q) => {
        const job = (q.state.data as { data?: DeviceJob } | undefined)?.data;
        return isFinished(job) || q.state.status === 'error' ? false : JOB_POLL_MS;
      },
    },
  });
  return { job: query.isError ? undefined : withField<DeviceJob>(result.data, 'status') };
}

/** POST /devices/{id}/backups: resolves with the job to poll, or undefined when it failed (already toasted). */
export function useStartBackup() {
  const { mutateAsync, mutation } = useCustomMutation<{ job: DeviceJob }>();
  const start = async (deviceId: string): Promise<DeviceJob | undefined> => {
    const res = await mutateAsync({
      url: `${dev(deviceId)}/backups`,
      method: 'post',
      values: {},
      meta: { fallbackMessage: t('errors.deviceBackups.start') },
      successNotification: false,
      errorNotification: errorToast('errors.deviceBackups.start'),
    }).catch(() => undefined);
    const job = (res?.data as { job?: DeviceJob } | undefined)?.job;
    return job;
  };
  return { start, isPending: mutation.isPending };
}

/** Marks the versions, runs and diffs stale (after a backup finished). */
export function useRefreshBackups() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === BACKUP_KEY });
}

/** Downloads a version as stored (GET .../download) and hands it to the browser as a file. */
export async function downloadBackup(
  deviceId: string,
  backup: Pick<DeviceBackup, 'id' | 'version'>,
  deviceName: string,
): Promise<void> {
  const res = await httpClient.get<Blob>(`${dev(deviceId)}/backups/${encodeURIComponent(backup.id)}/download`, {
    responseType: 'blob',
    fallbackMessage: t('deviceBackups.versions.downloadFailed'),
  });
  const disposition = String(res.headers?.['content-disposition'] ?? '');
  const named = /filename="([^"]+)"/.exec(disposition)?.[1];
  const url = URL.createObjectURL(res.data);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = named ?? `${deviceName}-v${backup.version}.rsc`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
