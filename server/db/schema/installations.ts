/**
 * Installations (issue 8): the technician's job that switches a subscription's service on, and its photos.
 * Photos are stored like ticket attachments: DATA_DIR/installations/<installation id>/<stored_name> (random);
 * the original name is metadata only.
 */
import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import {
  INSTALLATION_STATUSES,
  type ChecklistItem,
  type EquipmentItem,
  type Readings,
} from '../../../contract/schemas/installation';
import { subscriptions, users } from '../schema';

/** Installation numbers (I-000123): a sequence, so two jobs created at once never share one. */
export const installationNumberSeq = pgSequence('installation_number_seq', { startWith: 1, increment: 1 });

export const installations = pgTable(
  'installations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: varchar('number', { length: 20 })
      .notNull()
      .default(sql`'I-' || lpad(nextval('installation_number_seq')::text, 6, '0')`),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** The customer (the subscription's owner when the job was created). */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    address: varchar('address', { length: 300 }).notNull(),
    contactPhone: varchar('contact_phone', { length: 32 }),
    preferredDate: date('preferred_date', { mode: 'string' }),
    scheduledStart: timestamp('scheduled_start', { withTimezone: true }),
    scheduledEnd: timestamp('scheduled_end', { withTimezone: true }),
    technicianId: uuid('technician_id').references(() => users.id, { onDelete: 'set null' }),
    status: varchar('status', { length: 16, enum: INSTALLATION_STATUSES }).notNull().default('requested'),
    checklist: jsonb('checklist').$type<ChecklistItem[]>().notNull().default(sql`'[]'::jsonb`),
    notes: text('notes'),
    equipment: jsonb('equipment').$type<EquipmentItem[]>().notNull().default(sql`'[]'::jsonb`),
    readings: jsonb('readings').$type<Readings>().notNull().default(sql`'{}'::jsonb`),
    failureReason: text('failure_reason'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('installations_number_unique').on(t.number),
    index('installations_subscription_idx').on(t.subscriptionId),
    index('installations_user_idx').on(t.userId),
    index('installations_status_idx').on(t.status),
    index('installations_technician_scheduled_idx').on(t.technicianId, t.scheduledStart),
    index('installations_scheduled_idx').on(t.scheduledStart),
    index('installations_created_at_id_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);

export const installationPhotos = pgTable(
  'installation_photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    installationId: uuid('installation_id')
      .notNull()
      .references(() => installations.id, { onDelete: 'cascade' }),
    originalName: varchar('original_name', { length: 255 }).notNull(),
    size: integer('size').notNull(),
    contentType: varchar('content_type', { length: 100 }).notNull(),
    storedName: varchar('stored_name', { length: 64 }).notNull(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('installation_photos_installation_idx').on(t.installationId, t.createdAt),
    uniqueIndex('installation_photos_stored_name_unique').on(t.storedName),
  ],
);

export type InstallationRow = typeof installations.$inferSelect;
export type NewInstallationRow = typeof installations.$inferInsert;
export type InstallationPhotoRow = typeof installationPhotos.$inferSelect;
