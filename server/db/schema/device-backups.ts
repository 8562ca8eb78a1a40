/**
 * Configuration backups of network devices (issue 7): each stored version of a device's running configuration
 * export, and the jobs (back up now, scheduled backup, configuration fetch) that produce them.
 *
 * A version is stored only when the export differs from the device's latest version (its sha256 differs), so
 * the same configuration seen twice in a row is one version; A → B → A is three. The export text is sealed
 * with the secret box (AES-256-GCM under SECRETS_KEY) because a router's configuration carries its secrets.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { DEVICE_BACKUP_TRIGGERS, DEVICE_JOB_KINDS, DEVICE_JOB_STATUSES } from '../../../contract/schemas/device-backup';
import { users } from '../schema';
import { devices } from './devices';

export const deviceBackups = pgTable(
  'device_backups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** 1, 2, 3... per device. */
    version: integer('version').notNull(),
    /** sha256 of the export text (hex), compared with the latest version's to skip unchanged exports. */
    sha256: varchar('sha256', { length: 64 }).notNull(),
    /** Bytes of the export text (UTF-8). */
    sizeBytes: integer('size_bytes').notNull(),
    lineCount: integer('line_count').notNull(),
    /** The export text, sealed (secret box). */
    contentSealed: text('content_sealed').notNull(),
    trigger: varchar('trigger', { length: 16, enum: DEVICE_BACKUP_TRIGGERS }).notNull(),
    /** null: the scheduler (or a deleted user). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_backups_device_version_unique').on(t.deviceId, t.version),
    index('device_backups_device_created_idx').on(t.deviceId, t.createdAt.desc()),
    check('device_backups_version_positive', sql`${t.version} >= 1`),
  ],
);

export const deviceBackupJobs = pgTable(
  'device_backup_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 16, enum: DEVICE_JOB_KINDS }).notNull(),
    trigger: varchar('trigger', { length: 16, enum: DEVICE_BACKUP_TRIGGERS }).notNull(),
    status: varchar('status', { length: 16, enum: DEVICE_JOB_STATUSES }).notNull().default('queued'),
    /** What the job is doing now: queued, connecting, fetching, saving, done. */
    stage: varchar('stage', { length: 16 }).notNull().default('queued'),
    percent: integer('percent').notNull().default(0),
    /** Why it failed, in words a staff user can act on. */
    error: text('error'),
    /** The version this job stored, or the unchanged latest one. */
    backupId: uuid('backup_id').references(() => deviceBackups.id, { onDelete: 'set null' }),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('device_backup_jobs_device_created_idx').on(t.deviceId, t.createdAt.desc()),
    index('device_backup_jobs_status_idx').on(t.status),
    check('device_backup_jobs_percent_range', sql`${t.percent} between 0 and 100`),
  ],
);

export type DeviceBackupRow = typeof deviceBackups.$inferSelect;
export type DeviceBackupJobRow = typeof deviceBackupJobs.$inferSelect;
