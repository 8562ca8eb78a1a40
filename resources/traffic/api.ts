/**
 * The calls behind the interfaces and usage screens, through Refine's data provider (the app's http client):
 * the device list for the pickers, a device's interfaces with live status, an interface's traffic, poll now.
 */
import { useCustom, useCustomMutation } from '@refinedev/core';
import type { DeviceSummary } from '../../contract/schemas/device';
import type { DeviceInterfaceList, DevicePollResult, Traffic, TrafficRange } from '../../contract/schemas/traffic';
import { errorToast } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';

const dev = (id: string) => `/devices/${encodeURIComponent(id)}`;

/** Interfaces' live status is re-read this often while a screen shows it. */
export const INTERFACES_REFRESH_MS = 30_000;

/** GET /devices (first 100 by name) for the device pickers. */
export function useDeviceOptions() {
  const { query, result } = useCustom<{ items: DeviceSummary[] }>({
    url: '/devices',
    method: 'get',
    config: { query: { limit: 100 } },
    meta: { fallbackMessage: t('errors.traffic.devices') },
    errorNotification: errorToast('errors.traffic.devices'),
  });
  const items = (result.data as { items?: DeviceSummary[] } | undefined)?.items ?? [];
  return { devices: [...items].sort((a, b) => a.name.localeCompare(b.name)), isLoading: query.isLoading };
}

/** GET /devices/{id}/interfaces, refreshed every INTERFACES_REFRESH_MS. */
export function useInterfaces(deviceId: string | undefined) {
  const { query, result } = useCustom<DeviceInterfaceList>({
    url: `${dev(deviceId ?? '')}/interfaces`,
    method: 'get',
    meta: { fallbackMessage: t('errors.traffic.interfaces') },
    errorNotification: errorToast('errors.traffic.interfaces'),
    queryOptions: { enabled: !!deviceId, refetchInterval: INTERFACES_REFRESH_MS },
  });
  return {
    data: query.isSuccess ? (result.data as DeviceInterfaceList) : undefined,
    isLoading: query.isLoading && !!deviceId,
    isFetching: query.isFetching,
    refetch: () => query.refetch(),
  };
}

export interface TrafficRequest {
  range: TrafficRange;
  from?: string;
  to?: string;
}

/** GET /devices/{id}/interfaces/{interfaceId}/traffic. */
export function useTraffic(deviceId: string | undefined, interfaceId: string | undefined, request: TrafficRequest) {
  const ready = !!deviceId && !!interfaceId && (request.range !== 'custom' || (!!request.from && !!request.to));
  const { query, result } = useCustom<Traffic>({
    url: `${dev(deviceId ?? '')}/interfaces/${encodeURIComponent(interfaceId ?? '')}/traffic`,
    method: 'get',
    config: {
      query: { range: request.range, ...(request.range === 'custom' ? { from: request.from, to: request.to } : {}) },
    },
    meta: { fallbackMessage: t('errors.traffic.traffic') },
    errorNotification: errorToast('errors.traffic.traffic'),
    queryOptions: { enabled: ready },
  });
  return {
    data: query.isSuccess ? (result.data as Traffic) : undefined,
    isLoading: query.isLoading && ready,
    isFetching: query.isFetching,
    refetch: () => query.refetch(),
  };
}

/** POST /devices/{id}/poll. */
export function usePollNow() {
  const { mutateAsync, mutation } = useCustomMutation<DevicePollResult>();
  return {
    isPending: mutation.isPending,
    poll: async (deviceId: string): Promise<DevicePollResult> => {
      const res = await mutateAsync({
        url: `${dev(deviceId)}/poll`,
        method: 'post',
        values: {},
        meta: { fallbackMessage: t('errors.traffic.poll') },
        successNotification: false,
        errorNotification: errorToast('errors.traffic.poll'),
      });
      return res.data as DevicePollResult;
    },
  };
}
