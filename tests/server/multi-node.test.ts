/**
 * Issue 14, several nodes on one PostgreSQL (first part): two portal apps, each with its own connection pool,
 * listener and RADIUS server, on one database. A change committed through A reaches B through LISTEN/NOTIFY:
 * the settings B serves within 1 s, B's RADIUS directory before its next answer (a suspension refused, a plan's
 * new rate sent), B's NAS list. Readiness reports the listener. PostgreSQL only: skipped in the PGlite run.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openDatabase, type Database, type Db } from '../../server/db/client';
import { ManualClock } from '../../server/lib/clock';
import { RESYNC } from '../../server/lib/change-bus';
import { hashPassword } from '../../server/lib/passwords';
import { provisionCredentials } from '../../server/modules/radius/credentials';
import { activateForPaidInvoice } from '../../server/modules/subscriptions/service';
import { createUserRepository } from '../../server/modules/users/repository';
import { ensureRadclient, radclient } from '../helpers/radclient';
import { rowsOf } from '../helpers/audit';
import { bearer, createThrowawayPostgres, testConfig, TEST_PASSWORD } from '../helpers/server';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const SECRET = 'multi-node-nas-secret';
type App = Awaited<ReturnType<typeof buildApp>>;

describe.skipIf(!ADMIN_URL)('two nodes on one PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  const databases: Database[] = [];
  let a: App;
  let b: App;
  let token: string;

  async function node(): Promise<App> {
    const database = await openDatabase({ databaseUrl: url });
    databases.push(database);
    return buildApp({
      config: testConfig({
        databaseUrl: url,
        radiusEnabled: true,
        radiusHost: '127.0.0.1',
        radiusAuthPort: 0,
        radiusAcctPort: 0,
        radiusDisconnectTimeoutMs: 300,
      }),
      database,
      clock: new ManualClock(new Date()),
      logger: false,
      mailer: null,
    });
  }

  beforeAll(async () => {
    ensureRadclient();
    ({ url, drop } = await createThrowawayPostgres(ADMIN_URL!));
    a = await node();
    b = await node();
    await createUserRepository(a.db).insert({
      name: 'Admin',
      email: 'admin@example.com',
      passwordHash: await hashPassword(TEST_PASSWORD),
      role: 'admin',
      status: 'active',
      isVerified: true,
      emailVerifiedAt: new Date(),
    });
    // Signed in through A, the token works on B (same secrets).
    const login = await a.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@example.com', password: TEST_PASSWORD, rememberMe: false },
    });
    expect(login.statusCode, login.body).toBe(200);
    token = login.json().data.tokens.access.token;
  }, 90_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const d of databases) await d.close().catch(() => {});
    await drop?.();
  });

  const api = (app: App, method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, payload?: object) =>
    app.inject({ method, url: `/api${path}`, headers: bearer(token), payload });

  it('both nodes are ready: database, migrations and the change listener', async () => {
    for (const app of [a, b]) {
      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode, ready.body).toBe(200);
      expect(ready.json().data).toEqual({
        status: 'ready',
        checks: { database: true, migrations: true, changes: true },
      });
      expect((await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    }
  });

  it('orders for one customer sent to both nodes at once (issue 31): one pending order and one invoice; the rest are refused naming it', async () => {
    const customer = await createUserRepository(a.db).insert({
      name: 'Two-node Customer',
      email: 'twonode@example.com',
      passwordHash: 'x',
      role: 'user',
      status: 'active',
      isVerified: true,
    });
    const plan = (
      await api(a, 'POST', '/plans', {
        name: 'Two-node Plan',
        price: 2500,
        download_mbps: 50,
        upload_mbps: 10,
        billing_cycle: 'monthly',
      })
    ).json().data;
    // Staff order for the customer through either node (the customer's own token would work on both too).
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(i % 2 ? b : a, 'POST', '/subscriptions', { plan_id: plan.id, user_id: customer.id }),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(
      codes.filter((c) => c === 201),
      answers.map((r) => r.body).join('\n'),
    ).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    const number = answers.find((r) => r.statusCode === 201)!.json().data.invoice.number;
    for (const r of answers.filter((x) => x.statusCode === 409))
      expect(r.json().message).toBe(
        `You already have an order waiting: Two-node Plan (invoice ${number}). Pay or cancel it before ordering again`,
      );
    const [counts] = rowsOf<{ subs: number; invoices: number }>(
      await a.db.execute(
        sql`select (select count(*)::int from subscriptions where user_id = ${customer.id}) as subs, (select count(*)::int from invoices where user_id = ${customer.id}) as invoices`,
      ),
    );
    expect(counts).toEqual({ subs: 1, invoices: 1 });
  });

  it("each node's system page lists both nodes, responding, and marks itself as the one answering", async () => {
    const ids: string[] = [];
    for (const app of [a, b]) {
      const res = await api(app, 'GET', '/system');
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data.nodes).toHaveLength(2);
      expect(data.nodes.every((n: { responding: boolean }) => n.responding)).toBe(true);
      expect(data.nodes.filter((n: { current: boolean }) => n.current).map((n: { id: string }) => n.id)).toEqual([
        data.node.id,
      ]);
      ids.push(data.node.id);
    }
    expect(new Set(ids).size).toBe(2);
  });

  it('a settings change made through A is served by B within a second', async () => {
    // B has the settings cached.
    expect((await b.inject({ method: 'GET', url: '/api/settings/public' })).json().data.company.name).not.toBe(
      'Node A Networks',
    );
    const changed = await api(a, 'PUT', '/settings', { company: { name: 'Node A Networks' } });
    expect(changed.statusCode, changed.body).toBe(200);
    const started = Date.now();
    await expect
      .poll(async () => (await b.inject({ method: 'GET', url: '/api/settings/public' })).json().data.company.name, {
        timeout: 1000,
        interval: 25,
      })
      .toBe('Node A Networks');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a user suspended through A is refused by B (which had them cached) within a second', async () => {
    const user = await createUserRepository(a.db).insert({
      name: 'Cached Customer',
      email: 'cached@example.com',
      passwordHash: await hashPassword(TEST_PASSWORD),
      role: 'user',
      status: 'active',
      isVerified: true,
    });
    const login = await b.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'cached@example.com', password: TEST_PASSWORD, rememberMe: false },
    });
    const customer = login.json().data.tokens.access.token;
    const profileAtB = async () =>
      (await b.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(customer) })).statusCode;
    expect(await profileAtB()).toBe(200);
    expect(await profileAtB()).toBe(200);
    expect((await api(a, 'PATCH', `/users/${user.id}/status`, { status: 'suspended' })).statusCode).toBe(200);
    const started = Date.now();
    await expect.poll(profileAtB, { timeout: 1000, interval: 20 }).toBe(403);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  let nas: Promise<void> | undefined;
  /** The NAS (127.0.0.1 with SECRET), added once through A. */
  const ensureNas = () =>
    (nas ??= (async () => {
      const created = await api(a, 'POST', '/devices', {
        name: 'Edge router',
        vendor: 'mikrotik',
        host: '127.0.0.1',
        snmp_community: 'public',
        radius_secret: SECRET,
      });
      expect(created.statusCode, created.body).toBe(201);
    })());

  /** A customer with an active subscription (first invoice paid) and PPPoE credentials, made through A. */
  async function customerWithService(email: string, downloadMbps = 30) {
    await ensureNas();
    const user = await createUserRepository(a.db).insert({
      name: 'Customer',
      email,
      passwordHash: 'x',
      role: 'user',
      status: 'active',
      isVerified: true,
    });
    const plan = (
      await api(a, 'POST', '/plans', {
        name: `Plan ${email}`,
        price: 1000,
        download_mbps: downloadMbps,
        upload_mbps: 6,
        billing_cycle: 'monthly',
      })
    ).json().data;
    const { subscription, invoice } = (
      await api(a, 'POST', '/subscriptions', { plan_id: plan.id, user_id: user.id })
    ).json().data;
    const credentials = await provisionCredentials(a.db, subscription.id, a.secretBox);
    await a.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await tx.execute(sql`update invoices set status = 'paid', paid_date = now() where id = ${invoice.id}`);
      await activateForPaidInvoice(tx, invoice.id);
    });
    return { plan, subscription, credentials };
  }

  it("a suspension made through A is refused by B's RADIUS on its next request, and a plan's new rate reaches B", async () => {
    const { plan, subscription, credentials } = await customerWithService('c@example.com');
    const portB = b.radius.ports()!.authPort;
    const loginAtB = () =>
      radclient(
        { port: portB, secret: SECRET, type: 'auth' },
        { 'User-Name': credentials.username, 'User-Password': credentials.password! },
      );

    // B learns the NAS added through A (no periodic reload needed) and lets the customer in.
    await expect.poll(async () => (await loginAtB()).code, { timeout: 5_000, interval: 200 }).toBe('Access-Accept');
    const accepted = await loginAtB();
    expect(accepted.attributes['Mikrotik-Rate-Limit']).toBe('6M/30M');
    expect(b.radius.subscribers.bySubscription(subscription.id)?.status).toBe('active');

    // Suspended through A: once B has heard (within a second), its very next answer is a reject.
    expect(
      (
        await api(a, 'PATCH', `/subscriptions/${subscription.id}/status`, {
          status: 'suspended',
          suspension_reason: 'Overdue',
        })
      ).statusCode,
    ).toBe(200);
    await expect
      .poll(() => b.radius.subscribers.bySubscription(subscription.id)?.status, { timeout: 1000, interval: 20 })
      .toBe('suspended');
    expect((await loginAtB()).code).toBe('Access-Reject');

    // Reactivated and the plan made faster through A: B answers with the new rate.
    expect((await api(a, 'PATCH', `/subscriptions/${subscription.id}/status`, { status: 'active' })).statusCode).toBe(
      200,
    );
    expect((await api(a, 'PUT', `/plans/${plan.id}`, { download_mbps: 100, upload_mbps: 20 })).statusCode).toBe(200);
    await expect
      .poll(() => b.radius.subscribers.bySubscription(subscription.id)?.downloadMbps, { timeout: 1000, interval: 20 })
      .toBe(100);
    const faster = await loginAtB();
    expect(faster.code).toBe('Access-Accept');
    expect(faster.attributes['Mikrotik-Rate-Limit']).toBe('20M/100M');
  });

  it('a listener whose connection is cut reconnects, reads everything again, and hears the next change', async () => {
    let resyncs = 0;
    const stop = b.changes.subscribe(RESYNC, () => {
      resyncs++;
    });
    try {
      // The database ends every listening session (as a restart or a network cut would).
      await a.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`,
      );
      await expect.poll(() => resyncs, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
      expect(b.changes.connected).toBe(true);
      expect((await b.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
      expect((await api(a, 'PUT', '/settings', { company: { name: 'After The Cut' } })).statusCode).toBe(200);
      await expect
        .poll(async () => (await b.inject({ method: 'GET', url: '/api/settings/public' })).json().data.company.name, {
          timeout: 1000,
          interval: 25,
        })
        .toBe('After The Cut');
    } finally {
      stop();
    }
  });
  it('a NAS failing over from A to B mid-session: both answer alike, and the session is counted once', async () => {
    const { subscription, credentials } = await customerWithService('failover@example.com', 50);
    const auth = (app: App) =>
      radclient(
        { port: app.radius.ports()!.authPort, secret: SECRET, type: 'auth' },
        { 'User-Name': credentials.username, 'User-Password': credentials.password! },
      );
    const account = (app: App, attributes: Record<string, string | number>) =>
      radclient(
        { port: app.radius.ports()!.acctPort, secret: SECRET, type: 'acct' },
        { 'User-Name': credentials.username, 'Acct-Session-Id': 'failover-1', ...attributes },
      );
    const session = async () =>
      rowsOf(
        await a.db.execute(
          sql`select status, input_octets::int as input_octets, output_octets::int as output_octets, session_time::int as session_time, terminate_cause from radius_sessions where acct_session_id = 'failover-1'`,
        ),
      );
    const usage = async () =>
      rowsOf(
        await a.db.execute(
          sql`select sum(input_octets)::int as i, sum(output_octets)::int as o from radius_usage_daily where subscription_id = ${subscription.id}`,
        ),
      )[0];

    // The same request to either server gets the same answer (both NAS entries of a real router point at them).
    await expect.poll(async () => (await auth(b)).code, { timeout: 5_000, interval: 200 }).toBe('Access-Accept');
    const [atA, atB] = [await auth(a), await auth(b)];
    expect(atA.code).toBe('Access-Accept');
    expect({ ...atA.attributes, 'Session-Timeout': undefined }).toEqual({
      ...atB.attributes,
      'Session-Timeout': undefined,
    });
    expect(atA.attributes['Mikrotik-Rate-Limit']).toBe('6M/50M');

    // Start on A; A stops answering, so the NAS sends the interim to B; A's late copy of it arrives after.
    expect((await account(a, { 'Acct-Status-Type': 'Start' })).code).toBe('Accounting-Response');
    const interim = {
      'Acct-Status-Type': 'Interim-Update',
      'Acct-Session-Time': 300,
      'Acct-Input-Octets': 4000,
      'Acct-Output-Octets': 9000,
    };
    expect((await account(b, interim)).code).toBe('Accounting-Response');
    expect((await account(a, interim)).code).toBe('Accounting-Response');
    expect(await session()).toEqual([
      { status: 'open', input_octets: 4000, output_octets: 9000, session_time: 300, terminate_cause: null },
    ]);

    // The Stop goes to B and is retransmitted to A: one closed session, its traffic counted once.
    const stop = {
      'Acct-Status-Type': 'Stop',
      'Acct-Session-Time': 600,
      'Acct-Input-Octets': 7000,
      'Acct-Output-Octets': 20000,
      'Acct-Terminate-Cause': 'Lost-Carrier',
    };
    expect((await account(b, stop)).code).toBe('Accounting-Response');
    expect((await account(a, stop)).code).toBe('Accounting-Response');
    expect(await session()).toEqual([
      {
        status: 'closed',
        input_octets: 7000,
        output_octets: 20000,
        session_time: 600,
        terminate_cause: 'Lost-Carrier',
      },
    ]);
    expect(await usage()).toEqual({ i: 7000, o: 20000 });
  });
});
