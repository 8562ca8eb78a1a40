/** The call behind the system page: GET /system, read again every 15 s while the page is open. */
import { useCustom } from '@refinedev/core';
import type { SystemStatus } from '../../contract/schemas/system';
import { errorToast } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';

/** How often the page reads the figures again (the nodes' heartbeat interval by default). */
export const REFRESH_MS = 15_000;

const statusOf = (value: unknown): SystemStatus | undefined =>
  typeof (value as SystemStatus | undefined)?.version === 'string' ? (value as SystemStatus) : undefined;

export function useSystemStatus() {
  const { query, result } = useCustom<SystemStatus>({
    url: '/system',
    method: 'get',
    meta: { fallbackMessage: t('system.errors.load') },
    errorNotification: errorToast('system.errors.load'),
    queryOptions: { refetchInterval: REFRESH_MS },
  });
  return {
    status: query.isError ? undefined : statusOf(result.data),
    isLoading: query.isLoading,
    isFetching: query.isFetching,
    refresh: () => void query.refetch(),
    updatedAt: query.dataUpdatedAt,
  };
}
