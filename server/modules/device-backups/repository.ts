/** Reading and writing configuration versions and backup jobs (with the names of the people who asked). */
import { and, count, desc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import { newestFirst } from '../../db/paging';
import type { DeviceJobKind, DeviceJobStatus } from '../../../contract/schemas/device-backup';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import {
  deviceBackupJobs,
  deviceBackups,
  type DeviceBackupJobRow,
  type DeviceBackupRow,
} from '../../db/schema/device-backups';
import { devices } from '../../db/schema/devices';

/** A version without its (sealed) content, for lists. */
export type BackupMeta = Omit<DeviceBackupRow, 'contentSealed'> & { createdByName: string | null };

export type JobWithNames = DeviceBackupJobRow & { requestedByName: string | null; backupVersion: number | null };

const metaColumns = {
  id: deviceBackups.id,
  deviceId: deviceBackups.deviceId,
  version: deviceBackups.version,
  sha256: deviceBackups.sha256,
  sizeBytes: deviceBackups.sizeBytes,
  lineCount: deviceBackups.lineCount,
  trigger: deviceBackups.trigger,
  createdBy: deviceBackups.createdBy,
  createdAt: deviceBackups.createdAt,
  createdByName: users.name,
};

export function createDeviceBackupRepository(db: Db) {
  const jobSelect = (conn: Db = db) =>
    conn
      .select({ job: deviceBackupJobs, requestedByName: users.name, backupVersion: deviceBackups.version })
      .from(deviceBackupJobs)
      .leftJoin(users, eq(users.id, deviceBackupJobs.requestedBy))
      .leftJoin(deviceBackups, eq(deviceBackups.id, deviceBackupJobs.backupId));
  const flattenJob = (r: {
    job: DeviceBackupJobRow;
    requestedByName: string | null;
    backupVersion: number | null;
  }): JobWithNames => ({
    ...r.job,
    requestedByName: r.requestedByName,
    backupVersion: r.backupVersion,
  });

  return {
    async deviceName(deviceId: string): Promise<string | undefined> {
      const [row] = await db.select({ name: devices.name }).from(devices).where(eq(devices.id, deviceId)).limit(1);
      return row?.name;
    },

    /** Devices a scheduled backup applies to: RouterOS devices with the REST API configured. */
    async backupCandidates(): Promise<string[]> {
      const rows = await db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.vendor, 'mikrotik'), eq(devices.apiType, 'rest')));
      return rows.map((r) => r.id);
    },

    async listVersions(deviceId: string, page: number, limit: number): Promise<{ rows: BackupMeta[]; total: number }> {
      const [rows, [{ total }]] = await Promise.all([
        db
          .select(metaColumns)
          .from(deviceBackups)
          .leftJoin(users, eq(users.id, deviceBackups.createdBy))
          .where(eq(deviceBackups.deviceId, deviceId))
          .orderBy(desc(deviceBackups.version))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ total: count() }).from(deviceBackups).where(eq(deviceBackups.deviceId, deviceId)),
      ]);
      return { rows, total: Number(total) };
    },

    async findVersion(
      deviceId: string,
      backupId: string,
    ): Promise<(DeviceBackupRow & { createdByName: string | null }) | undefined> {
      const [row] = await db
        .select({ backup: deviceBackups, createdByName: users.name })
        .from(deviceBackups)
        .leftJoin(users, eq(users.id, deviceBackups.createdBy))
        .where(and(eq(deviceBackups.deviceId, deviceId), eq(deviceBackups.id, backupId)))
        .limit(1);
      return row ? { ...row.backup, createdByName: row.createdByName } : undefined;
    },

    async latestVersion(conn: Db, deviceId: string): Promise<DeviceBackupRow | undefined> {
      const [row] = await conn
        .select()
        .from(deviceBackups)
        .where(eq(deviceBackups.deviceId, deviceId))
        .orderBy(desc(deviceBackups.version))
        .limit(1);
      return row;
    },

    async versionBySha(deviceId: string, sha256: string): Promise<number | null> {
      const [row] = await db
        .select({ version: deviceBackups.version })
        .from(deviceBackups)
        .where(and(eq(deviceBackups.deviceId, deviceId), eq(deviceBackups.sha256, sha256)))
        .orderBy(desc(deviceBackups.version))
        .limit(1);
      return row?.version ?? null;
    },

    /** Locks the device row, so two backups of one device number their versions one after the other. */
    async lockDevice(tx: Db, deviceId: string): Promise<boolean> {
      const rows = await tx.select({ id: devices.id }).from(devices).where(eq(devices.id, deviceId)).for('update');
      return rows.length > 0;
    },

    async insertVersion(tx: Db, values: typeof deviceBackups.$inferInsert): Promise<DeviceBackupRow> {
      const [row] = await tx.insert(deviceBackups).values(values).returning();
      return row;
    },

    async insertJob(values: typeof deviceBackupJobs.$inferInsert, conn: Db = db): Promise<DeviceBackupJobRow> {
      const [row] = await conn.insert(deviceBackupJobs).values(values).returning();
      return row;
    },

    async updateJob(id: string, values: Partial<typeof deviceBackupJobs.$inferInsert>, conn: Db = db): Promise<void> {
      await conn.update(deviceBackupJobs).set(values).where(eq(deviceBackupJobs.id, id));
    },

    async findJob(id: string): Promise<JobWithNames | undefined> {
      const [row] = await jobSelect().where(eq(deviceBackupJobs.id, id)).limit(1);
      return row ? flattenJob(row) : undefined;
    },

    async listJobs(
      deviceId: string,
      query: { page: number; limit: number; status?: DeviceJobStatus; kind?: DeviceJobKind },
    ): Promise<{ rows: JobWithNames[]; total: number }> {
      const conditions: SQL[] = [eq(deviceBackupJobs.deviceId, deviceId)];
      if (query.status) conditions.push(eq(deviceBackupJobs.status, query.status));
      if (query.kind) conditions.push(eq(deviceBackupJobs.kind, query.kind));
      const where = and(...conditions);
      const [rows, [{ total }]] = await Promise.all([
        jobSelect()
          .where(where)
          .orderBy(newestFirst(deviceBackupJobs.createdAt), newestFirst(deviceBackupJobs.id))
          .limit(query.limit)
          .offset((query.page - 1) * query.limit),
        db.select({ total: count() }).from(deviceBackupJobs).where(where),
      ]);
      return { rows: rows.map(flattenJob), total: Number(total) };
    },

    /** The device's unfinished backup job, if one is queued or running. */
    async activeBackupJob(deviceId: string): Promise<DeviceBackupJobRow | undefined> {
      const [row] = await db
        .select()
        .from(deviceBackupJobs)
        .where(
          and(
            eq(deviceBackupJobs.deviceId, deviceId),
            eq(deviceBackupJobs.kind, 'backup'),
            inArray(deviceBackupJobs.status, ['queued', 'running']),
          ),
        )
        .limit(1);
      return row;
    },

    /** The newest backup job of each of these devices (the scheduler decides from it whether one is due). */
    async latestBackupJobs(deviceIds: string[]): Promise<Map<string, DeviceBackupJobRow>> {
      if (!deviceIds.length) return new Map();
      const rows = await db
        .selectDistinctOn([deviceBackupJobs.deviceId])
        .from(deviceBackupJobs)
        .where(and(inArray(deviceBackupJobs.deviceId, deviceIds), eq(deviceBackupJobs.kind, 'backup')))
        .orderBy(deviceBackupJobs.deviceId, desc(deviceBackupJobs.createdAt));
      return new Map(rows.map((r) => [r.deviceId, r]));
    },

    /** Jobs still queued or running long after they were created: their process stopped, they will never finish. */
    async failStaleJobs(createdBefore: Date, now: Date, reason: string): Promise<number> {
      const rows = await db
        .update(deviceBackupJobs)
        .set({ status: 'failed', stage: 'done', error: reason, finishedAt: now })
        .where(
          and(inArray(deviceBackupJobs.status, ['queued', 'running']), lt(deviceBackupJobs.createdAt, createdBefore)),
        )
        .returning({ id: deviceBackupJobs.id });
      return rows.length;
    },
  };
}

export type DeviceBackupRepository = ReturnType<typeof createDeviceBackupRepository>;
