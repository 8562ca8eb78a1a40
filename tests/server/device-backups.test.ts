/**
 * Configuration and backups of RouterOS devices against a local router that speaks the REST API's wire format
 * (tests/helpers/routeros-fake.ts): the running configuration with secrets masked, back up now as a job,
 * versions only when the export changed, diffs, downloads as stored, failures (401, timeout) recorded with
 * their reason without losing the last good version, the scheduled backup on an injected clock, and the
 * admin-only access.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../contract/roles';
import { CONFIG_MASK, type DeviceBackup, type DeviceJob } from '../../contract/schemas/device-backup';
import { deviceBackups } from '../../server/db/schema/device-backups';
import { devices } from '../../server/db/schema/devices';
import { DEFAULT_EXPORT, startRouterOsFake, type RouterOsFake } from '../helpers/routeros-fake';
import { bearer, createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

// Read once by the module when the app starts: a router that never answers fails within half a second.
process.env.DEVICE_BACKUP_TIMEOUT_MS = '500';

const SECRETS = ['Sup3rS3cretPsk', 'RadiusShared123', 'alicePw42', 'BackupPw!9', 'n0c-ro'];

describe('device configuration and backups', () => {
  let t: TestApp;
  let call: CallAs;
  let router: RouterOsFake;
  let tlsRouter: RouterOsFake;
  let deviceId: string;
  let tlsDeviceId: string;
  let snmpOnlyId: string;

  const addDevice = async (name: string, fake: RouterOsFake | null) => {
    const box = t.app.secretBox;
    const [row] = await t.database.db
      .insert(devices)
      .values({
        name,
        vendor: fake ? 'mikrotik' : 'generic',
        host: '127.0.0.1',
        snmpCommunity: box.seal('public'),
        ...(fake
          ? {
              apiType: 'rest' as const,
              apiPort: fake.connection.port,
              apiTls: fake.https,
              apiUsername: fake.username,
              apiPassword: box.seal(fake.password),
            }
          : {}),
      })
      .returning();
    return row.id;
  };

  /** Access tokens last 15 minutes of the test clock: after moving it by hours, every role signs in again. */
  const signInAgain = async () => {
    const tokens = new Map<Role, string>();
    for (const role of ['admin', 'billing', 'support', 'technician', 'user', 'super_admin'] as Role[])
      tokens.set(role, (await t.login(`${role}@example.com`)).token);
    call = (method, url, role, payload) =>
      t.app.inject({
        method,
        url: `/api${url}`,
        headers: role ? bearer(tokens.get(role)!) : {},
        payload: payload as object,
      });
  };

  /** Back up now, wait for the job to finish (the queue, not a timer), and read the job as the browser would. */
  const backUp = async (id: string): Promise<DeviceJob> => {
    const res = await call('POST', `/devices/${id}/backups`, 'admin');
    expect(res.statusCode, res.body).toBe(202);
    const queued = res.json().data.job as DeviceJob;
    expect(queued).toMatchObject({ kind: 'backup', trigger: 'manual', device_id: id });
    await t.app.jobs.idle();
    const polled = await call('GET', `/device-jobs/${queued.id}`, 'admin');
    expect(polled.statusCode).toBe(200);
    return polled.json().data;
  };
  const versions = async (id: string): Promise<DeviceBackup[]> => {
    const res = await call('GET', `/devices/${id}/backups`, 'admin');
    expect(res.statusCode).toBe(200);
    return res.json().data.items;
  };

  beforeAll(async () => {
    router = await startRouterOsFake();
    tlsRouter = await startRouterOsFake({ https: true });
    t = await createTestApp();
    call = await signInEveryRole(t);
    deviceId = await addDevice('core-router-1', router);
    tlsDeviceId = await addDevice('edge-router-tls', tlsRouter);
    snmpOnlyId = await addDevice('switch-snmp-only', null);
  });
  afterAll(async () => {
    await t.close();
    await router.stop();
    await tlsRouter.stop();
  });

  it('shows the running configuration with line-for-line content and every secret masked', async () => {
    const res = await call('GET', `/devices/${deviceId}/config`, 'admin');
    expect(res.statusCode, res.body).toBe(200);
    const config = res.json().data;
    expect(config).toMatchObject({
      device_id: deviceId,
      device_name: 'core-router-1',
      masked_count: 5,
      matches_backup_version: null,
    });
    for (const secret of SECRETS) expect(res.body).not.toContain(secret);
    const lines = config.content.split('\n');
    expect(lines.length).toBe(DEFAULT_EXPORT.split('\n').length);
    expect(lines).toContain(`add address=10.0.0.5 secret=${CONFIG_MASK} service=ppp`);
    expect(lines).toContain(`add addresses=10.0.0.0/24 name=${CONFIG_MASK}`);
    expect(lines).toContain(`add name=alice password=${CONFIG_MASK} profile=pppoe-default service=pppoe`);
    // Harmless values stay readable.
    expect(lines).toContain('add address=192.0.2.2/30 interface=ether1 network=192.0.2.0');
    // The fetch went through the REST API's /execute, as RouterOS requires.
    expect(router.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/rest/execute',
      body: { script: '/export', 'as-string': '' },
    });
  });

  it('reads a router over HTTPS with a self-signed certificate', async () => {
    const res = await call('GET', `/devices/${tlsDeviceId}/config`, 'admin');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.content).toContain('/ip firewall filter');
  });

  it('refuses a device without a REST API configured, and an unknown device', async () => {
    const noApi = await call('POST', `/devices/${snmpOnlyId}/backups`, 'admin');
    expect(noApi.statusCode).toBe(409);
    expect(noApi.json().message).toMatch(/no RouterOS REST API configured/);
    const unknown = await call('GET', `/devices/00000000-0000-4000-8000-000000000000/config`, 'admin');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'Device not found' });
  });

  it('stores one version for two backups of an unchanged configuration', async () => {
    const first = await backUp(deviceId);
    expect(first).toMatchObject({ status: 'succeeded', stage: 'done', percent: 100, backup_version: 1, error: null });
    expect(first.requested_by_name).toBeTruthy();
    const second = await backUp(deviceId);
    expect(second).toMatchObject({ status: 'unchanged', backup_id: first.backup_id, backup_version: 1 });

    const list = await versions(deviceId);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      version: 1,
      trigger: 'manual',
      size_bytes: Buffer.byteLength(DEFAULT_EXPORT),
      line_count: DEFAULT_EXPORT.split('\n').length - 1,
    });

    // The configuration view says which stored version it equals.
    const config = await call('GET', `/devices/${deviceId}/config`, 'admin');
    expect(config.json().data.matches_backup_version).toBe(1);
  });

  it('keeps the export sealed at rest and downloads it exactly as stored', async () => {
    const [stored] = await t.database.db.select().from(deviceBackups).where(eq(deviceBackups.deviceId, deviceId));
    expect(stored.contentSealed).not.toContain('RadiusShared123');
    expect(stored.contentSealed.startsWith('v1:')).toBe(true);

    const download = await call('GET', `/devices/${deviceId}/backups/${stored.id}/download`, 'admin');
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(DEFAULT_EXPORT);
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="core-router-1-v1-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.rsc"/,
    );

    const detail = await call('GET', `/devices/${deviceId}/backups/${stored.id}`, 'admin');
    expect(detail.json().data).toMatchObject({ version: 1, masked_count: 5 });
    for (const secret of SECRETS) expect(detail.body).not.toContain(secret);
  });

  it('stores a new version when the configuration changes and diffs the changed lines', async () => {
    const [v1] = await versions(deviceId);
    router.exportText = DEFAULT_EXPORT.replace(
      'add action=drop chain=input in-interface=ether1',
      'add action=accept chain=input dst-port=8291 protocol=tcp src-address=10.0.0.0/24\nadd action=drop chain=input in-interface=ether1 log=yes',
    ).replace('set name=core-router-1', 'set name=core-router-01');
    t.clock.advanceMinutes(5);
    const job = await backUp(deviceId);
    expect(job).toMatchObject({ status: 'succeeded', backup_version: 2 });
    const list = await versions(deviceId);
    expect(list.map((v) => v.version)).toEqual([2, 1]);

    const res = await call('GET', `/devices/${deviceId}/backups/diff?from=${v1.id}&to=${job.backup_id}`, 'admin');
    expect(res.statusCode, res.body).toBe(200);
    const diff = res.json().data;
    expect(diff).toMatchObject({ added: 3, removed: 2, identical: false, from: { version: 1 }, to: { version: 2 } });
    const changed = diff.hunks.flatMap((h: { lines: Array<{ type: string; text: string }> }) =>
      h.lines.filter((l) => l.type !== 'context'),
    );
    const oldLine = (text: string) => DEFAULT_EXPORT.split('\n').indexOf(text) + 1;
    const newLine = (text: string) => router.exportText.split('\n').indexOf(text) + 1;
    const drop = 'add action=drop chain=input in-interface=ether1';
    const winbox = 'add action=accept chain=input dst-port=8291 protocol=tcp src-address=10.0.0.0/24';
    expect(changed).toEqual([
      { type: 'removed', text: drop, old_line: oldLine(drop), new_line: null },
      { type: 'added', text: winbox, old_line: null, new_line: newLine(winbox) },
      { type: 'added', text: `${drop} log=yes`, old_line: null, new_line: newLine(`${drop} log=yes`) },
      { type: 'removed', text: 'set name=core-router-1', old_line: oldLine('set name=core-router-1'), new_line: null },
      { type: 'added', text: 'set name=core-router-01', old_line: null, new_line: newLine('set name=core-router-01') },
    ]);
    expect(changed[0].old_line).toBeGreaterThan(20);
    // Context lines around the change; the diff, like every view, has secrets masked.
    expect(diff.hunks[0].lines[0]).toMatchObject({ type: 'context' });
    expect(res.body).not.toContain('alicePw42');

    const same = await call('GET', `/devices/${deviceId}/backups/diff?from=${v1.id}&to=${v1.id}`, 'admin');
    expect(same.json().data).toMatchObject({ identical: true, added: 0, removed: 0, hunks: [] });
  });

  it('records a failed backup (wrong password) with its reason and keeps the last good version downloadable', async () => {
    router.fail = '401';
    const failed = await backUp(deviceId);
    expect(failed).toMatchObject({ status: 'failed', backup_id: null });
    expect(failed.error).toBe('The router rejected the user name or password (401 Unauthorized).');
    router.fail = null;

    const list = await versions(deviceId);
    expect(list.map((v) => v.version)).toEqual([2, 1]);
    const download = await call('GET', `/devices/${deviceId}/backups/${list[0].id}/download`, 'admin');
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(router.exportText);

    const jobs = await call('GET', `/devices/${deviceId}/backup-jobs?status=failed`, 'admin');
    expect(jobs.json().data.items).toHaveLength(1);
    expect(jobs.json().data.items[0]).toMatchObject({ id: failed.id, error: failed.error });
  });

  it('records a router that never answers as a timeout at its 0.5 s limit, and the configuration view answers 502', async () => {
    router.fail = 'timeout';
    const started = Date.now();
    const failed = await backUp(deviceId);
    // Well under the 10 s default: the device's own short timeout applied, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/did not answer within 0\.5 s/);

    const view = await call('GET', `/devices/${deviceId}/config`, 'admin');
    expect(view.statusCode).toBe(502);
    expect(view.json()).toMatchObject({
      success: false,
      message: expect.stringMatching(/did not answer within 0\.5 s/),
    });
    router.fail = null;

    expect((await versions(deviceId)).map((v) => v.version)).toEqual([2, 1]);
    const failures = await call('GET', `/devices/${deviceId}/backup-jobs?status=failed`, 'admin');
    expect(failures.json().data.pagination.total).toBe(3);
  });

  it('backs up each RouterOS device once a day on schedule, and retries a failed one after an hour', async () => {
    const scheduler = t.app.deviceBackups.scheduler;
    // Manual runs of core-router-1 happened just now; the TLS router has never been backed up.
    let queued = await scheduler.tick();
    expect(queued).toEqual([tlsDeviceId]);
    await t.app.jobs.idle();
    expect((await versions(tlsDeviceId))[0]).toMatchObject({ version: 1, trigger: 'scheduled', created_by: null });
    expect(await scheduler.tick()).toEqual([]);

    t.clock.advanceHours(23);
    expect(await scheduler.tick()).toEqual([]);
    tlsRouter.fail = '500';
    t.clock.advanceHours(1);
    queued = await scheduler.tick();
    expect(queued.sort()).toEqual([deviceId, tlsDeviceId].sort());
    await t.app.jobs.idle();
    await signInAgain();
    // core-router-1 unchanged since version 2; the TLS router failed and is tried again an hour later.
    expect((await versions(deviceId)).map((v) => v.version)).toEqual([2, 1]);
    tlsRouter.fail = null;
    t.clock.advanceMinutes(30);
    expect(await scheduler.tick()).toEqual([]);
    t.clock.advanceMinutes(30);
    expect(await scheduler.tick()).toEqual([tlsDeviceId]);
    await t.app.jobs.idle();
    await signInAgain();
    const tlsJobs = (await call('GET', `/devices/${tlsDeviceId}/backup-jobs?kind=backup`, 'admin')).json().data
      .items as DeviceJob[];
    expect(tlsJobs.map((j) => j.status)).toEqual(['unchanged', 'failed', 'succeeded']);
    expect(tlsJobs[1].error).toContain('500 Internal Server Error');
  });

  it.each(['technician', 'support', 'billing', 'user'] as Role[])(
    'keeps %s out of configuration and backups',
    async (role) => {
      const [v] = await versions(deviceId);
      for (const [method, url] of [
        ['GET', `/devices/${deviceId}/config`],
        ['POST', `/devices/${deviceId}/backups`],
        ['GET', `/devices/${deviceId}/backups`],
        ['GET', `/devices/${deviceId}/backups/${v.id}`],
        ['GET', `/devices/${deviceId}/backups/${v.id}/download`],
        ['GET', `/devices/${deviceId}/backups/diff?from=${v.id}&to=${v.id}`],
      ] as const) {
        const res = await call(method, url, role);
        expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
        expect(res.body).not.toContain('RadiusShared123');
      }
    },
  );

  it('lets super_admin in like admin', async () => {
    expect((await call('GET', `/devices/${deviceId}/backups`, 'super_admin')).statusCode).toBe(200);
  });
});
