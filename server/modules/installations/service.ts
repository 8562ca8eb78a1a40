/**
 * Installation rules (issue 8).
 *
 * Who sees a job: admin, super_admin and support every job; a technician the jobs assigned to them; nobody
 * else (404 on every /installations/:id endpoint, as if it did not exist).
 * Who does what: admin/support create jobs by hand, assign technicians (users with the technician role only,
 * else 400), schedule, reschedule and cancel; the assigned technician moves the job along (en route, in
 * progress, completed, failed) and fills in checklist, notes, equipment, readings and photos. Every status
 * change follows lifecycle.ts (409 naming both states otherwise).
 *
 * A new subscription with a location gets a job (requested) in its own transaction (requestInstallation).
 * Completing a job provisions the subscription's PPPoE credentials in the same transaction; the subscription
 * is active once its first invoice is paid: paying activates it (activateForPaidInvoice, the payments work),
 * and a subscription still pending with a paid first invoice is activated here. A failed job records its
 * reason and support is e-mailed after the commit.
 */
import { pagePagination, type PagePagination } from '../../../contract/envelope';
import { allows, type Role } from '../../../contract/roles';
import {
  INSTALLATION_PHOTO_MAX_BYTES,
  INSTALLATION_PHOTO_MAX_FILES,
  INSTALLATION_PHOTO_TYPES,
  TECHNICIAN_EDITABLE_FIELDS,
  type Installation,
  type InstallationCreateParsed,
  type InstallationDetail,
  type InstallationListQueryParsed,
  type InstallationPhoto,
  type InstallationStatus,
  type InstallationUpdateParsed,
  type ServiceAccess,
} from '../../../contract/schemas/installation';
import type { Db } from '../../db/client';
import type { InstallationRow, NewInstallationRow } from '../../db/schema/installations';
import type { MailMessage } from '../../integrations/mail/mailer';
import type { Clock } from '../../lib/clock';
import type { SecretBox } from '../../lib/secret-box';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
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
import { INSTALLATIONS_AREA, storedKey } from './files';
import { changedFields, recordAudit, type AuditContext } from '../audit/trail';
import { getCredentials, provisionCredentials } from '../radius/credentials';
import { activateForPaidInvoice } from '../subscriptions/service';
import { installationFailedMail } from './emails';
import { defaultChecklist } from './request';
import { assertTransition, nextStatuses, type InstallationActor } from './lifecycle';
import type { InstallationRepository, InstallationWithNames, PhotoWithUploader } from './repository';
import { languageOf } from '../../i18n';

export const INSTALLATION_MESSAGES = {
  list: 'Installations retrieved successfully',
  detail: 'Installation retrieved successfully',
  created: 'Installation created successfully',
  updated: 'Installation updated successfully',
  status: (s: InstallationStatus) => `Installation ${s.replace('_', ' ')} successfully`,
  assigned: 'Technician assigned successfully',
  unassigned: 'Technician unassigned successfully',
  photos: 'Photos retrieved successfully',
  uploaded: 'Photos uploaded successfully',
  access: 'Service access retrieved successfully',
  notFound: 'Installation not found',
  photoNotFound: 'Photo not found',
  subscriptionNotFound: 'Subscription not found',
  openExists: 'This subscription already has an installation in progress',
  addressRequired: 'Address is required',
  technicianOnly: 'Installations can only be assigned to an active technician',
  needsSchedule: 'Assign a technician and a time slot before scheduling',
  reasonRequired: 'A failure reason is required',
  technicianFields: 'A technician may only update the checklist, notes, equipment and readings',
  closed: 'This installation is closed',
  unticked: (items: string[]) =>
    `Not every checklist item is ticked: ${items.join('; ')}. Tick them, or confirm completing without them.`,
  ...uploadMessages({
    maxBytes: INSTALLATION_PHOTO_MAX_BYTES,
    maxFiles: INSTALLATION_PHOTO_MAX_FILES,
    allowed: 'PNG, JPEG, GIF, WebP',
    what: 'photos',
  }),
} as const;
const M = INSTALLATION_MESSAGES;

