/** The IP screens' reads (Refine's useCustom: the app's http client, its errors and refresh). */
import { useCustom } from '@refinedev/core';
import type { PagePagination } from '../../contract/envelope';
import type {
  IpAddress,
  IpDynamicAddress,
  IpNetwork,
  IpNetworkPurpose,
  SubscriptionAddress,
} from '../../contract/schemas/ipam';
import { retryUnlessClientError } from '../../src/components/retry';
import { t } from '../../src/i18n';

export const NETWORKS = 'ipam/networks';

export interface AddressMap {
  network: IpNetwork;
  items: IpAddress[];
  pagination: PagePagination;
  dynamic?: IpDynamicAddress[];
}

/** One block (from … to) of a network's address map: the addresses in use there and, for a pool, those in sessions. */
export function useAddressMap(id: string, block: { from: string; to: string } | null) {
  const { query, result } = useCustom<AddressMap>({
    url: `/ipam/networks/${encodeURIComponent(id)}/addresses`,
    method: 'get',
    config: { query: block ? { from: block.from, to: block.to, limit: 500 } : { limit: 500 } },
    meta: { fallbackMessage: t('ipam.map.loadFailed') },
    errorNotification: false,
    queryOptions: { enabled: !!id, retry: retryUnlessClientError },
  });
  return {
    // Refine answers an empty object until the data is there.
    map: query.isError || !query.data ? undefined : (result.data as AddressMap),
    isLoading: query.isLoading,
    error: query.isError ? query.error?.message || t('ipam.map.loadFailed') : null,
  };
}

/** The networks of some purposes (for the subscription's address choice): the first 100, by address. */
export function useNetworks(purposes: IpNetworkPurpose[], enabled = true) {
  const { query, result } = useCustom<{ items: IpNetwork[] }>({
    url: '/ipam/networks',
    method: 'get',
    config: { query: { limit: 100 } },
    meta: { fallbackMessage: t('errors.ipam.list') },
    errorNotification: false,
    queryOptions: { enabled, retry: retryUnlessClientError },
  });
  const items = ((result.data as { items?: IpNetwork[] } | undefined)?.items ?? []).filter((n) =>
    purposes.includes(n.purpose),
  );
  return { networks: items, isLoading: query.isLoading && enabled };
}

export const addressUrl = (subscriptionId: string) => `/subscriptions/${encodeURIComponent(subscriptionId)}/address`;

/** GET /subscriptions/{id}/address (staff; a customer for their own subscription). */
export function useSubscriptionAddress(subscriptionId: string, enabled: boolean) {
  const { query, result } = useCustom<SubscriptionAddress>({
    url: addressUrl(subscriptionId),
    method: 'get',
    meta: { fallbackMessage: t('ipam.address.loadFailed') },
    errorNotification: false,
    queryOptions: { enabled: enabled && !!subscriptionId, retry: retryUnlessClientError },
  });
  return {
    address: query.isError || !query.data ? undefined : (result.data as SubscriptionAddress),
    isLoading: query.isLoading && enabled,
    error: query.isError ? query.error?.message || t('ipam.address.loadFailed') : null,
  };
}
