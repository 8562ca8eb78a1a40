/**
 * Bulk messages' queries: who is in a segment, how many each channel reaches, the rows and their messages.
 *
 * A segment's customers are accounts with role `user` and status `active` (a suspended or disabled account is
 * kept from every segment: staff blocked it). On top of that:
 * - all: every such customer;
 * - plan: a subscription on the plan that is active or suspended (a suspended one is still the plan's customer);
 * - nas: a RADIUS session through the NAS that was alive (updated) in the last NAS_WINDOW_DAYS days, whatever its
 *   subscription's status: the customers that NAS serves now or served lately;
 * - area: as nas, for every device whose location is the area;
 * - unpaid: an invoice that is unpaid or overdue.
 */
import { and, asc, count, desc, eq, gt, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { BulkSegment, MessageCategory, MessageChannel } from '../../../contract/schemas/messaging';
import type { Db } from '../../db/client';
import {
  bulkMessages,
  devices,
  invoices,
  messageOptOuts,
  messagePreferences,
  messageProviders,
  messages,
  plans,
  radiusSessions,
  subscriptions,
  users,
} from '../../db/schema';
import type { BulkMessageRow } from '../../db/schema/messaging';
import { categoryDefault } from '../messaging/notifier';

/** A NAS's customers: those with a session through it alive in these last days. */
const NAS_WINDOW_DAYS = 30;

export interface Segment {
  segment: BulkSegment;
  value: string | null;
}

function sessionsThrough(deviceIds: SQL, since: Date): SQL {
  return sql`${users.id} in (select ${subscriptions.userId} from ${radiusSessions}
    join ${subscriptions} on ${subscriptions.id} = ${radiusSessions.subscriptionId}
    where ${radiusSessions.nasDeviceId} in (${deviceIds}) and ${radiusSessions.updatedAt} >= ${since})`;
}

/** The condition on `users` that picks a segment's customers. */
function segmentCondition({ segment, value }: Segment, now: Date): SQL {
  const customer = and(eq(users.role, 'user'), eq(users.status, 'active'))!;
  const since = new Date(now.getTime() - NAS_WINDOW_DAYS * 86_400_000);
  switch (segment) {
    case 'all':
      return customer;
    case 'plan':
      return and(
        customer,
        sql`${users.id} in (select ${subscriptions.userId} from ${subscriptions}
          where ${subscriptions.planId} = ${value} and ${subscriptions.status} in ('active', 'suspended'))`,
      )!;
    case 'nas':
      return and(customer, sessionsThrough(sql`${value}::uuid`, since))!;
    case 'area':
      return and(
        customer,
        sessionsThrough(sql`select ${devices.id} from ${devices} where ${devices.location} = ${value}`, since),
      )!;
    case 'unpaid':
      return and(
        customer,
        sql`${users.id} in (select ${invoices.userId} from ${invoices} where ${invoices.status} in ('unpaid', 'overdue'))`,
      )!;
  }
}

/** Is the channel on for the category for this customer (their choice, else the category's default)? */
const chosen = (channel: MessageChannel, category: MessageCategory): SQL =>
  sql`coalesce((select ${messagePreferences.enabled} from ${messagePreferences}
    where ${messagePreferences.userId} = ${users.id} and ${messagePreferences.channel} = ${channel}
      and ${messagePreferences.category} = ${category}), ${categoryDefault(category)})`;

/** A verified number that has not answered STOP on this channel. */
const phoneReachable = (channel: MessageChannel): SQL =>
  sql`${users.phone} is not null and ${users.phoneVerifiedAt} is not null and not exists (select 1 from ${messageOptOuts}
    where ${messageOptOuts.phone} = ${users.phone} and ${messageOptOuts.channel} = ${channel})`;

export function createBulkRepository(db: Db) {
  return {
    async countRecipients(segment: Segment, now: Date): Promise<number> {
      const [row] = await db.select({ n: count() }).from(users).where(segmentCondition(segment, now));
      return Number(row?.n ?? 0);
    },

    /** Per channel, the segment's customers the channel would reach for the category (an estimate: a provider may still refuse). */
    async reachable(segment: Segment, category: MessageCategory, now: Date): Promise<Record<MessageChannel, number>> {
      const providers = await db
        .selectDistinct({ channel: messageProviders.channel })
        .from(messageProviders)
        .where(eq(messageProviders.isActive, true));
      const served = new Set<string>(providers.map((p) => p.channel));
      const [row] = await db
        .select({
          email: sql<number>`count(*) filter (where ${chosen('email', category)})`,
          sms: sql<number>`count(*) filter (where ${chosen('sms', category)} and ${phoneReachable('sms')})`,
          whatsapp: sql<number>`count(*) filter (where ${chosen('whatsapp', category)} and ${phoneReachable('whatsapp')})`,
        })
        .from(users)
        .where(segmentCondition(segment, now));
      return {
        email: Number(row?.email ?? 0),
        sms: served.has('sms') ? Number(row?.sms ?? 0) : 0,
        whatsapp: served.has('whatsapp') ? Number(row?.whatsapp ?? 0) : 0,
      };
    },

    /** The next customers of the segment after `after` (keyset on the id), with what a skipped message records. */
    recipientsAfter(segment: Segment, now: Date, after: string | null, limit: number) {
      const where = segmentCondition(segment, now);
      return db
        .select({ id: users.id, email: users.email, phone: users.phone, language: users.language })
        .from(users)
        .where(after ? and(where, gt(users.id, after)) : where)
        .orderBy(asc(users.id))
        .limit(limit);
    },

    /** The last customer the job went through: every one it went through has a message row (sent, skipped or failed). */
    async lastRecipient(bulkId: string): Promise<string | null> {
      const [row] = await db
        .select({ userId: messages.userId })
        .from(messages)
        .where(and(eq(messages.bulkId, bulkId), isNotNull(messages.userId)))
        .orderBy(desc(messages.userId))
        .limit(1);
      return row?.userId ?? null;
    },

    async lock(id: string): Promise<BulkMessageRow | undefined> {
      const [row] = await db.select().from(bulkMessages).where(eq(bulkMessages.id, id)).for('update');
      return row;
    },

    async byId(id: string): Promise<BulkMessageRow | undefined> {
      const [row] = await db.select().from(bulkMessages).where(eq(bulkMessages.id, id));
      return row;
    },

    async page(limit: number, offset: number, status?: BulkMessageRow['status']) {
      const where = status ? eq(bulkMessages.status, status) : undefined;
      const rows = await db
        .select()
        .from(bulkMessages)
        .where(where)
        .orderBy(desc(bulkMessages.createdAt), desc(bulkMessages.id))
        .limit(limit)
        .offset(offset);
      const [total] = await db.select({ n: count() }).from(bulkMessages).where(where);
      return { rows, total: Number(total?.n ?? 0) };
    },

    async messagesPage(bulkId: string, limit: number, offset: number) {
      const rows = await db
        .select({ message: messages, userName: users.name })
        .from(messages)
        .leftJoin(users, eq(users.id, messages.userId))
        .where(eq(messages.bulkId, bulkId))
        .orderBy(asc(messages.createdAt), asc(messages.id))
        .limit(limit)
        .offset(offset);
      const [total] = await db.select({ n: count() }).from(messages).where(eq(messages.bulkId, bulkId));
      return { rows, total: Number(total?.n ?? 0) };
    },

    async planNames(ids: string[]) {
      if (!ids.length) return new Map<string, string>();
      const rows = await db.select({ id: plans.id, name: plans.name }).from(plans).where(inArray(plans.id, ids));
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    async deviceNames(ids: string[]) {
      if (!ids.length) return new Map<string, string>();
      const rows = await db
        .select({ id: devices.id, name: devices.name })
        .from(devices)
        .where(inArray(devices.id, ids));
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    async areaExists(area: string): Promise<boolean> {
      const [row] = await db.select({ id: devices.id }).from(devices).where(eq(devices.location, area)).limit(1);
      return !!row;
    },

    async options() {
      const planRows = await db.select({ id: plans.id, name: plans.name }).from(plans).orderBy(asc(plans.name));
      const nas = await db
        .select({ id: devices.id, name: devices.name, location: devices.location })
        .from(devices)
        .orderBy(asc(devices.name));
      const areas = [...new Set(nas.map((d) => d.location).filter((l): l is string => !!l))].sort();
      return { plans: planRows, nas, areas };
    },
  };
}
