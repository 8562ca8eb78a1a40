/**
 * Ticket rules (issue 5).
 *
 * Who sees a ticket: its creator, its assignee, and staff whose view covers it: admin, super_admin and support
 * every ticket ('manage' view); technicians the technical and installation queue, billing staff the billing
 * queue ('shared' view). Anyone else gets 404 on every /tickets/:id endpoint, as if it did not exist.
 *
 * Who acts as staff on a ticket: a staff user who sees it through their view or as its assignee. A staff user
 * who only created it (outside their queue) follows the creator's rules.
 *
 * Status transitions (anything else: 409 naming both states; the same status again changes nothing):
 * - staff on the ticket: between open, in_progress, waiting_customer and resolved, and from any of them to closed;
 * - closed is final, except that admin, super_admin and support may re-open it (closed → open);
 * - the creator (customer rules): close their ticket from any state, and re-open a resolved one (resolved → open).
 * Replies move the status on, in the reply's transaction: a public reply by staff on the ticket (other than its
 * creator) to an open or in_progress ticket sets it to waiting_customer ("Waiting on customer"); the creator's
 * reply to a waiting_customer or resolved ticket sets it to in_progress ("Waiting on staff"). Internal notes
 * change nothing; a status set explicitly afterwards wins. Nobody replies to a closed ticket.
 *
 * Timestamps: updated_at is the last activity everyone may see (internal notes do not touch it); resolved_at is
 * set on resolving (or on closing an unresolved ticket) and cleared on re-opening; first_response_at is the first
 * public reply by staff other than the creator. E-mails go out after the transaction commits.
 */
import { DEFAULT_LANGUAGE } from '../../../contract/languages';
import { pagePagination, type PagePagination } from '../../../contract/envelope';
import { isStaff, STAFF_ROLES, ticketView, type Role } from '../../../contract/roles';
import {
  TICKET_ATTACHMENT_MAX_BYTES,
  TICKET_ATTACHMENT_MAX_FILES,
  TICKET_ATTACHMENT_TYPES,
  TICKET_PRIORITIES,
  TICKET_QUEUE_CATEGORIES,
  TICKET_STATUSES,
  type Ticket,
  type TicketAttachment,
  type TicketCategory,
  type TicketCreateParsed,
  type TicketDetail,
  type TicketListQueryParsed,
  type TicketReply,
  type TicketReplyCreateParsed,
  type TicketStats,
  type TicketStatus,
  type TicketUpdateParsed,
} from '../../../contract/schemas/ticket';
import type { Db } from '../../db/client';
import { languageOf } from '../../i18n';
import type { NewTicketRow, TicketRow } from '../../db/schema';
import type { MailMessage } from '../../integrations/mail/mailer';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { assignedMail, customerReplyMail, staffReplyMail, statusChangedMail, type TicketMailContext } from './emails';
import {
  receiveUploads,
  storedFileRows,
  storeUploads,
  uploadMessages,
  type StoredFileRef,
  type UploadPart,
} from '../../lib/stored-files';
import {
  checkStagedUploadQuota,
  checkUploadQuota,
  DEFAULT_UPLOAD_QUOTAS,
  type UploadQuotas,
} from '../../lib/upload-quotas';
import type { FileStore } from '../../lib/storage';
import { removeTicketFiles, storedKey, TICKETS_AREA } from './files';
import {
  scopeCondition,
  type AttachmentWithUploader,
  type ReplyWithAuthor,
  type TicketPageScope,
  type TicketRepository,
  type TicketScope,
  type TicketWithNames,
} from './repository';

