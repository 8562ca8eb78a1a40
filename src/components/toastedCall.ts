/**
 * One mutation through Refine's data provider (the app's http client: bearer token, shared refresh, spec §8
 * fallbacks): toasts its text on success and the server's message (else the spec §8 text) on failure, then
 * refreshes the queries on screen. Shared by the screens whose calls behave so (subscriptions, users,
 * invoices, tickets, installations).
 */
import { useCustomMutation, type HttpError } from '@refinedev/core';
import { useQueryClient, type InvalidateQueryFilters } from '@tanstack/react-query';
import { t } from '../i18n';

/** Refine's error notification: the server's message, else the translated spec §8 fallback. */
export const errorToast = (fallbackKey: string) => (error?: HttpError) => ({
  type: 'error' as const,
  message: error?.message || t(fallbackKey),
});

export interface ToastedCall {
  url: string;
  method: 'post' | 'put' | 'patch' | 'delete';
  values?: Record<string, unknown>;
  /** The success toast (already translated); false for none. */
  success: string | false;
  /** i18n key of the spec §8 fallback. */
  fallbackKey: string;
  /** Toast a failure (default true); a caller that collects failures itself says false. */
  notifyError?: boolean;
}

/**
 * Each call site owns one instance: its isPending and error are that operation's loading and error state.
 * `run` resolves with the response data, or undefined when the call failed (already toasted unless
 * notifyError is false). After a success every query matching `stale` (default: all) is refreshed.
 */
export function useToastedCall<C extends ToastedCall = ToastedCall>(stale?: InvalidateQueryFilters) {
  const { mutateAsync, mutation } = useCustomMutation<Record<string, unknown>>();
  const queryClient = useQueryClient();
  const run = async <T = unknown>({
    url,
    method,
    values,
    success,
    fallbackKey,
    notifyError = true,
  }: C): Promise<T | undefined> => {
    const res = await mutateAsync({
      url,
      method,
      values: values ?? {},
      meta: { fallbackMessage: t(fallbackKey) },
      successNotification: success === false ? false : () => ({ type: 'success', message: success }),
      errorNotification: notifyError ? errorToast(fallbackKey) : false,
    }).catch(() => undefined);
    if (res) void queryClient.invalidateQueries(stale);
    return res?.data as T | undefined;
  };
  const error = mutation.isError ? ((mutation.error as HttpError | null)?.message ?? null) : null;
  return { run, isPending: mutation.isPending, error, reset: mutation.reset };
}
