/**
 * The subscription calls the screens make, all through Refine's data provider (so the http client's refresh,
 * time-out and spec §8 message precedence apply, and tests answer them with a fake adapter). Mutations toast
 * their spec §8 text on success and the server's message (else the spec fallback) on failure, then refresh
 * every query on screen.
 */
import { useCustom, useList } from '@refinedev/core';
import type { Plan } from '../../contract/schemas/plan';
import type { ActivePlan, Order } from '../../contract/schemas/subscription';
import { retryUnlessClientError } from '../../src/components/retry';
import { errorToast, useToastedCall, type ToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';

/** Reads retry only what may pass on a second try (a 404 "no active plan" is an answer). */
export { retryUnlessClientError };

/** GET /subscriptions/active-plan: a 404 means "no active plan", which is not an error worth a toast. */
export function useActivePlan() {
  const { query, result } = useCustom<ActivePlan>({
    url: '/subscriptions/active-plan',
    method: 'get',
    meta: { fallbackMessage: t('errors.subscriptions.activePlan') },
    errorNotification: (error) =>
      error?.statusCode === 404 ? false : errorToast('errors.subscriptions.activePlan')(error),
    queryOptions: { retry: retryUnlessClientError },
  });
  const none = query.error?.statusCode === 404;
  return {
    activePlan: query.isError ? undefined : (result.data as ActivePlan | undefined),
    none,
    isLoading: query.isLoading,
    failed: query.isError && !none,
  };
}

/** GET /subscriptions/orders: the caller's subscriptions with their invoices and payments, newest first. */
export function useOrders(enabled = true) {
  const { query, result } = useCustom<Order[]>({
    url: '/subscriptions/orders',
    method: 'get',
    meta: { fallbackMessage: t('errors.subscriptions.orders') },
    errorNotification: errorToast('errors.subscriptions.orders'),
    queryOptions: { enabled, retry: retryUnlessClientError },
  });
  const orders = Array.isArray(result.data) ? (result.data as unknown as Order[]) : [];
  return { orders, isLoading: query.isLoading && enabled, failed: query.isError };
}

/** The active plans (what a customer may subscribe or move to). */
export function useActivePlans(enabled = true) {
  const { query, result } = useList<Plan>({
    resource: 'plans',
    filters: [{ field: 'status', operator: 'eq', value: 'active' }],
    sorters: [{ field: 'sort_order', order: 'asc' }],
    pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
    queryOptions: { enabled },
  });
  return { plans: result.data ?? [], isLoading: query.isLoading && enabled };
}

export interface CallOptions extends ToastedCall {
  method: 'post' | 'patch' | 'delete';
}

/** One subscription action: resolves with the response data, or undefined when it failed (already toasted). */
export function useSubscriptionCall() {
  return useToastedCall<CallOptions>();
}