export const TICKET_MESSAGES = {
  list: 'Tickets retrieved successfully',
  assigned: 'Assigned tickets retrieved successfully',
  stats: 'Ticket statistics retrieved successfully',
  detail: 'Ticket retrieved successfully',
  created: 'Ticket created successfully',
  updated: 'Ticket updated successfully',
  deleted: 'Ticket deleted successfully',
  replies: 'Replies retrieved successfully',
  replied: 'Reply added successfully',
  status: 'Ticket status updated successfully',
  assignedTo: 'Ticket assigned successfully',
  unassigned: 'Ticket unassigned successfully',
  attachments: 'Attachments retrieved successfully',
  uploaded: 'Attachments uploaded successfully',
  notFound: 'Ticket not found',
  attachmentNotFound: 'Attachment not found',
  closed: 'This ticket is closed',
  editOnlyOpen: 'A ticket can only be edited by its creator while it is open',
  internalStaffOnly: 'Only staff may add internal notes',
  createForStaffOnly: 'Only staff may open a ticket for another user',
  createForCustomer: 'created_for must be an active customer account',
  subscriptionNotOwned: 'The subscription does not belong to the ticket’s customer',
  assignStaffOnly: 'Tickets can only be assigned to an active staff user',
  ...uploadMessages({
    maxBytes: TICKET_ATTACHMENT_MAX_BYTES,
    maxFiles: TICKET_ATTACHMENT_MAX_FILES,
    allowed: 'PNG, JPEG, GIF, WebP, PDF, plain text and logs',
    what: 'files',
  }),
} as const;

const M = TICKET_MESSAGES;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Caller {
  id: string;
  role: Role;
}

/** Admin, super_admin and support see every ticket (the 'manage' view of spec §2). */
export const seesAllTickets = (role: Role) => isStaff(role) && ticketView(role) === 'manage';
/** admin, super_admin and support may re-open a closed ticket and assign tickets. */
const MANAGERS: readonly Role[] = ['admin', 'super_admin', 'support'];

export function queueCategories(role: Role): readonly TicketCategory[] {
  return role === 'technician' || role === 'billing' ? TICKET_QUEUE_CATEGORIES[role] : [];
}

/** The tickets a caller may see, for a list page (the same rule as scopeFor, as data). */
export function pageScopeFor(caller: Caller): TicketPageScope {
  return seesAllTickets(caller.role) ? { all: true } : { me: caller.id, queue: queueCategories(caller.role) };
}

/** The tickets a caller may see, as a condition (undefined: all). */
export function scopeFor(caller: Caller): TicketScope {
  return scopeCondition(pageScopeFor(caller));
}

/** Sees the ticket through the staff view (every ticket, the queue, or as assignee). */
function staffOn(caller: Caller, row: TicketRow): boolean {
  if (!isStaff(caller.role)) return false;
  return (
    seesAllTickets(caller.role) || row.assignedTo === caller.id || queueCategories(caller.role).includes(row.category)
  );
}

export function canSee(caller: Caller, row: TicketRow): boolean {
  return row.createdBy === caller.id || staffOn(caller, row);
}

const OPEN_STATES: readonly TicketStatus[] = ['open', 'in_progress', 'waiting_customer', 'resolved'];

/** May this caller move the ticket from one status to another (see the header)? */
export function transitionAllowed(caller: Caller, row: TicketRow, from: TicketStatus, to: TicketStatus): boolean {
  if (staffOn(caller, row)) {
    if (from === 'closed') return to === 'open' && MANAGERS.includes(caller.role);
    return OPEN_STATES.includes(from) && (OPEN_STATES.includes(to) || to === 'closed');
  }
  if (row.createdBy === caller.id) {
    if (to === 'closed') return from !== 'closed';
    return from === 'resolved' && to === 'open';
  }
  return false;
}

/**
 * The status a public reply moves the ticket to (undefined: unchanged). Staff answering (on the ticket, not its
 * creator) leave the ticket waiting on the customer; the creator answering a ticket that waited for them, or
 * was resolved, puts it back with staff (in_progress, "Waiting on staff").
 */
export function statusAfterReply(caller: Caller, row: TicketRow): TicketStatus | undefined {
  const status = row.status as TicketStatus;
  if (staffOn(caller, row) && caller.id !== row.createdBy) {
    return status === 'open' || status === 'in_progress' ? 'waiting_customer' : undefined;
  }
  if (row.createdBy === caller.id)
    return status === 'waiting_customer' || status === 'resolved' ? 'in_progress' : undefined;
  return undefined;
}

