/**
 * One mutation through Refine's data provider (the app's http client: bearer token, shared refresh, spec §8
 * fallbacks): toasts its text on success and the server's message (else the spec §8 text) on failure, then
 * refreshes every query on screen. Shared by the screens whose calls behave exactly so.
 */
import { useCustomMutation, type HttpError } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
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
  /** The success toast (already translated). */
  success: string;
  /** i18n key of the spec §8 fallback. */
  fallbackKey: string;
}

/** Resolves with the response data, or undefined when the call failed (already toasted). */
export function useToastedCall<C extends ToastedCall = ToastedCall>() {
  const { mutateAsync, mutation } = useCustomMutation<Record<string, unknown>>();
  const queryClient = useQueryClient();
  const run = async <T = unknown>({ url, method, values, success, fallbackKey }: C): Promise<T | undefined> => {
    try {
      const res = await mutateAsync({
        url,
        method,
        values: values ?? {},
        meta: { fallbackMessage: t(fallbackKey) },
        successNotification: () => ({ type: 'success', message: success }),
        errorNotification: errorToast(fallbackKey),
      });
      void queryClient.invalidateQueries();
      return res.data as T;
    } catch {
      return undefined;
    }
  };
  return { run, isPending: mutation.isPending };
}