/** Staff who see and schedule every job. */
export const INSTALLATION_STAFF = ['admin', 'support'] as const;
const isInstallationStaff = (role: Role) => allows(INSTALLATION_STAFF, role);
/** Staff who may read any subscription's PPPoE login (to help a customer set up their router). */
export const SERVICE_ACCESS_STAFF = ['admin', 'support', 'technician'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CLOSED: readonly InstallationStatus[] = ['completed', 'cancelled'];

export interface Caller {
  id: string;
  role: Role;
  name: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toInstallation({
  row,
  subscriptionStatus,
  planName,
  customerName,
  customerEmail,
  technicianName,
}: InstallationWithNames): Installation {
  return {
    id: row.id,
    number: row.number,
    subscription_id: row.subscriptionId,
    subscription_status: subscriptionStatus,
    plan_name: planName,
    user_id: row.userId,
    customer_name: customerName,
    customer_email: customerEmail,
    address: row.address,
    contact_phone: row.contactPhone,
    preferred_date: row.preferredDate,
    scheduled_start: iso(row.scheduledStart),
    scheduled_end: iso(row.scheduledEnd),
    technician_id: row.technicianId,
    technician_name: technicianName,
    status: row.status as InstallationStatus,
    checklist: row.checklist,
    notes: row.notes,
    equipment: row.equipment.map((e) => ({ type: e.type, serial: e.serial, mac: e.mac ?? null })),
    readings: row.readings,
    failure_reason: row.failureReason,
    completed_at: iso(row.completedAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const toPhoto = ({ row, uploaderName }: PhotoWithUploader): InstallationPhoto => ({
  id: row.id,
  installation_id: row.installationId,
  name: row.originalName,
  size: row.size,
  content_type: row.contentType,
  uploaded_by: row.uploadedBy,
  uploaded_by_name: uploaderName,
  created_at: row.createdAt.toISOString(),
  download_url: `/api/installations/${row.installationId}/photos/${row.id}/download`,
});

export interface InstallationServiceDeps {
  db: Db;
  repository: InstallationRepository;
  clock: Clock;
  /** Where uploads stage while they are checked (DATA_DIR; always the local disk). */
  dataDir: string;
  /** Where checked photos are kept (app.storage: the local disk or S3). */
  store: FileStore;
  appUrl: string;
  box: SecretBox;
  /** Company name, support address and the ISP's default language (support's, absent: English) for the e-mails. */
  company: () => Promise<{ name: string; supportEmail: string; language?: string }>;
  send: (message: MailMessage) => void;
  /** The upload quotas in force (settings; issue 32). Absent: the defaults. */
  uploadQuotas?: () => Promise<UploadQuotas>;
}

export class InstallationService {
  constructor(private readonly deps: InstallationServiceDeps) {}

  private actor(caller: Caller): InstallationActor {
    return isInstallationStaff(caller.role) ? 'staff' : 'technician';
  }

  /** The job if the caller may see it (staff all, a technician their own); 404 otherwise. */
  private async visible(caller: Caller, id: string): Promise<InstallationWithNames> {
    const found = UUID.test(id) ? await this.deps.repository.findById(id) : undefined;
    if (!found) throw notFound(M.notFound);
    if (!isInstallationStaff(caller.role) && !(caller.role === 'technician' && found.row.technicianId === caller.id))
      throw notFound(M.notFound);
    return found;
  }

  private async lockVisible(tx: Db, caller: Caller, id: string): Promise<InstallationRow> {
    const row = UUID.test(id) ? await this.deps.repository.lock(tx, id) : undefined;
    if (!row) throw notFound(M.notFound);
    if (!isInstallationStaff(caller.role) && !(caller.role === 'technician' && row.technicianId === caller.id))
      throw notFound(M.notFound);
    return row;
  }

  private async detail(caller: Caller, id: string): Promise<InstallationDetail> {
    const found = await this.deps.repository.findById(id);
    if (!found) throw notFound(M.notFound);
    const photos = (await this.deps.repository.photos(id)).map(toPhoto);
    return {
      ...toInstallation(found),
      photos,
      next_statuses: nextStatuses(found.row.status as InstallationStatus, this.actor(caller)),
    };
  }

  /** A technician user that may take jobs, or 400. */
  private async technician(id: string): Promise<string> {
    const user = await this.deps.repository.user(id);
    if (user?.role !== 'technician' || user.status !== 'active') {
      throw badRequest(M.technicianOnly, [{ field: 'technician_id', message: M.technicianOnly }]);
    }
    return user.id;
  }

  // -------------------------------------------------------------------------------------------------------
  // Reading

  async list(
    caller: Caller,
    query: InstallationListQueryParsed,
  ): Promise<{ items: Installation[]; pagination: PagePagination }> {
    const now = this.deps.clock.now();
    const todayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const scope = isInstallationStaff(caller.role) ? { todayStart } : { technicianId: caller.id, todayStart };
    const { items, total } = await this.deps.repository.page(scope, query);
    return { items: items.map(toInstallation), pagination: pagePagination(query.page, query.limit, total) };
  }

  async get(caller: Caller, id: string): Promise<InstallationDetail> {
    await this.visible(caller, id);
    return this.detail(caller, id);
  }

  // -------------------------------------------------------------------------------------------------------
  // Writing

  /** POST /installations (admin/support): a job for a subscription that has none in progress. */
  async create(caller: Caller, input: InstallationCreateParsed): Promise<InstallationDetail> {
    const { db, clock, repository } = this.deps;
    const now = clock.now();
    const technicianId = input.technician_id ? await this.technician(input.technician_id) : null;
    const id = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const sub = await repository.lockSubscription(tx, input.subscription_id);
      if (!sub) throw notFound(M.subscriptionNotFound);
      if (await repository.openFor(tx, sub.id)) throw conflict(M.openExists);
      const owner = await repository.customerContact(tx, sub.userId);
      const address = input.address ?? sub.location ?? owner?.address ?? null;
      if (!address) throw badRequest(M.addressRequired, [{ field: 'address', message: M.addressRequired }]);
      const scheduled = Boolean(technicianId && input.scheduled_start && input.scheduled_end);
      const values: NewInstallationRow = {
        subscriptionId: sub.id,
        userId: sub.userId,
        address,
        contactPhone: input.contact_phone ?? owner?.phone ?? null,
        preferredDate: input.preferred_date ?? null,
        scheduledStart: input.scheduled_start ? new Date(input.scheduled_start) : null,
        scheduledEnd: input.scheduled_end ? new Date(input.scheduled_end) : null,
        technicianId,
        status: scheduled ? 'scheduled' : 'requested',
        checklist: defaultChecklist(),
        notes: input.notes ?? null,
        createdAt: now,
        updatedAt: now,
      };
      return (await repository.insert(tx, values)).id;
    });
    return this.detail(caller, id);
  }

  /** PUT/PATCH /installations/{id}: the fields sent; a technician only their working fields. */
  async update(caller: Caller, id: string, input: InstallationUpdateParsed): Promise<InstallationDetail> {
    const actor = this.actor(caller);
    if (actor === 'technician') {
      const other = Object.keys(input).filter(
        (k) =>
          input[k as keyof InstallationUpdateParsed] !== undefined &&
          !(TECHNICIAN_EDITABLE_FIELDS as readonly string[]).includes(k),
      );
      if (other.length) {
        await this.visible(caller, id); // 404 first for a job they do not see
        throw forbidden(M.technicianFields);
      }
    }
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const row = await this.lockVisible(tx, caller, id);
      if (CLOSED.includes(row.status as InstallationStatus)) throw conflict(M.closed);
      const patch: Partial<NewInstallationRow> = { updatedAt: now };
      if (input.address !== undefined) patch.address = input.address;
      if (input.contact_phone !== undefined) patch.contactPhone = input.contact_phone;
      if (input.preferred_date !== undefined) patch.preferredDate = input.preferred_date;
      if (input.scheduled_start !== undefined)
        patch.scheduledStart = input.scheduled_start ? new Date(input.scheduled_start) : null;
      if (input.scheduled_end !== undefined)
        patch.scheduledEnd = input.scheduled_end ? new Date(input.scheduled_end) : null;
      const start = patch.scheduledStart !== undefined ? patch.scheduledStart : row.scheduledStart;
      const end = patch.scheduledEnd !== undefined ? patch.scheduledEnd : row.scheduledEnd;
      if (start && end && end.getTime() <= start.getTime()) {
        throw badRequest('The slot must end after it starts', [
          { field: 'scheduled_end', message: 'The slot must end after it starts' },
        ]);
      }
      if (input.checklist !== undefined) patch.checklist = input.checklist;
      if (input.notes !== undefined) patch.notes = input.notes;
      if (input.equipment !== undefined) patch.equipment = input.equipment;
      if (input.readings !== undefined) patch.readings = { ...row.readings, ...input.readings };
      await this.deps.repository.update(tx, row.id, patch);
    });
    return this.detail(caller, id);
  }

  /** PATCH /installations/{id}/assign (admin/support): technician (null unassigns) and optionally the slot. */
  async assign(
    caller: Caller,
    id: string,
    input: { technician_id: string | null; scheduled_start?: string | null; scheduled_end?: string | null },
    audit?: AuditContext,
  ): Promise<InstallationDetail> {
    const technicianId = input.technician_id ? await this.technician(input.technician_id) : null;
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const row = await this.lockVisible(tx, caller, id);
      const status = row.status as InstallationStatus;
      if (CLOSED.includes(status)) throw conflict(M.closed);
      if (!technicianId && (status === 'en_route' || status === 'in_progress'))
        throw conflict(`Cannot unassign an installation that is ${status.replace('_', ' ')}`);
      const patch: Partial<NewInstallationRow> = { technicianId, updatedAt: now };
      if (input.scheduled_start !== undefined)
        patch.scheduledStart = input.scheduled_start ? new Date(input.scheduled_start) : null;
      if (input.scheduled_end !== undefined)
        patch.scheduledEnd = input.scheduled_end ? new Date(input.scheduled_end) : null;
      const start = patch.scheduledStart !== undefined ? patch.scheduledStart : row.scheduledStart;
      const end = patch.scheduledEnd !== undefined ? patch.scheduledEnd : row.scheduledEnd;
      // Technician and slot given: a requested job (or a failed one being rebooked) is scheduled; without a
      // technician a scheduled job goes back to requested.
      if (technicianId && start && end && (status === 'requested' || status === 'failed')) {
        assertTransition(status, 'scheduled', 'staff');
        patch.status = 'scheduled';
        patch.failureReason = null;
      } else if (!technicianId && status === 'scheduled') {
        patch.status = 'requested';
      }
      await this.deps.repository.update(tx, row.id, patch);
      if (audit) {
        const view = (r: Pick<InstallationRow, 'technicianId' | 'scheduledStart' | 'scheduledEnd' | 'status'>) => ({
          technician_id: r.technicianId,
          scheduled_start: iso(r.scheduledStart),
          scheduled_end: iso(r.scheduledEnd),
          status: r.status,
        });
        await recordAudit(tx, this.deps.clock, audit, {
          action: technicianId ? 'installation.assigned' : 'installation.unassigned',
          targetType: 'installation',
          targetId: row.id,
          changes: changedFields(view(row), view({ ...row, ...patch } as InstallationRow)),
        });
      }
    });
    return this.detail(caller, id);
  }

  /** PATCH /installations/{id}/status: only what lifecycle.ts allows the caller. */
  async setStatus(
    caller: Caller,
    id: string,
    input: { status: InstallationStatus; failure_reason?: string | null; confirm_unticked?: boolean },
    audit?: AuditContext,
  ): Promise<InstallationDetail> {
    const actor = this.actor(caller);
    const now = this.deps.clock.now();
    const to = input.status;
    await this.deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const row = await this.lockVisible(tx, caller, id);
      const from = row.status as InstallationStatus;
      assertTransition(from, to, actor);
      const patch: Partial<NewInstallationRow> = { status: to, updatedAt: now };
      if (to === 'scheduled') {
        if (!row.technicianId || !row.scheduledStart || !row.scheduledEnd)
          throw badRequest(M.needsSchedule, [{ field: 'status', message: M.needsSchedule }]);
        patch.failureReason = null;
      }
      if (to === 'failed') {
        if (!input.failure_reason)
          throw badRequest(M.reasonRequired, [{ field: 'failure_reason', message: M.reasonRequired }]);
        patch.failureReason = input.failure_reason;
      }
      // Every checklist item counts as required: completing with unticked ones needs the technician's word.
      const unticked = to === 'completed' ? row.checklist.filter((c) => !c.done).map((c) => c.item) : [];
      if (unticked.length && !input.confirm_unticked) {
        throw conflict(
          M.unticked(unticked),
          row.checklist.flatMap((c, i) =>
            c.done ? [] : [{ field: `checklist.${i}`, message: `Not ticked: ${c.item}` }],
          ),
        );
      }
      if (to === 'completed') {
        patch.completedAt = now;
        await this.provision(tx, row.subscriptionId, now);
      }
      await this.deps.repository.update(tx, row.id, patch);
      if (audit) {
        const changes: Record<string, unknown> = { status: { from, to } };
        if (unticked.length) changes.unticked_checklist = { from: null, to: unticked };
        if (patch.failureReason !== undefined && patch.failureReason !== row.failureReason) {
          changes.failure_reason = { from: row.failureReason, to: patch.failureReason };
        }
        await recordAudit(tx, this.deps.clock, audit, {
          action: 'installation.status_changed',
          targetType: 'installation',
          targetId: row.id,
          changes,
        });
      }
    });
    if (to === 'failed') await this.notifyFailed(caller, id, input.failure_reason!);
    return this.detail(caller, id);
  }

  /**
   * The service goes live: PPPoE credentials for the subscription, and a pending subscription whose first
   * invoice is already paid becomes active (idempotent, through the same function the payments work calls).
   */
  private async provision(tx: Db, subscriptionId: string, now: Date): Promise<void> {
    await provisionCredentials(tx, subscriptionId, this.deps.box, now);
    const sub = await this.deps.repository.lockSubscription(tx, subscriptionId);
    if (sub?.status !== 'pending') return;
    const first = await this.deps.repository.firstInvoice(tx, subscriptionId);
    if (first?.status === 'paid') await activateForPaidInvoice(tx, first.id, now);
  }

  private async notifyFailed(caller: Caller, id: string, reason: string): Promise<void> {
    try {
      const found = await this.deps.repository.findById(id);
      if (!found) return;
      const company = await this.deps.company();
      this.deps.send(
        installationFailedMail({
          to: company.supportEmail,
          language: languageOf(null, company.language),
          company: company.name,
          appUrl: this.deps.appUrl,
          installation: { id: found.row.id, number: found.row.number, address: found.row.address },
          customer: found.customerName,
          technician: found.technicianName,
          by: caller.name,
          reason,
        }),
      );
    } catch {
      // The status change is committed; a mail problem must not turn it into an error.
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Photos

  async photos(caller: Caller, id: string): Promise<InstallationPhoto[]> {
    await this.visible(caller, id);
    return (await this.deps.repository.photos(id)).map(toPhoto);
  }

  async download(caller: Caller, id: string, photoId: string): Promise<StoredFileRef> {
    await this.visible(caller, id);
    const row = UUID.test(photoId) ? await this.deps.repository.photo(id, photoId) : undefined;
    if (!row) throw notFound(M.photoNotFound);
    return {
      key: storedKey(row.installationId, row.storedName),
      name: row.originalName,
      contentType: row.contentType,
      size: row.size,
    };
  }

  /** Up to 5 images of 10 MB each; any failure (413, 415, 400) leaves nothing behind. */
  async upload(caller: Caller, id: string, parts: AsyncIterable<UploadPart>): Promise<InstallationPhoto[]> {
    const { repository, clock, db, dataDir, store } = this.deps;
    const found = await this.visible(caller, id);
    if (found.row.status === 'cancelled') throw conflict(M.closed);
    const staged = await receiveUploads(dataDir, INSTALLATIONS_AREA, parts, {
      maxBytes: INSTALLATION_PHOTO_MAX_BYTES,
      maxFiles: INSTALLATION_PHOTO_MAX_FILES,
      accept: INSTALLATION_PHOTO_TYPES,
      messages: M,
    });
    const now = clock.now();
    const quotas = (await this.deps.uploadQuotas?.()) ?? DEFAULT_UPLOAD_QUOTAS;
    const quota = await checkStagedUploadQuota(
      db,
      quotas,
      { area: 'installations', ownerId: id, uploaderId: caller.id, customer: caller.role === 'user', now },
      staged,
    );
    await storeUploads(store, INSTALLATIONS_AREA, id, staged, () =>
      db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        if (!(await repository.lock(tx, id))) throw notFound(M.notFound);
        // Again under the installation's lock: two uploads at once cannot both pass the quota.
        await checkUploadQuota(tx, quotas, quota);
        await repository.insertPhotos(
          tx,
          storedFileRows(staged, caller.id, now).map((f) => ({ ...f, installationId: id })),
        );
        await repository.update(tx, id, { updatedAt: now });
      }),
    );
    const names = new Set(staged.map((s) => s.storedName));
    return (await repository.photos(id)).filter((p) => names.has(p.row.storedName)).map(toPhoto);
  }

  // -------------------------------------------------------------------------------------------------------
  // The customer's side

  /**
   * GET /subscriptions/{id}/credentials: the PPPoE login (once provisioned) and the latest installation's
   * progress, for the owner, admin, support and technicians (others 404).
   */
  async serviceAccess(caller: Caller, subscriptionId: string): Promise<ServiceAccess> {
    const { db } = this.deps;
    const sub = UUID.test(subscriptionId) ? await this.deps.repository.subscriptionOwner(subscriptionId) : undefined;
    const mayRead = sub && (sub.userId === caller.id || allows(SERVICE_ACCESS_STAFF, caller.role));
    if (!mayRead) throw notFound(M.subscriptionNotFound);
    const credentials = await getCredentials(db, sub.id, this.deps.box);
    const job = await this.deps.repository.latestFor(sub.id);
    return {
      credentials: credentials
        ? { username: credentials.username, password: credentials.password, created_at: credentials.created_at }
        : null,
      installation: job
        ? {
            id: job.id,
            number: job.number,
            status: job.status as InstallationStatus,
            scheduled_start: iso(job.scheduledStart),
            scheduled_end: iso(job.scheduledEnd),
            completed_at: iso(job.completedAt),
          }
        : null,
    };
  }
}