/** resolved_at after a status change. */
function resolvedAtAfter(row: TicketRow, to: TicketStatus, now: Date): Date | null {
  if (to === 'resolved') return now;
  if (to === 'closed') return row.resolvedAt ?? now;
  return null;
}

export const formatTicketNumber = (n: number) => `T-${String(n).padStart(6, '0')}`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toTicket({ row, creatorName, creatorEmail, assigneeName }: TicketWithNames): Ticket {
  return {
    id: row.id,
    number: row.number,
    subject: row.subject,
    description: row.description,
    category: row.category,
    priority: row.priority,
    status: row.status,
    created_by: row.createdBy,
    created_by_name: creatorName,
    created_by_email: creatorEmail,
    assigned_to: row.assignedTo,
    assigned_to_name: assigneeName,
    subscription_id: row.subscriptionId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    resolved_at: iso(row.resolvedAt),
    last_reply_at: iso(row.lastReplyAt),
    first_response_at: iso(row.firstResponseAt),
  };
}

const toReply = ({ row, authorName, authorRole }: ReplyWithAuthor): TicketReply => ({
  id: row.id,
  ticket_id: row.ticketId,
  author_id: row.authorId,
  author_name: authorName,
  author_role: authorRole,
  message: row.message,
  is_internal: row.isInternal,
  created_at: row.createdAt.toISOString(),
});

const toAttachment = ({ row, uploaderName }: AttachmentWithUploader): TicketAttachment => ({
  id: row.id,
  ticket_id: row.ticketId,
  reply_id: row.replyId,
  original_name: row.originalName,
  size: row.size,
  content_type: row.contentType,
  uploaded_by: row.uploadedBy,
  uploaded_by_name: uploaderName,
  created_at: row.createdAt.toISOString(),
  download_url: `/api/tickets/${row.ticketId}/attachments/${row.id}/download`,
});

export type { UploadPart } from '../../lib/stored-files';

export interface TicketServiceDeps {
  db: Db;
  repository: TicketRepository;
  clock: Clock;
  /** Where uploads stage while they are checked (DATA_DIR; always the local disk). */
  dataDir: string;
  /** Where checked attachments are kept (app.storage: the local disk or S3). */
  store: FileStore;
  appUrl: string;
  companyName: () => Promise<string>;
  /** The ISP's default language (settings.languages.default), for people without one of their own. */
  defaultLanguage?: () => Promise<string>;
  send: (message: MailMessage) => void;
  /** The upload quotas in force (settings; issue 32). Absent: the defaults. */
  uploadQuotas?: () => Promise<UploadQuotas>;
}

const customerOf = (found: TicketWithNames) => ({
  to: found.creatorEmail,
  name: found.creatorName,
  language: found.creatorLanguage,
});
const assigneeOf = (found: TicketWithNames) => ({
  to: found.assigneeEmail ?? '',
  name: found.assigneeName ?? '',
  language: found.assigneeLanguage,
});

export class TicketService {
  constructor(private readonly deps: TicketServiceDeps) {}

  // -------------------------------------------------------------------------------------------------------
  // Reading

  async list(caller: Caller, query: TicketListQueryParsed): Promise<{ items: Ticket[]; pagination: PagePagination }> {
    const { items, total } = await this.deps.repository.page(pageScopeFor(caller), query);
    return { items: items.map(toTicket), pagination: pagePagination(query.page, query.limit, total) };
  }

  async assigned(
    caller: Caller,
    query: TicketListQueryParsed,
  ): Promise<{ items: Ticket[]; pagination: PagePagination }> {
    const { items, total } = await this.deps.repository.page(
      { me: caller.id, assignedOnly: true },
      { ...query, assigned_to: undefined },
    );
    return { items: items.map(toTicket), pagination: pagePagination(query.page, query.limit, total) };
  }

