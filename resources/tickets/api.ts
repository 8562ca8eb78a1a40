/**
 * The ticket calls of spec §7 that are not plain list reads. Reads and mutations go through Refine's data
 * provider (the app's http client: bearer token, shared refresh, spec §8 precedence: the server's message
 * first, else the 'Failed to ...' text). Every operation has its own hook instance, hence its own loading and
 * error state. Uploads and downloads use the http client directly: uploads need onUploadProgress, downloads
 * need the bearer token (a plain link would not carry it) and a Blob.
 */
import { useCustom, useDataProvider, type BaseRecord } from '@refinedev/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { STAFF_ROLES } from '../../contract/roles';
import type { Order } from '../../contract/schemas/subscription';
import type { TicketAttachment, TicketDetail, TicketStats } from '../../contract/schemas/ticket';
import { httpClient } from '../../providers/http-client';
import { uploadFiles } from '../../providers/upload';
import { retryUnlessClientError } from '../../src/components/retry';
import { errorToast, useToastedCall } from '../../src/components/toastedCall';
import { t } from '../../src/i18n';

export const ticketUrl = (id: string) => `/tickets/${encodeURIComponent(id)}`;

const ASSIGNEES_KEY = 'ticket-assignees';
/** After a change every read on screen is stale, except the staff list (a ticket change does not touch it). */
export const staleAfterChange = { predicate: (q: { queryKey: readonly unknown[] }) => q.queryKey[0] !== ASSIGNEES_KEY };

export { errorToast };

/** GET /tickets/{id}: the ticket with the replies the caller may see and its attachments. */
export function useTicket(id: string | undefined) {
  const { query, result } = useCustom<TicketDetail>({
    url: ticketUrl(id ?? ''),
    method: 'get',
    meta: { fallbackMessage: t('errors.tickets.one') },
    errorNotification: errorToast('errors.tickets.one'),
    queryOptions: { enabled: !!id, retry: false },
  });
  return {
    ticket: query.isError ? undefined : (result.data as TicketDetail | undefined),
    isLoading: query.isLoading,
    error: query.isError ? query.error?.message || t('errors.tickets.one') : null,
    notFound: query.error?.statusCode === 404,
  };
}

/** GET /tickets/stats over the caller's scope. */
export function useTicketStats(enabled = true) {
  const { query, result } = useCustom<TicketStats>({
    url: '/tickets/stats',
    method: 'get',
    meta: { fallbackMessage: t('errors.tickets.stats') },
    errorNotification: errorToast('errors.tickets.stats'),
    queryOptions: { enabled, retry: false },
  });
  return {
    stats: query.isError ? undefined : (result.data as TicketStats | undefined),
    isLoading: query.isLoading && enabled,
    error: query.isError ? query.error?.message || t('errors.tickets.stats') : null,
  };
}

/** The customer's own subscriptions (GET /subscriptions/orders), for the "related subscription" choice. */
export function useMySubscriptions(enabled = true) {
  const { query, result } = useCustom<Order[]>({
    url: '/subscriptions/orders',
    method: 'get',
    meta: { fallbackMessage: t('errors.subscriptions.orders') },
    errorNotification: false,
    queryOptions: { enabled, retry: retryUnlessClientError },
  });
  return {
    subscriptions: Array.isArray(result.data) ? (result.data as unknown as Order[]) : [],
    isLoading: query.isLoading && enabled,
  };
}

export interface Assignee {
  id: string;
  name: string;
  role: string;
}

/**
 * The users a ticket may be assigned to: active staff, read from the users list (GET /users, which admin and
 * support — the roles that assign — may call), one read per staff role as the list filters by one role.
 */
export function useAssignees(enabled = true) {
  const getProvider = useDataProvider();
  const query = useQuery({
    queryKey: [ASSIGNEES_KEY],
    enabled,
    staleTime: 60_000,
    queryFn: async () => {
      const provider = getProvider();
      const pages = await Promise.all(
        STAFF_ROLES.map((role) =>
          provider.getList<BaseRecord>({
            resource: 'users',
            filters: [
              { field: 'role', operator: 'eq', value: role },
              { field: 'status', operator: 'eq', value: 'active' },
            ],
            pagination: { currentPage: 1, pageSize: 100, mode: 'server' },
            meta: { fallbackMessage: t('errors.users.list') },
          }),
        ),
      );
      return pages.flatMap((p) =>
        p.data.map((u) => ({ id: String(u.id), name: String(u.name ?? u.email ?? u.id), role: String(u.role) })),
      );
    },
  });
  return { assignees: (query.data ?? []) as Assignee[], isLoading: query.isLoading && enabled };
}

/**
 * One ticket mutation. Each call site owns one instance: its isPending and error are that operation's
 * loading and error state. Resolves with the response data, or undefined when it failed (already toasted
 * unless notifyError is false: bulk changes collect failures instead).
 */
export function useTicketCall() {
  return useToastedCall(staleAfterChange);
}

/** Tells react-query every ticket read is stale (after an upload, which does not go through Refine). */
export function useRefreshTickets() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries(staleAfterChange);
}

/**
 * POST /tickets/{id}/attachments: the files as multipart field "files", reporting progress (0–100).
 * Rejects with the http client's error (its message: the server's, else 'Failed to add attachment').
 */
export function uploadAttachments(
  ticketId: string,
  files: File[],
  onProgress?: (percent: number) => void,
): Promise<TicketAttachment[]> {
  return uploadFiles<TicketAttachment>(
    `${ticketUrl(ticketId)}/attachments`,
    files,
    t('errors.tickets.attachment'),
    onProgress,
  );
}

/** Downloads an attachment through its authorised URL (bearer token) and hands it to the browser as a file. */
export async function downloadAttachment(
  attachment: Pick<TicketAttachment, 'download_url' | 'original_name'>,
): Promise<void> {
  const path = attachment.download_url.replace(/^\/api(?=\/)/, '');
  const res = await httpClient.get<Blob>(path, {
    responseType: 'blob',
    fallbackMessage: t('tickets.attachments.downloadFailed'),
  });
  const url = URL.createObjectURL(res.data);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = attachment.original_name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
