/**
 * The calls behind the backups screen: the list with schedule and last failure (GET /backups), back up now
 * (POST /backups) and a download (GET download_url as a Blob through the http client, which carries the bearer
 * token a plain link would not).
 */
import { useCustom } from '@refinedev/core';
import type { BackupItem, BackupList } from '../../contract/schemas/backup';
import { httpClient } from '../../providers/http-client';
import { saveBlob } from '../../src/components/saveBlob';
import { errorToast, useToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';

/** useCustom's result before the first answer is not the answer's shape: only a real answer counts. */
const listOf = (value: unknown): BackupList | undefined =>
  Array.isArray((value as BackupList | undefined)?.items) ? (value as BackupList) : undefined;

/** GET /backups: the kept backups (newest first), the schedule and the last failure. */
export function useBackups() {
  const { query, result } = useCustom<BackupList>({
    url: '/backups',
    method: 'get',
    meta: { fallbackMessage: t('backups.errors.list') },
    errorNotification: errorToast('backups.errors.list'),
  });
  return { list: query.isError ? undefined : listOf(result.data), isLoading: query.isLoading };
}

/**
 * POST /backups: takes a backup now (it may take a while; 409 while another runs). Toasts the outcome and,
 * on success, reads the list again. `backUpNow` resolves with the new backup, or undefined when it failed.
 */
export function useBackUpNow() {
  const { run, isPending } = useToastedCall();
  const backUpNow = () =>
    run<BackupItem>({
      url: '/backups',
      method: 'post',
      success: t('backups.created'),
      fallbackKey: 'backups.errors.create',
    });
  return { backUpNow, isPending };
}

/** Downloads a kept backup through its authorised URL and saves it under its own name. */
export async function downloadBackup(backup: Pick<BackupItem, 'name' | 'download_url'>): Promise<void> {
  // download_url is the API's path (/api/backups/...); the http client already has /api as its base.
  const path = backup.download_url.replace(/^\/api(?=\/)/, '');
  const res = await httpClient.get<Blob>(path, { responseType: 'blob', fallbackMessage: t('backups.errors.download') });
  saveBlob(res.data, backup.name);
}