  async stats(caller: Caller): Promise<TicketStats> {
    const s = await this.deps.repository.stats(scopeFor(caller));
    const byStatus = Object.fromEntries(TICKET_STATUSES.map((k) => [k, 0])) as TicketStats['by_status'];
    const byPriority = Object.fromEntries(TICKET_PRIORITIES.map((k) => [k, 0])) as TicketStats['by_priority'];
    for (const r of s.byStatus) byStatus[r.key as TicketStatus] = r.n;
    for (const r of s.byPriority) byPriority[r.key as keyof typeof byPriority] = r.n;
    const round = (v: number | null) => (v === null ? null : Math.round(v));
    return {
      total: Object.values(byStatus).reduce((a, b) => a + b, 0),
      by_status: byStatus,
      by_priority: byPriority,
      avg_first_response_seconds: round(s.avgFirstResponse),
      avg_resolution_seconds: round(s.avgResolution),
    };
  }

  /** The ticket if the caller may see it; 404 otherwise (whether or not it exists). */
  private async visible(caller: Caller, id: string): Promise<TicketWithNames> {
    const found = UUID.test(id) ? await this.deps.repository.findById(id) : undefined;
    if (!found || !canSee(caller, found.row)) throw notFound(M.notFound);
    return found;
  }

  async get(caller: Caller, id: string): Promise<TicketDetail> {
    const found = await this.visible(caller, id);
    return this.detail(caller, found);
  }

  private async detail(caller: Caller, found: TicketWithNames): Promise<TicketDetail> {
    const [replies, attachments] = await Promise.all([
      this.deps.repository.replies(found.row.id, isStaff(caller.role)),
      this.deps.repository.attachments(found.row.id),
    ]);
    return { ...toTicket(found), replies: replies.map(toReply), attachments: attachments.map(toAttachment) };
  }

  async replies(caller: Caller, id: string): Promise<TicketReply[]> {
    const found = await this.visible(caller, id);
    // Internal notes never leave the server for a customer.
    return (await this.deps.repository.replies(found.row.id, isStaff(caller.role))).map(toReply);
  }

  async attachments(caller: Caller, id: string): Promise<TicketAttachment[]> {
    const found = await this.visible(caller, id);
    return (await this.deps.repository.attachments(found.row.id)).map(toAttachment);
  }

  /** Where an attachment's bytes are in the store, for a caller who may see the ticket. */
  async download(caller: Caller, id: string, attachmentId: string): Promise<StoredFileRef> {
    const found = await this.visible(caller, id);
    const row = UUID.test(attachmentId) ? await this.deps.repository.attachment(found.row.id, attachmentId) : undefined;
    if (!row) throw notFound(M.attachmentNotFound);
    return {
      key: storedKey(row.ticketId, row.storedName),
      name: row.originalName,
      contentType: row.contentType,
      size: row.size,
    };
  }

  // -------------------------------------------------------------------------------------------------------
  // Writing

