/**
 * Bulk messages (issue 38): staff write one subject and body for a segment of customers (./repository.ts), see how
 * many it reaches before sending, and a job sends it through the notifier, which honours each customer's
 * choices (marketing only to those who opted in) and adds a channel's opt-out line (SMS/WhatsApp).
 *
 * The job walks the segment in keyset order (customer id), a chunk of CHUNK customers per short transaction that
 * locks the bulk row, notifies each customer with the event key `bulk:<bulkId>:<userId>` and adds to the counts:
 * the messages and the counts commit together. Every customer it went through leaves a message row (queued by the
 * notifier, or recorded here as skipped or failed), so a run that died goes on after the last one, and a re-run
 * sends nothing twice and counts no one twice. Between chunks it waits so the whole goes out at most
 * RECIPIENTS_PER_SECOND customers a second (e-mail included; SMS and WhatsApp are also held to their provider's
 * rate by the messaging module). Cancelling stops it before its next chunk.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import type {
  BulkMessage,
  BulkMessageCreate,
  BulkPreview,
  BulkSegmentOptions,
} from '../../../contract/schemas/bulk-message';
import type { LanguageCode } from '../../../contract/languages';
import type { MessageCategory } from '../../../contract/schemas/messaging';
import type { Db } from '../../db/client';
import { bulkMessages, messages } from '../../db/schema';
import type { BulkMessageRow } from '../../db/schema/messaging';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { languageOf, mt } from '../../i18n';
import { recordAudit, type AuditContext } from '../audit/trail';
import type { Notifier } from '../messaging/types';
import { createBulkRepository, type Segment } from './repository';

/** Customers notified per transaction. */
const CHUNK = 25;
/** At most this many customers a second (each gets at most one message per channel). */
const RECIPIENTS_PER_SECOND = 10;

export const BULK_MESSAGES = {
  created: 'Bulk message accepted: it is being sent',
  list: 'Bulk messages retrieved successfully',
  detail: 'Bulk message retrieved successfully',
  items: 'Messages retrieved successfully',
  preview: 'Recipients counted',
  options: 'Segments retrieved successfully',
  cancelled: 'Bulk message cancelled',
  notFound: 'Bulk message not found',
  planNotFound: 'Plan not found',
  nasNotFound: 'NAS not found',
  areaNotFound: 'No device is in this area',
  notCancellable: 'Only a bulk message that is queued or being sent can be cancelled',
  noRecipients: 'No customer is in this segment',
  valueRequired: 'Choose a plan, a NAS or an area',
} as const;
const M = BULK_MESSAGES;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const missing = (message: string) => badRequest(message, [{ field: 'segment_value', message }]);

export interface BulkServiceDeps {
  db: Db;
  clock: Clock;
  notifier: Notifier;
  defaultLanguage: () => Promise<string>;
  /** Queues the job that sends a bulk message. */
  enqueue: (bulkId: string) => Promise<unknown>;
}

export class BulkMessageService {
  constructor(private readonly deps: BulkServiceDeps) {}

  /** The segment with its value checked: given where needed (else 400), the plan or the NAS exists, some device is in the area (else 404). */
  private async checkedSegment(db: Db, segment: BulkMessageRow['segment'], value?: string | null): Promise<Segment> {
    const repo = createBulkRepository(db);
    const v = value?.trim() || null;
    if (segment !== 'all' && segment !== 'unpaid' && !v) throw missing(M.valueRequired);
    switch (segment) {
      case 'plan':
        if (!UUID.test(v!) || !(await repo.planNames([v!])).size) throw notFound(M.planNotFound);
        return { segment, value: v };
      case 'nas':
        if (!UUID.test(v!) || !(await repo.deviceNames([v!])).size) throw notFound(M.nasNotFound);
        return { segment, value: v };
      case 'area':
        if (!(await repo.areaExists(v!))) throw notFound(M.areaNotFound);
        return { segment, value: v };
      default:
        return { segment, value: null };
    }
  }

  async preview(q: { segment: BulkMessageRow['segment']; segment_value?: string; category: MessageCategory }) {
    const { db, clock } = this.deps;
    const segment = await this.checkedSegment(db, q.segment, q.segment_value);
    const repo = createBulkRepository(db);
    const now = clock.now();
    const result: BulkPreview = {
      recipients: await repo.countRecipients(segment, now),
      reachable: await repo.reachable(segment, q.category, now),
    };
    return result;
  }

