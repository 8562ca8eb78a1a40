/** Reading and writing installation jobs and their photos, with the names of the people and plan involved. */
import { and, asc, count, desc, eq, gte, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { likePattern, newestFirst } from '../../db/paging';
import { alias } from 'drizzle-orm/pg-core';
import { OPEN_INSTALLATION_STATUSES, type InstallationListQueryParsed } from '../../../contract/schemas/installation';
import type { Db } from '../../db/client';
import { invoices, plans, subscriptions, users } from '../../db/schema';
import {
  installationPhotos,
  installations,
  type InstallationPhotoRow,
  type InstallationRow,
  type NewInstallationRow,
} from '../../db/schema/installations';

const customer = alias(users, 'customer');
const technician = alias(users, 'technician');
const uploader = alias(users, 'uploader');

export interface InstallationWithNames {
  row: InstallationRow;
  subscriptionStatus: string;
  planName: string;
  customerName: string;
  customerEmail: string;
  technicianName: string | null;
}

export interface PhotoWithUploader {
  row: InstallationPhotoRow;
  uploaderName: string;
}

/** Conditions on the list: a technician's scope (their own jobs) and the query's filters. */
export interface InstallationScope {
  technicianId?: string;
  /** Start of today (UTC) for the "today and upcoming" view. */
  todayStart?: Date;
}

export function createInstallationRepository(db: Db) {
  const joined = (conn: Db = db) =>
    conn
      .select({
        row: installations,
        subscriptionStatus: subscriptions.status,
        planName: plans.name,
        customerName: customer.name,
        customerEmail: customer.email,
        technicianName: technician.name,
      })
      .from(installations)
      .innerJoin(subscriptions, eq(subscriptions.id, installations.subscriptionId))
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .innerJoin(customer, eq(customer.id, installations.userId))
      .leftJoin(technician, eq(technician.id, installations.technicianId));

  const filters = (scope: InstallationScope, query: Partial<InstallationListQueryParsed>): SQL | undefined => {
    const c: SQL[] = [];
    if (scope.technicianId) c.push(eq(installations.technicianId, scope.technicianId));
    if (query.status) c.push(eq(installations.status, query.status));
    if (query.technician_id) c.push(eq(installations.technicianId, query.technician_id));
    // The day a job is for: its slot, or (unscheduled) the customer's preferred date.
    const dayOf = sql`coalesce(${installations.scheduledStart}, ${installations.preferredDate}::timestamptz)`;
    if (query.from) c.push(sql`${dayOf} >= ${`${query.from}T00:00:00Z`}::timestamptz`);
    if (query.to) c.push(sql`${dayOf} < (${`${query.to}T00:00:00Z`}::timestamptz + interval '1 day')`);
    if (query.upcoming && scope.todayStart) {
      // Unfinished jobs (whatever their date: an overdue visit still has to happen) and today's finished ones.
      c.push(
        or(
          inArray(
            installations.status,
            [...OPEN_INSTALLATION_STATUSES].filter((s) => s !== 'failed'),
          ),
          gte(installations.updatedAt, scope.todayStart),
        )!,
      );
    }
    if (query.search) {
      const p = likePattern(query.search);
      c.push(
        or(
          ilike(installations.number, p),
          ilike(customer.name, p),
          ilike(customer.email, p),
          ilike(installations.address, p),
        )!,
      );
    }
    return c.length ? and(...c) : undefined;
  };

  return {
    /** Soonest slot first (unscheduled last), then newest. */
    async page(
      scope: InstallationScope,
      query: InstallationListQueryParsed,
    ): Promise<{ items: InstallationWithNames[]; total: number }> {
      const where = filters(scope, query);
      const [items, [{ total }]] = await Promise.all([
        joined()
          .where(where)
          .orderBy(
            sql`${installations.scheduledStart} asc nulls last`,
            desc(installations.createdAt),
            desc(installations.id),
          )
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db
          .select({ total: count() })
          .from(installations)
          .innerJoin(customer, eq(customer.id, installations.userId))
          .where(where),
      ]);
      return { items, total: Number(total) };
    },

    async findById(id: string, conn: Db = db): Promise<InstallationWithNames | undefined> {
      const [row] = await joined(conn).where(eq(installations.id, id)).limit(1);
      return row;
    },

    async lock(tx: Db, id: string): Promise<InstallationRow | undefined> {
      const [row] = await tx.select().from(installations).where(eq(installations.id, id)).for('update');
      return row;
    },

    async insert(tx: Db, values: NewInstallationRow): Promise<InstallationRow> {
      const [row] = await tx.insert(installations).values(values).returning();
      return row;
    },

    async update(tx: Db, id: string, patch: Partial<NewInstallationRow>): Promise<void> {
      await tx.update(installations).set(patch).where(eq(installations.id, id));
    },

    /** The subscription's job still to be done (requested … failed), if any. */
    async openFor(tx: Db, subscriptionId: string): Promise<InstallationRow | undefined> {
      const [row] = await tx
        .select()
        .from(installations)
        .where(
          and(
            eq(installations.subscriptionId, subscriptionId),
            inArray(installations.status, [...OPEN_INSTALLATION_STATUSES]),
          ),
        )
        .limit(1);
      return row;
    },

    /** The subscription's most recent job (for the customer's subscription page). */
    async latestFor(subscriptionId: string): Promise<InstallationRow | undefined> {
      const [row] = await db
        .select()
        .from(installations)
        .where(eq(installations.subscriptionId, subscriptionId))
        .orderBy(newestFirst(installations.createdAt), newestFirst(installations.id))
        .limit(1);
      return row;
    },

    /** The subscription a job is for, locked until the transaction ends. */
    async lockSubscription(
      tx: Db,
      id: string,
    ): Promise<{ id: string; userId: string; location: string | null; status: string } | undefined> {
      const [sub] = await tx
        .select({
          id: subscriptions.id,
          userId: subscriptions.userId,
          location: subscriptions.location,
          status: subscriptions.status,
        })
        .from(subscriptions)
        .where(eq(subscriptions.id, id))
        .for('update');
      return sub;
    },

    /** The subscription's owner. */
    async subscriptionOwner(id: string): Promise<{ id: string; userId: string } | undefined> {
      const [sub] = await db
        .select({ id: subscriptions.id, userId: subscriptions.userId })
        .from(subscriptions)
        .where(eq(subscriptions.id, id))
        .limit(1);
      return sub;
    },

    /** The subscription's first invoice. */
    async firstInvoice(tx: Db, subscriptionId: string): Promise<{ id: string; status: string } | undefined> {
      const [first] = await tx
        .select({ id: invoices.id, status: invoices.status })
        .from(invoices)
        .where(eq(invoices.subscriptionId, subscriptionId))
        .orderBy(asc(invoices.createdAt), asc(invoices.number))
        .limit(1);
      return first;
    },

    /** The customer's phone and address (a job's contact and default address). */
    async customerContact(
      conn: Db,
      userId: string,
    ): Promise<{ phone: string | null; address: string | null } | undefined> {
      const [owner] = await conn
        .select({ phone: users.phone, address: users.address })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return owner;
    },

    async user(
      id: string,
    ): Promise<{ id: string; role: string; status: string; name: string; email: string } | undefined> {
      const [row] = await db
        .select({ id: users.id, role: users.role, status: users.status, name: users.name, email: users.email })
        .from(users)
        .where(eq(users.id, id))
        .limit(1);
      return row;
    },

    async photos(installationId: string): Promise<PhotoWithUploader[]> {
      return db
        .select({ row: installationPhotos, uploaderName: uploader.name })
        .from(installationPhotos)
        .innerJoin(uploader, eq(uploader.id, installationPhotos.uploadedBy))
        .where(eq(installationPhotos.installationId, installationId))
        .orderBy(asc(installationPhotos.createdAt), asc(installationPhotos.id));
    },

    async photo(installationId: string, photoId: string): Promise<InstallationPhotoRow | undefined> {
      const [row] = await db
        .select()
        .from(installationPhotos)
        .where(and(eq(installationPhotos.installationId, installationId), eq(installationPhotos.id, photoId)))
        .limit(1);
      return row;
    },

    async insertPhotos(tx: Db, values: Array<typeof installationPhotos.$inferInsert>): Promise<InstallationPhotoRow[]> {
      return tx.insert(installationPhotos).values(values).returning();
    },
  };
}

export type InstallationRepository = ReturnType<typeof createInstallationRepository>;
