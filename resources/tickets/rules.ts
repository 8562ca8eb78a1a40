/**
 * Pure ticket rules the screens need (no React): the status changes a caller may make (a mirror of the
 * server's transitionAllowed in server/modules/tickets/service.ts, so the select offers only what the server
 * accepts), tag colours, the client-side attachment checks and the humanised durations of the stats cards.
 */
import { isStaff, ticketView, type Role } from '../../contract/roles';
import {
  TICKET_ATTACHMENT_MAX_BYTES,
  TICKET_ATTACHMENT_MAX_FILES,
  TICKET_QUEUE_CATEGORIES,
  TICKET_STATUSES,
  type Ticket,
  type TicketCategory,
  type TicketPriority,
  type TicketStatus,
} from '../../contract/schemas/ticket';
import { t } from '../../src/i18n';
import { formatDateTime as formatDateTimeInLocale } from '../../src/components/dates';

export const STATUS_COLORS: Record<TicketStatus, string> = {
  open: 'blue',
  in_progress: 'geekblue',
  waiting_customer: 'orange',
  resolved: 'green',
  closed: 'default',
};

export const PRIORITY_COLORS: Record<TicketPriority, string> = {
  low: 'default',
  normal: 'cyan',
  high: 'orange',
  urgent: 'red',
};

const OPEN_STATES: readonly TicketStatus[] = ['open', 'in_progress', 'waiting_customer', 'resolved'];
const MANAGERS: readonly Role[] = ['admin', 'super_admin', 'support'];

function queueOf(role: Role): readonly TicketCategory[] {
  return role === 'technician' || role === 'billing' ? TICKET_QUEUE_CATEGORIES[role] : [];
}

export interface Viewer {
  id: string;
  role: Role;
}

/** Works on the ticket as staff: sees every ticket, is its assignee, or has its category in their queue. */
export function actsAsStaff(viewer: Viewer, ticket: Pick<Ticket, 'assigned_to' | 'category'>): boolean {
  if (!isStaff(viewer.role)) return false;
  return (
    ticketView(viewer.role) === 'manage' ||
    ticket.assigned_to === viewer.id ||
    queueOf(viewer.role).includes(ticket.category)
  );
}

/** May the viewer move the ticket from its status to `to`? (The server's rule; the same status is no change.) */
export function canMove(
  viewer: Viewer,
  ticket: Pick<Ticket, 'status' | 'assigned_to' | 'category' | 'created_by'>,
  to: TicketStatus,
): boolean {
  const from = ticket.status;
  if (from === to) return false;
  if (actsAsStaff(viewer, ticket)) {
    if (from === 'closed') return to === 'open' && MANAGERS.includes(viewer.role);
    return OPEN_STATES.includes(from) && (OPEN_STATES.includes(to) || to === 'closed');
  }
  if (ticket.created_by === viewer.id) {
    if (to === 'closed') return true;
    return from === 'resolved' && to === 'open';
  }
  return false;
}

/** The statuses the viewer may move the ticket to, in the lifecycle's order. */
export function nextStatuses(
  viewer: Viewer,
  ticket: Pick<Ticket, 'status' | 'assigned_to' | 'category' | 'created_by'>,
): TicketStatus[] {
  return TICKET_STATUSES.filter((s) => canMove(viewer, ticket, s));
}

/** Why these files cannot be attached (the first problem), or null when they fit the limits. */
export function attachmentProblem(files: { name: string; size: number }[]): string | null {
  if (files.length > TICKET_ATTACHMENT_MAX_FILES)
    return t('tickets.attachments.tooMany', { max: TICKET_ATTACHMENT_MAX_FILES });
  const big = files.find((f) => f.size > TICKET_ATTACHMENT_MAX_BYTES);
  if (big) return t('tickets.attachments.tooLarge', { name: big.name, max: TICKET_ATTACHMENT_MAX_BYTES / 1024 / 1024 });
  const empty = files.find((f) => f.size === 0);
  if (empty) return t('tickets.attachments.empty', { name: empty.name });
  return null;
}

/** A duration in seconds as "2 d 3 h", "4 h 10 min", "12 min" or "< 1 min"; null → "—". */
export function humanizeSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return t('tickets.duration.lessThanMinute');
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0)
    return hours > 0 ? t('tickets.duration.daysHours', { days, hours }) : t('tickets.duration.days', { days });
  if (hours > 0)
    return mins > 0
      ? t('tickets.duration.hoursMinutes', { hours, minutes: mins })
      : t('tickets.duration.hours', { hours });
  return t('tickets.duration.minutes', { minutes: mins });
}

/** File size as "512 B", "2.4 KB", "3.1 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export const ticketPath = (id: string) => `/dashboard/tickets/${encodeURIComponent(id)}`;

/** An ISO timestamp as the back office shows dates ("2025-03-01 14:05"); null → "—". */
export function formatDateTime(value: string | null | undefined): string {
  return formatDateTimeInLocale(value);
}