  options(): Promise<BulkSegmentOptions> {
    return createBulkRepository(this.deps.db).options();
  }

  /** Records the bulk message (audited) with its segment's size now, and queues its job. */
  async create(input: BulkMessageCreate, actorId: string, audit: AuditContext): Promise<BulkMessage> {
    const { db, clock } = this.deps;
    const row = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const segment = await this.checkedSegment(tx, input.segment, input.segment_value);
      const recipients = await createBulkRepository(tx).countRecipients(segment, clock.now());
      if (!recipients) throw conflict(M.noRecipients);
      const [created] = await tx
        .insert(bulkMessages)
        .values({
          segment: segment.segment,
          segmentValue: segment.value,
          channels: input.channels,
          category: input.category,
          subject: input.subject,
          body: input.body,
          recipients,
          createdBy: actorId,
          createdAt: clock.now(),
        })
        .returning();
      await recordAudit(tx, clock, audit, {
        action: 'bulk_message.created',
        targetType: 'bulk_message',
        targetId: created!.id,
        changes: {
          segment: segment.segment,
          segment_value: segment.value,
          channels: input.channels,
          category: input.category,
          subject: input.subject,
          recipients,
        },
      });
      return created!;
    });
    try {
      await this.deps.enqueue(row.id);
    } catch (error) {
      // Without its job it would stay queued for ever: it goes, and staff may try again.
      await db.delete(bulkMessages).where(eq(bulkMessages.id, row.id));
      throw error;
    }
    return this.toBulk(db, row);
  }

  async cancel(id: string, audit: AuditContext): Promise<BulkMessage> {
    const { db, clock } = this.deps;
    const row = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const current = UUID.test(id) ? await createBulkRepository(tx).lock(id) : undefined;
      if (!current) throw notFound(M.notFound);
      if (current.status !== 'queued' && current.status !== 'sending') throw conflict(M.notCancellable);
      const [updated] = await tx
        .update(bulkMessages)
        .set({ status: 'cancelled', finishedAt: clock.now() })
        .where(eq(bulkMessages.id, id))
        .returning();
      await recordAudit(tx, clock, audit, {
        action: 'bulk_message.cancelled',
        targetType: 'bulk_message',
        targetId: id,
        changes: { sent: current.sent, skipped: current.skipped, failed: current.failed },
      });
      return updated!;
    });
    return this.toBulk(db, row);
  }

  async list(q: { page: number; limit: number; status?: BulkMessageRow['status'] }) {
    const { db } = this.deps;
    const { rows, total } = await createBulkRepository(db).page(q.limit, (q.page - 1) * q.limit, q.status);
    return { items: await this.toBulks(db, rows), total };
  }

  async get(id: string): Promise<BulkMessage> {
    const { db } = this.deps;
    const row = UUID.test(id) ? await createBulkRepository(db).byId(id) : undefined;
    if (!row) throw notFound(M.notFound);
    return this.toBulk(db, row);
  }

  async messages(id: string, q: { page: number; limit: number }) {
    await this.get(id);
    const { rows, total } = await createBulkRepository(this.deps.db).messagesPage(id, q.limit, (q.page - 1) * q.limit);
    return {
      items: rows.map(({ message: m, userName }) => ({
        id: m.id,
        user_id: m.userId,
        user_name: userName,
        channel: m.channel,
        to: m.to,
        status: m.status,
        error: m.error,
        created_at: m.createdAt.toISOString(),
      })),
      total,
    };
  }

  /** The job: sends what is left of a bulk message, a chunk per transaction, paced; safe to run again. */
  async run(bulkId: string): Promise<void> {
    for (;;) {
      const started = performance.now();
      // Read before the transaction: on the embedded database a query outside it would wait for it to end.
      const fallback = await this.deps.defaultLanguage();
      const result = await this.deps.db.transaction((t) => this.runChunk(t as unknown as Db, bulkId, fallback));
      if (result.queued.length) await this.deps.notifier.flush(result.queued);
      if (result.done) return;
      const wait = (result.processed * 1000) / RECIPIENTS_PER_SECOND - (performance.now() - started);
      if (wait > 0) await sleep(wait);
    }
  }

  private async runChunk(
    tx: Db,
    bulkId: string,
    fallback: string,
  ): Promise<{ done: boolean; processed: number; queued: string[] }> {
    const { clock, notifier } = this.deps;
    const repo = createBulkRepository(tx);
    const bulk = await repo.lock(bulkId);
    if (!bulk || (bulk.status !== 'queued' && bulk.status !== 'sending'))
      return { done: true, processed: 0, queued: [] };
    const segment = { segment: bulk.segment, value: bulk.segmentValue };
    const after = await repo.lastRecipient(bulkId);
    const chunk = await repo.recipientsAfter(segment, bulk.createdAt, after, CHUNK);
    if (!chunk.length) {
      await tx
        .update(bulkMessages)
        .set({ status: 'done', finishedAt: clock.now(), recipients: bulk.sent + bulk.skipped + bulk.failed })
        .where(eq(bulkMessages.id, bulkId));
      return { done: true, processed: 0, queued: [] };
    }
    const counts = { sent: 0, skipped: 0, failed: 0 };
    const queued: string[] = [];
    for (const user of chunk) {
      const eventKey = `bulk:${bulkId}:${user.id}`;
      const language = languageOf(user.language, fallback);
      const record = (channel: BulkMessageRow['channels'][number], status: 'skipped' | 'failed', error: string) =>
        tx
          .insert(messages)
          .values({
            eventKey,
            channel,
            category: bulk.category,
            template: 'bulk',
            userId: user.id,
            to: (channel === 'email' ? user.email : user.phone) ?? '',
            language,
            subject: channel === 'email' ? bulk.subject : null,
            body: bulk.body,
            status,
            error,
            bulkId,
            createdAt: clock.now(),
          })
          .onConflictDoNothing({ target: [messages.eventKey, messages.channel] })
          .returning({ id: messages.id });
      try {
        // A savepoint: a customer whose notification fails is recorded as failed, the chunk goes on.
        const outcomes = await tx.transaction((sp) =>
          notifier.notify(
            {
              userId: user.id,
              category: bulk.category,
              eventKey,
              template: 'bulk',
              bulkId,
              channels: bulk.channels,
              compose: (lang: LanguageCode) => ({
                subject: bulk.subject,
                text: `${bulk.body}\n\n--\n${mt(lang, 'mail.bulk.footer')}`,
                short: bulk.body,
              }),
            },
            sp as unknown as Db,
          ),
        );
        const ids = outcomes.flatMap((o) => (o.status === 'queued' && o.messageId ? [o.messageId] : []));
        queued.push(...ids);
        let recorded = 0;
        for (const o of outcomes) {
          if (o.status !== 'skipped') continue;
          recorded += o.messageId ? 1 : (await record(o.channel, 'skipped', o.reason ?? 'skipped')).length;
        }
        // Only a customer who left no row before counts: one that has one was counted by the run that made it.
        if (ids.length) counts.sent++;
        else if (recorded) counts.skipped++;
        else if (!outcomes.some((o) => o.status === 'duplicate')) throw new Error('not notified on any channel');
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        let recorded = 0;
        for (const channel of bulk.channels) recorded += (await record(channel, 'failed', reason)).length;
        if (recorded) counts.failed++;
      }
    }
    await tx
      .update(bulkMessages)
      .set({
        status: 'sending',
        sent: bulk.sent + counts.sent,
        skipped: bulk.skipped + counts.skipped,
        failed: bulk.failed + counts.failed,
      })
      .where(eq(bulkMessages.id, bulkId));
    return { done: false, processed: chunk.length, queued };
  }

  private async toBulks(db: Db, rows: BulkMessageRow[]): Promise<BulkMessage[]> {
    const repo = createBulkRepository(db);
    const values = (s: string) => rows.filter((r) => r.segment === s && r.segmentValue).map((r) => r.segmentValue!);
    const planNames = await repo.planNames(values('plan'));
    const nasNames = await repo.deviceNames(values('nas'));
    return rows.map((r) => ({
      id: r.id,
      segment: r.segment,
      segment_value: r.segmentValue,
      segment_label:
        r.segment === 'plan'
          ? (planNames.get(r.segmentValue ?? '') ?? null)
          : r.segment === 'nas'
            ? (nasNames.get(r.segmentValue ?? '') ?? null)
            : r.segmentValue,
      channels: r.channels,
      category: r.category,
      subject: r.subject,
      body: r.body,
      status: r.status,
      recipients: r.recipients,
      sent: r.sent,
      failed: r.failed,
      skipped: r.skipped,
      created_by: r.createdBy,
      created_at: r.createdAt.toISOString(),
      finished_at: iso(r.finishedAt),
    }));
  }

  private async toBulk(db: Db, row: BulkMessageRow): Promise<BulkMessage> {
    return (await this.toBulks(db, [row]))[0]!;
  }
}