  async create(caller: Caller, input: TicketCreateParsed): Promise<TicketDetail> {
    const { repository, clock, db } = this.deps;
    let owner = caller.id;
    if (input.created_for && input.created_for !== caller.id) {
      if (!isStaff(caller.role)) throw forbidden(M.createForStaffOnly);
      const target = await repository.user(input.created_for);
      if (target?.role !== 'user' || target.status !== 'active') {
        throw badRequest(M.createForCustomer, [{ field: 'created_for', message: M.createForCustomer }]);
      }
      owner = target.id;
    }
    if (input.subscription_id && (await repository.subscriptionOwner(input.subscription_id)) !== owner) {
      throw badRequest(M.subscriptionNotOwned, [{ field: 'subscription_id', message: M.subscriptionNotOwned }]);
    }
    const now = clock.now();
    const row = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const values: NewTicketRow = {
        number: formatTicketNumber(await repository.nextNumber(tx)),
        subject: input.subject,
        description: input.description,
        category: input.category,
        priority: input.priority,
        status: 'open',
        createdBy: owner,
        subscriptionId: input.subscription_id ?? null,
        createdAt: now,
        updatedAt: now,
      };
      return repository.insert(tx, values);
    });
    return this.detail(caller, (await repository.findById(row.id))!);
  }

  async update(caller: Caller, id: string, input: TicketUpdateParsed): Promise<Ticket> {
    const { repository, clock, db } = this.deps;
    await this.visible(caller, id);
    await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const row = await repository.lock(tx, id);
      if (!row || !canSee(caller, row)) throw notFound(M.notFound);
      if (row.status === 'closed') throw conflict(M.closed);
      if (!staffOn(caller, row) && row.status !== 'open') throw conflict(M.editOnlyOpen);
      const values: Partial<NewTicketRow> = { updatedAt: clock.now() };
      if (input.subject !== undefined) values.subject = input.subject;
      if (input.description !== undefined) values.description = input.description;
      if (input.category !== undefined) values.category = input.category;
      if (input.priority !== undefined) values.priority = input.priority;
      await repository.update(tx, id, values);
    });
    return toTicket((await repository.findById(id))!);
  }

  /** Admin only (the route guard): the ticket, its replies and attachment rows, then its files. */
  async remove(id: string): Promise<void> {
    if (!UUID.test(id) || !(await this.deps.repository.delete(id))) throw notFound(M.notFound);
    await removeTicketFiles(this.deps.store, id);
  }

  async addReply(caller: Caller, id: string, input: TicketReplyCreateParsed): Promise<TicketReply> {
    const { repository, clock, db } = this.deps;
    await this.visible(caller, id);
    if (input.is_internal && !isStaff(caller.role)) throw forbidden(M.internalStaffOnly);
    const now = clock.now();
    const { reply, before } = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const row = await repository.lock(tx, id);
      if (!row || !canSee(caller, row)) throw notFound(M.notFound);
      if (row.status === 'closed') throw conflict(M.closed);
      const reply = await repository.insertReply(tx, {
        ticketId: id,
        authorId: caller.id,
        message: input.message,
        isInternal: input.is_internal,
        createdAt: now,
      });
      if (!input.is_internal) {
        const values: Partial<NewTicketRow> = { updatedAt: now, lastReplyAt: now };
        const fromStaff = isStaff(caller.role) && caller.id !== row.createdBy;
        if (fromStaff && !row.firstResponseAt) values.firstResponseAt = now;
        const status = statusAfterReply(caller, row);
        if (status) {
          values.status = status;
          values.resolvedAt = null;
        }
        await repository.update(tx, id, values);
      }
      return { reply, before: row };
    });
    if (!input.is_internal) await this.notifyReply(caller, id, before, input.message);
    return toReply((await repository.reply(reply.id))!);
  }

  async setStatus(caller: Caller, id: string, status: TicketStatus): Promise<Ticket> {
    const { repository, clock, db } = this.deps;
    await this.visible(caller, id);
    const from = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const row = await repository.lock(tx, id);
      if (!row || !canSee(caller, row)) throw notFound(M.notFound);
      if (row.status === status) return null;
      if (!transitionAllowed(caller, row, row.status, status)) {
        throw conflict(`Cannot change the ticket status from ${row.status} to ${status}`);
      }
      const now = clock.now();
      await repository.update(tx, id, { status, updatedAt: now, resolvedAt: resolvedAtAfter(row, status, now) });
      return row.status;
    });
    const found = (await repository.findById(id))!;
    if (from && found.row.createdBy !== caller.id) {
      await this.mail(found, customerOf(found), (c) => statusChangedMail({ ...c, from, status }));
    }
    return toTicket(found);
  }

  /** admin/support (the route guard): to an active staff user, or null to unassign. */
  async assign(caller: Caller & { name: string }, id: string, assignedTo: string | null): Promise<Ticket> {
    const { repository, clock } = this.deps;
    const before = await this.visible(caller, id);
    if (assignedTo) {
      const target = await repository.user(assignedTo);
      if (!target || !STAFF_ROLES.includes(target.role as Role) || target.status !== 'active') {
        throw badRequest(M.assignStaffOnly, [{ field: 'assigned_to', message: M.assignStaffOnly }]);
      }
    }
    await repository.update(this.deps.db, id, { assignedTo, updatedAt: clock.now() });
    const found = (await repository.findById(id))!;
    if (assignedTo && assignedTo !== before.row.assignedTo && assignedTo !== caller.id && found.assigneeEmail) {
      await this.mail(found, assigneeOf(found), (c) =>
        assignedMail({ ...c, by: caller.name, customer: found.creatorName }),
      );
    }
    return toTicket(found);
  }

  /**
   * Stores up to 5 files (10 MB each) sent as multipart parts. Each file is streamed to a temporary file and
   * checked; only when every file passed are they put into the store (the ticket's folder) and recorded. Any failure
   * (too large 413, too many 413, forbidden type 415, no file 400) leaves nothing behind.
   */
  async upload(caller: Caller, id: string, parts: AsyncIterable<UploadPart>): Promise<TicketAttachment[]> {
    const { repository, clock, db, dataDir, store } = this.deps;
    const found = await this.visible(caller, id);
    if (found.row.status === 'closed') throw conflict(M.closed);
    const staged = await receiveUploads(dataDir, TICKETS_AREA, parts, {
      maxBytes: TICKET_ATTACHMENT_MAX_BYTES,
      maxFiles: TICKET_ATTACHMENT_MAX_FILES,
      accept: TICKET_ATTACHMENT_TYPES,
      messages: M,
    });

    const now = clock.now();
    const quotas = (await this.deps.uploadQuotas?.()) ?? DEFAULT_UPLOAD_QUOTAS;
    const quota = await checkStagedUploadQuota(
      db,
      quotas,
      { area: 'tickets', ownerId: id, uploaderId: caller.id, customer: caller.role === 'user', now },
      staged,
    );
    const ids = await storeUploads(store, TICKETS_AREA, id, staged, () =>
      db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const row = await repository.lock(tx, id);
        if (!row) throw notFound(M.notFound);
        // Again under the ticket's lock: two uploads at once cannot both pass the quota.
        await checkUploadQuota(tx, quotas, quota);
        const rows = await repository.insertAttachments(
          tx,
          storedFileRows(staged, caller.id, now).map((f) => ({ ...f, ticketId: id })),
        );
        await repository.update(tx, id, { updatedAt: now });
        return rows.map((r) => r.id);
      }),
    );
    // In the order the files were sent.
    const byId = new Map((await repository.attachmentsByIds(ids)).map((a) => [a.row.id, a]));
    return ids.map((x) => toAttachment(byId.get(x)!));
  }

  // -------------------------------------------------------------------------------------------------------
  // E-mail (after commit)

  private async notifyReply(caller: Caller, id: string, before: TicketRow, message: string): Promise<void> {
    const found = await this.deps.repository.findById(id);
    if (!found) return;
    const author = (await this.deps.repository.user(caller.id))?.name ?? '';
    if (caller.id !== before.createdBy) {
      // Staff answered: tell the customer.
      await this.mail(found, customerOf(found), (c) => staffReplyMail({ ...c, author, message }));
    } else if (found.row.assignedTo && found.row.assignedTo !== caller.id && found.assigneeEmail) {
      // The customer answered: tell the assignee.
      await this.mail(found, assigneeOf(found), (c) => customerReplyMail({ ...c, author, message }));
    }
  }

  /** A message to the customer or to staff, in the recipient's own language (else the ISP's default). */
  private async mail(
    found: TicketWithNames,
    recipient: { to: string; name: string; language: string | null },
    compose: (c: TicketMailContext) => MailMessage,
  ): Promise<void> {
    const company = await this.deps.companyName();
    const fallback = (await this.deps.defaultLanguage?.()) ?? DEFAULT_LANGUAGE;
    this.deps.send(
      compose({
        to: recipient.to,
        name: recipient.name,
        language: languageOf(recipient.language, fallback),
        company,
        appUrl: this.deps.appUrl,
        ticket: { id: found.row.id, number: found.row.number, subject: found.row.subject },
      }),
    );
  }
}
