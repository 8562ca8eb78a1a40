/**
 * Issue 18, the admin system page's API (GET /api/system): version, this node and its uptime, the database
 * (kind, size, migrations), the node list from the heartbeats, and the shared figures (jobs, mail backlog, RADIUS
 * requests of the last hour, open sessions, billing run, backups), which must be the numbers /metrics shows.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalNodes } from '../../server/db/schema';
import { systemClock } from '../../server/lib/clock';
import { NodeHeartbeat } from '../../server/modules/system/nodes';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { bearer, createTestApp, signInEveryRole, type CallAs, type TestApp } from '../helpers/server';

const TOKEN = 'system-metrics-token-0123456789';
const SECRET = 'system-nas-secret';
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const JOURNAL = JSON.parse(
  readFileSync(new URL('../../server/db/migrations/meta/_journal.json', import.meta.url), 'utf8'),
) as { entries: Array<{ tag: string }> };

let t: TestApp;
let as: CallAs;
let dataDir: string;
beforeAll(async () => {
  ensureRadclient();
  dataDir = mkdtempSync(join(tmpdir(), 'isp-system-'));
  t = await createTestApp({
    config: {
      dataDir,
      metricsToken: TOKEN,
      radiusEnabled: true,
      radiusHost: '127.0.0.1',
      radiusAuthPort: 0,
      radiusAcctPort: 0,
      accessTokenTtlSeconds: 86_400,
    },
  });
  as = await signInEveryRole(t);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const status = async () => {
  const res = await as('GET', '/system', 'admin');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ success: true, message: 'System status retrieved successfully' });
  return res.json().data;
};
const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) })).body;
/** The value of a sample line of the scrape, or 0 when absent. */
const value = (text: string, sample: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line ? Number(line.slice(sample.length + 1)) : 0;
};

describe('GET /api/system', () => {
  it('is for admins only', async () => {
    expect((await as('GET', '/system', undefined)).statusCode).toBe(401);
    for (const role of ['user', 'support', 'billing', 'technician'] as const)
      expect((await as('GET', '/system', role)).statusCode, role).toBe(403);
    expect((await as('GET', '/system', 'super_admin')).statusCode).toBe(200);
  });

  it('tells the version, this node, the database with its migrations, and lists this node as responding', async () => {
    const data = await status();
    expect(data.version).toBe(VERSION);
    expect(data.node).toMatchObject({ pid: process.pid, node_version: process.version });
    expect(data.node.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(data.database.kind).toBe(t.database.kind);
    expect(data.database.size_bytes).toBeGreaterThan(1_000_000);
    expect(data.database.migrations).toEqual({
      applied: JOURNAL.entries.length,
      known: JOURNAL.entries.length,
      latest: JOURNAL.entries.at(-1)!.tag,
    });
    const self = data.nodes.find((n: { current: boolean }) => n.current);
    expect(self).toMatchObject({ id: data.node.id, pid: process.pid, version: VERSION, responding: true });
    expect(data.radius.enabled).toBe(true);
  });

  it('a node whose heartbeats stopped shows as not responding; a node that stops cleanly leaves the list', async () => {
    const other = new NodeHeartbeat({
      db: t.database.db,
      clock: systemClock,
      everySeconds: 60,
      onError: (e) => {
        throw e;
      },
    });
    await other.start();
    expect((await status()).nodes.find((n: { id: string }) => n.id === other.self.id)).toMatchObject({
      responding: true,
      current: false,
    });
    // Silent for longer than three beats (NODE_HEARTBEAT_SECONDS is 15 by default): as if it had died.
    const { eq } = await import('drizzle-orm');
    await t.database.db
      .update(portalNodes)
      .set({ lastSeenAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(portalNodes.id, other.self.id));
    const data = await status();
    expect(data.nodes.find((n: { id: string }) => n.id === other.self.id)).toMatchObject({ responding: false });
    const text = await scrape();
    expect(value(text, 'isp_nodes{responding="false"}')).toBe(1);
    expect(value(text, 'isp_nodes{responding="true"}')).toBe(
      data.nodes.filter((n: { responding: boolean }) => n.responding).length,
    );
    await other.stop();
    expect((await status()).nodes.map((n: { id: string }) => n.id)).not.toContain(other.self.id);
  });

  it('shows the RADIUS requests of the last hour, the mail backlog, the job queue and the backups with the same numbers as /metrics', async () => {
    const admin = (await t.login('admin@example.com')).token;
    await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: bearer(admin),
      payload: { name: 'Edge', vendor: 'mikrotik', host: '127.0.0.1', snmp_community: 'public', radius_secret: SECRET },
    });
    await t.app.radius.clients.reload();
    const port = t.app.radius.ports()!.authPort;
    for (let i = 0; i < 3; i++)
      expect(
        (await radclient({ port, secret: SECRET, type: 'auth' }, { 'User-Name': 'nobody', 'User-Password': 'wrong' }))
          .code,
      ).toBe('Access-Reject');

    // An e-mail through the queue, and a database backup taken by an admin.
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'user@example.com' } });
    await t.app.mail.idle();
    const backup = await as('POST', '/backups', 'admin');
    expect(backup.statusCode, backup.body).toBe(201);

    const data = await status();
    const radius = Object.fromEntries(
      data.radius.last_hour.map((r: { type: string; result: string; n: number }) => [`${r.type} ${r.result}`, r.n]),
    );
    expect(radius['access reject']).toBe(3);
    expect(data.radius.sessions_open).toBe(0);
    expect(data.mail).toEqual({ queued: 0, failed: 0 });
    expect(data.jobs.by_state).toContainEqual({ queue: 'mail-delivery', state: 'completed', n: expect.any(Number) });
    expect(data.backups).toMatchObject({
      kept: 1,
      last_failure: null,
      last_at: backup.json().data.created_at,
      last_size_bytes: backup.json().data.size,
    });
    expect(data.billing.last_run_at).toBeNull();

    const text = await scrape();
    expect(value(text, 'isp_radius_requests_last_hour{type="access",result="reject"}')).toBe(3);
    expect(value(text, 'isp_radius_requests_total{type="access",result="reject"}')).toBe(3);
    expect(value(text, 'isp_radius_sessions_open')).toBe(data.radius.sessions_open);
    expect(value(text, 'isp_mail_outbox_backlog{status="queued"}')).toBe(data.mail.queued);
    for (const row of data.jobs.by_state)
      expect(value(text, `isp_jobs{queue="${row.queue}",state="${row.state}"}`), `${row.queue} ${row.state}`).toBe(
        row.n,
      );
    expect(value(text, 'isp_backup_last_success_timestamp_seconds')).toBe(Date.parse(data.backups.last_at) / 1000);
    expect(value(text, 'isp_backup_failing')).toBe(0);
  });

  it('shows the last billing run and how long it took', async () => {
    const run = await as('POST', '/billing/run', 'admin');
    expect(run.statusCode, run.body).toBe(200);
    const data = await status();
    expect(data.billing.last_run_at).not.toBeNull();
    expect(data.billing.last_run_seconds).toBeGreaterThanOrEqual(0);
    expect(value(await scrape(), 'isp_billing_last_run_timestamp_seconds')).toBe(
      Date.parse(data.billing.last_run_at) / 1000,
    );
  });
});
