/**
 * Issue 13: the backups the running portal keeps in DATA_DIR/backups: taken on schedule or by an admin, the
 * newest BACKUP_KEEP kept, a failure recorded and shown without touching the good ones, downloads for admins.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupFileName, verifyBackup } from '../../server/modules/backups/archive';
import { ManualClock } from '../../server/lib/clock';
import { bearer, createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

let t: TestApp;
let as: CallAs;
let dataDir: string;
const clock = new ManualClock('2026-06-01T03:00:00.000Z');

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'isp-kept-'));
  t = await createTestApp({
    clock,
    config: { dataDir, backupKeep: 2, backupIntervalHours: 24, accessTokenTtlSeconds: 30 * 86_400 },
  });
  as = await signInEveryRole(t);
});
afterAll(() => t.close());

const archives = () =>
  existsSync(join(dataDir, 'backups'))
    ? readdirSync(join(dataDir, 'backups'))
        .filter((n) => n.endsWith('.tar.gz'))
        .sort()
    : [];

describe('kept backups', () => {
  it('an admin takes one now, sees it listed with size and time, and downloads the same bytes', async () => {
    const made = await as('POST', '/backups', 'admin');
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({
      success: true,
      message: 'Backup created successfully',
      data: { name: backupFileName(clock.now()), created_at: clock.now().toISOString() },
    });

    const list = await as('GET', '/backups', 'super_admin');
    expect(list.statusCode).toBe(200);
    const data = list.json().data;
    expect(data.items).toHaveLength(1);
    expect(data.items[0].size).toBeGreaterThan(1000);
    expect(data.last_failure).toBeNull();
    expect(data.schedule).toEqual({ enabled: false, interval_hours: 24, keep: 2 });

    // Sent as stored even to a client that accepts brotli and gzip (issue 15): the .tar.gz is not encoded again.
    const { token } = await t.login('admin@example.com');
    const download = await t.app.inject({
      method: 'GET',
      url: data.items[0].download_url,
      headers: { ...bearer(token), 'accept-encoding': 'br, gzip' },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-encoding']).toBeUndefined();
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${data.items[0].name}"`);
    expect(download.rawPayload.equals(readFileSync(join(dataDir, 'backups', data.items[0].name)))).toBe(true);
    // It is a whole backup of this database.
    const { manifest } = await verifyBackup(join(dataDir, 'backups', data.items[0].name), t.config.secretsKey);
    expect(manifest.database.tables.users).toBe(6);
  });

  it('is for admins only, and downloads nothing outside the backups folder', async () => {
    for (const role of ['support', 'billing', 'technician', 'user'] as const) {
      expect([role, (await as('GET', '/backups', role)).statusCode]).toEqual([role, 403]);
      expect([role, (await as('POST', '/backups', role)).statusCode]).toEqual([role, 403]);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/backups' })).statusCode).toBe(401);
    const name = archives()[0];
    expect((await as('GET', `/backups/${name}/download`, 'billing')).statusCode).toBe(403);
    expect((await as('GET', '/backups/..%2Fsecrets.json/download', 'admin')).statusCode).toBe(404);
    expect((await as('GET', '/backups/isp-portal-2020-01-01T00-00-00-000Z.tar.gz/download', 'admin')).statusCode).toBe(
      404,
    );
  });

  it('the schedule takes one when the newest is older than the interval and keeps the newest two', async () => {
    const { kept } = t.app.backups;
    expect(await t.app.backups.schedule.run()).toBeNull(); // the manual one is fresh
    clock.advanceHours(24);
    expect(await t.app.backups.schedule.run()).toMatchObject({ name: backupFileName(clock.now()) });
    expect(await t.app.backups.schedule.run()).toBeNull();
    clock.advanceHours(24);
    await t.app.backups.schedule.run();
    expect(archives()).toHaveLength(2);
    expect((await kept.items()).map((i) => i.created_at)).toEqual([
      clock.now().toISOString(),
      new Date(clock.now().getTime() - 24 * 3_600_000).toISOString(),
    ]);
  });

  it('a failed backup is recorded and shown, retried an hour later, and never costs a good one', async () => {
    clock.advanceHours(24);
    const before = archives();
    // Something in the way of the archive's file: the next backup cannot be written.
    mkdirSync(join(dataDir, 'backups', `${backupFileName(clock.now())}.partial`, 'blocker'), { recursive: true });
    expect(await t.app.backups.schedule.run()).toBeNull();
    expect(archives()).toEqual(before);
    const list = (await as('GET', '/backups', 'admin')).json().data;
    expect(list.last_failure).toMatchObject({ at: clock.now().toISOString() });
    expect(list.last_failure.message.length).toBeGreaterThan(0);
    expect(list.items).toHaveLength(2);

    // The failed attempt cleared its leftovers; put the obstacle back for an admin's try.
    mkdirSync(join(dataDir, 'backups', `${backupFileName(clock.now())}.partial`, 'blocker'), { recursive: true });
    const byHand = await as('POST', '/backups', 'admin');
    expect(byHand.statusCode).toBe(500);
    expect(byHand.json().message).toMatch(/^The backup failed: /);

    // Within the hour the schedule does not hammer; after it, the next attempt (a new name) works.
    clock.advanceMinutes(30);
    expect(await t.app.backups.schedule.run()).toBeNull();
    clock.advanceMinutes(31);
    expect(await t.app.backups.schedule.run()).toMatchObject({ name: backupFileName(clock.now()) });
    const after = (await as('GET', '/backups', 'admin')).json().data;
    expect(after.last_failure).toBeNull();
    expect(after.items).toHaveLength(2);
  });

  it('refuses a second backup while one is being taken', async () => {
    clock.advanceHours(1);
    const first = t.app.backups.kept.take();
    const second = await as('POST', '/backups', 'admin');
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('A backup is already being taken; try again in a moment');
    expect((await first).name).toBe(backupFileName(clock.now()));
  });
});
