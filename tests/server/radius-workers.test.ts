/**
 * RADIUS_WORKERS with PostgreSQL: worker processes share the RADIUS ports and answer from their own subscriber
 * directories, which the app keeps current (a suspension made through the API is refused by every worker at
 * once), and their accounting lands in the shared database. PostgreSQL only (PGlite is one process's): skipped
 * in the PGlite run.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openDatabase, type Database, type Db } from '../../server/db/client';
import { devices, radiusSessions, subscriptions } from '../../server/db/schema';
import { ManualClock } from '../../server/lib/clock';
import { hashPassword } from '../../server/lib/passwords';
import { provisionCredentials } from '../../server/modules/radius/credentials';
import { activateForPaidInvoice } from '../../server/modules/subscriptions/service';
import { createUserRepository } from '../../server/modules/users/repository';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { bearer, createThrowawayPostgres, testConfig, TEST_PASSWORD } from '../helpers/server';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const SECRET = 'workers-nas-secret';

describe.skipIf(!ADMIN_URL)('RADIUS worker processes (PostgreSQL)', () => {
  let drop: () => Promise<void>;
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let ports: { authPort: number; acctPort: number };
  let admin: string;

  beforeAll(async () => {
    ensureRadclient();
    const throwaway = await createThrowawayPostgres(ADMIN_URL!);
    drop = throwaway.drop;
    database = await openDatabase({ databaseUrl: throwaway.url });
    app = await buildApp({
      config: testConfig({
        databaseUrl: throwaway.url,
        radiusEnabled: true,
        radiusHost: '127.0.0.1',
        radiusAuthPort: 0,
        radiusAcctPort: 0,
        radiusWorkers: 2,
        radiusDisconnectTimeoutMs: 300,
      }),
      database,
      clock: new ManualClock(new Date()),
      logger: false,
      mailer: null,
    });
    ports = app.radius.ports()!;
    const users = createUserRepository(database.db);
    await users.insert({
      name: 'Admin',
      email: 'admin@example.com',
      passwordHash: await hashPassword(TEST_PASSWORD),
      role: 'admin',
      status: 'active',
      isVerified: true,
      emailVerifiedAt: new Date(),
    });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@example.com', password: TEST_PASSWORD, rememberMe: false },
    });
    expect(login.statusCode, login.body).toBe(200);
    admin = login.json().data.tokens.access.token;
    await database.db
      .insert(devices)
      .values({ name: 'nas', vendor: 'mikrotik', host: '127.0.0.1', radiusSecret: app.secretBox.seal(SECRET) });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.close().catch(() => {});
    await drop?.();
  });

  const api = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    app.inject({ method, url: `/api${url}`, headers: bearer(admin), payload });

  it('two workers answer logins and accounting; a suspension through the API is refused by all of them at once', async () => {
    const users = createUserRepository(database.db);
    const user = await users.insert({
      name: 'Customer',
      email: 'c@example.com',
      passwordHash: 'x',
      role: 'user',
      status: 'active',
      isVerified: true,
    });
    const plan = (
      await api('POST', '/plans', {
        name: 'Basic',
        price: 1000,
        download_mbps: 30,
        upload_mbps: 6,
        billing_cycle: 'monthly',
      })
    ).json().data;
    const { subscription, invoice } = (
      await api('POST', '/subscriptions', { plan_id: plan.id, user_id: user.id })
    ).json().data;
    const credentials = await provisionCredentials(database.db, subscription.id, app.secretBox);
    await database.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await tx.execute(sql`update invoices set status = 'paid', paid_date = now() where id = ${invoice.id}`);
      await activateForPaidInvoice(tx, invoice.id);
    });
    const login = () =>
      radclient(
        { port: ports.authPort, secret: SECRET, type: 'auth' },
        { 'User-Name': credentials.username, 'User-Password': credentials.password! },
      );

    // Each radclient run is a new source port: over several, both workers get some.
    for (let i = 0; i < 4; i++) {
      const answer = await login();
      expect(answer.code, answer.output).toBe('Access-Accept');
      expect(answer.attributes['Mikrotik-Rate-Limit']).toBe('6M/30M');
    }
    const acct = await radclient(
      { port: ports.acctPort, secret: SECRET, type: 'acct' },
      {
        'User-Name': credentials.username,
        'Acct-Session-Id': 'wk-1',
        'Acct-Status-Type': 'Interim-Update',
        'Acct-Session-Time': 60,
        'Acct-Output-Octets': 5000,
        'Acct-Output-Gigawords': 1,
      },
    );
    expect(acct.code).toBe('Accounting-Response');
    const [row] = await database.db.select().from(radiusSessions).where(eq(radiusSessions.acctSessionId, 'wk-1'));
    expect(row).toMatchObject({ subscriptionId: subscription.id, outputOctets: 2 ** 32 + 5000, status: 'open' });

    const suspended = await api('PATCH', `/subscriptions/${subscription.id}/status`, {
      status: 'suspended',
      suspension_reason: 'Overdue invoice',
    });
    expect(suspended.statusCode).toBe(200);
    await app.radius.idle();
    // The workers re-read the subscription when told; give the IPC message a moment to arrive.
    await expect.poll(async () => (await login()).code, { timeout: 5_000, interval: 100 }).toBe('Access-Reject');
    for (let i = 0; i < 4; i++) expect((await login()).code).toBe('Access-Reject');
  });

  it("the requests the workers answered are counted by the app: its metrics and the system page's last hour", async () => {
    // The test above: 4 accepted logins, at least 5 refused ones, one accounting request, all answered by workers
    // (the app itself has no RADIUS socket); each worker reports what it answered to the app once a second.
    const lastHour = async () => {
      const res = await app.inject({ method: 'GET', url: '/api/system', headers: bearer(admin) });
      expect(res.statusCode, res.body).toBe(200);
      const rows = res.json().data.radius.last_hour as Array<{ type: string; result: string; n: number }>;
      return Object.fromEntries(rows.map((r) => [`${r.type} ${r.result}`, r.n]));
    };
    // (A login polled while a worker had not re-read the suspension yet may have been accepted: at least 4.)
    const complete = (c: Record<string, number>) =>
      (c['access accept'] ?? 0) >= 4 && (c['access reject'] ?? 0) >= 5 && c['accounting answered'] === 1;
    await expect.poll(async () => complete(await lastHour()), { timeout: 5_000, interval: 250 }).toBe(true);
    const counts = await lastHour();
    const metric = await app.metrics.getSingleMetricAsString('isp_radius_requests_total');
    expect(metric).toContain(`isp_radius_requests_total{type="access",result="accept"} ${counts['access accept']}`);
    expect(metric).toContain(`isp_radius_requests_total{type="access",result="reject"} ${counts['access reject']}`);
    expect(metric).toContain('isp_radius_requests_total{type="accounting",result="answered"} 1');
  });

  it('a data line (issue 31) whose allowance a worker sees used is ended, and every worker refuses its next login', async () => {
    const users = createUserRepository(database.db);
    const user = await users.insert({
      name: 'Bundle',
      email: 'bundle@example.com',
      passwordHash: 'x',
      role: 'user',
      status: 'active',
      isVerified: true,
    });
    const plan = (
      await api('POST', '/plans', {
        name: 'Bundle',
        price: 500,
        download_mbps: 20,
        upload_mbps: 5,
        billing_cycle: 'monthly',
      })
    ).json().data;
    const { subscription, invoice } = (
      await api('POST', '/subscriptions', { plan_id: plan.id, user_id: user.id })
    ).json().data;
    await database.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await tx.execute(sql`update invoices set status = 'paid', paid_date = now() where id = ${invoice.id}`);
      await activateForPaidInvoice(tx, invoice.id);
      // As a data voucher leaves it: 1 MB, no time limit.
      await tx.execute(
        sql`update subscriptions set data_allowance_bytes = 1000000, current_period_end = null where id = ${subscription.id}`,
      );
    });
    const credentials = await provisionCredentials(database.db, subscription.id, app.secretBox);
    const login = () =>
      radclient(
        { port: ports.authPort, secret: SECRET, type: 'auth' },
        { 'User-Name': credentials.username, 'User-Password': credentials.password! },
      );
    for (let i = 0; i < 4; i++) expect((await login()).code).toBe('Access-Accept');
    const interim = (octets: number) =>
      radclient(
        { port: ports.acctPort, secret: SECRET, type: 'acct' },
        {
          'User-Name': credentials.username,
          'Acct-Session-Id': 'wk-bundle',
          'Acct-Status-Type': 'Interim-Update',
          'Acct-Session-Time': 60,
          'Acct-Input-Octets': octets,
        },
      );
    expect((await interim(600_000)).code).toBe('Accounting-Response');
    expect((await interim(1_100_000)).code).toBe('Accounting-Response');
    const line = async () =>
      (
        await database.db
          .select({ status: subscriptions.status, used: subscriptions.dataUsedBytes })
          .from(subscriptions)
          .where(eq(subscriptions.id, subscription.id))
      )[0]!;
    await expect.poll(async () => (await line()).status, { timeout: 5_000, interval: 100 }).toBe('expired');
    expect((await line()).used).toBe(1_100_000);
    await expect.poll(async () => (await login()).code, { timeout: 5_000, interval: 100 }).toBe('Access-Reject');
    for (let i = 0; i < 4; i++) expect((await login()).code).toBe('Access-Reject');
  });
});
