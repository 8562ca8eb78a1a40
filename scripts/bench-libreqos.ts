/**
 * `npm run bench:libreqos`: the LibreQoS shaper export (issue 36) for 10 000 subscribers against its target of 30 s.
 * Builds the app in-process on a fresh embedded database (the default deployment; `--postgres` uses a throwaway
 * database on BENCH_DATABASE_URL's server instead), seeds 10 000 customers with active subscriptions, PPPoE logins,
 * 7 000 static IPv4 addresses, 3 000 open sessions with pool addresses, an IPv6 prefix each and 20 NAS devices on
 * 5 sites, then times, as the admin through the whole Fastify pipeline (app.inject): GET
 * /api/exports/libreqos/shaped-devices.csv, GET /api/exports/libreqos/network.json, and the scheduled writer's run
 * (both files into a temporary folder). A bare baseline in the same run: one plain SELECT of the same subscriptions
 * with their customer and plan. Exits 0 when every export is under the target (`--target=s`), 1 naming the missed
 * ones (or on an error). Not part of `npm test` or CI.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase, rowsOf } from '../server/db/client';
import { hashPassword } from '../server/lib/passwords';
import { BENCH_ADMIN_URL } from './bench-common';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const TARGET_S = Number(arg('target') ?? 30);
const SUBSCRIBERS = Number(arg('subscribers') ?? 10_000);
const ADMIN = { email: 'bench-libreqos@example.com', password: 'Bench-Libreqos-9' };

async function timed<T>(run: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { seconds: (performance.now() - started) / 1000, value };
}

async function throwawayPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `isp_bench_libreqos_${process.pid}`;
  const admin = new pg.Client({ connectionString: BENCH_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BENCH_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: BENCH_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function main(): Promise<void> {
  const postgres = process.argv.includes('--postgres') ? await throwawayPostgres() : null;
  const dataDir = await mkdtemp(join(tmpdir(), 'isp-bench-libreqos-'));
  // Only the benchmark's own work: no schedulers (modules read these from the environment).
  Object.assign(process.env, {
    BILLING_SCHEDULER: 'false',
    BACKUP_SCHEDULER: 'false',
    DEVICE_POLLER: 'false',
    DEVICE_BACKUP_SCHEDULER: 'false',
  });
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    JWT_SECRET: 'bench-jwt-secret-0123456789abcdefghijklmnop',
    COOKIE_SECRET: 'bench-cookie-secret-0123456789abcdefghijklm',
    SECRETS_KEY: 'bench-secrets-key-0123456789abcdefghijklmnop',
    APP_URL: 'http://127.0.0.1',
    SERVE_SPA: 'false',
    SEED_DEMO: 'false',
  });
  const database = await openDatabase(postgres ? { databaseUrl: postgres.url } : { pgliteDir: null });
  await database.migrate();
  const app = await buildApp({ config, database, logger: false, mailer: null });
  const missed: string[] = [];
  try {
    await app.ready();
    const db = app.db;
    const seeded = await timed(async () => {
      const hash = await hashPassword(ADMIN.password);
      await db.execute(sql`insert into users (name, email, password_hash, role, status, is_verified)
        values ('Bench Admin', ${ADMIN.email}, ${hash}, 'admin', 'active', true)`);
      await db.execute(sql`insert into plans (name, slug, download_mbps, upload_mbps, price, currency, billing_cycle)
        values ('Air 25', 'air-25', 25, 5, 2000, 'USD', 'monthly'), ('Fiber 100', 'fiber-100', 100, 20, 4000, 'USD', 'monthly'),
               ('Fiber 500', 'fiber-500', 500, 100, 6000, 'USD', 'monthly'), ('Fiber 1000', 'fiber-1000', 1000, 500, 9000, 'USD', 'monthly')`);
      const secret = app.secretBox.seal('bench-nas-secret');
      await db.execute(sql`insert into devices (name, host, location, radius_secret)
        select 'bng-' || g, '10.255.0.' || g, 'Site ' || (g % 5), ${secret} from generate_series(1, 20) g`);
      // Names with a comma and quotes, so the export quotes every one of them.
      await db.execute(sql`insert into users (name, email, password_hash, is_verified)
        select 'Customer ' || g || ', "Bench"', 'c' || g || '@bench.example', 'x', true from generate_series(1, ${SUBSCRIBERS}) g`);
      await db.execute(sql`insert into subscriptions (user_id, plan_id, status, current_period_start, current_period_end)
        select u.id, p.id, 'active', now(), now() + interval '30 days'
        from (select id, (row_number() over (order by email))::int as n from users where email like '%@bench.example') u
        join (select id, (row_number() over (order by slug))::int - 1 as k from plans) p on p.k = u.n % 4`);
      await db.execute(sql`create temporary table bench_subs as
        select s.id, (row_number() over (order by s.id))::int as n from subscriptions s`);
      const sealed = app.secretBox.seal('pppoe-password');
      await db.execute(sql`insert into service_credentials (subscription_id, username, password_sealed)
        select id, 'pppoe-' || n, ${sealed} from bench_subs`);
      // 10.64.0.0/18: 16 384 addresses; the first 70 % of the subscriptions hold a static one.
      const start = 10 * 2 ** 24 + 64 * 2 ** 16;
      const [network] = rowsOf<{ id: string }>(
        await db.execute(sql`insert into ip_networks (name, cidr, family, prefix_length, range_start, range_end, purpose)
          values ('Bench statics', '10.64.0.0/18', 4, 18, ${start}, ${start + 16_383}, 'static') returning id`),
      );
      const statics = Math.floor(SUBSCRIBERS * 0.7);
      await db.execute(sql`insert into ip_assignments (network_id, address, address_num, subscription_id, state)
        select ${network.id}::uuid, '10.64.' || (n / 256) || '.' || (n % 256), ${start} + n, id, 'static'
        from bench_subs where n <= ${statics}`);
      await db.execute(sql`insert into subscription_addressing (subscription_id, framed_ipv6_prefix, delegated_ipv6_prefix)
        select id, case when n % 2 = 0 then '2001:db9:' || to_hex(n) || '::/64' end, '2001:db8:' || to_hex(n) || '::/56'
        from bench_subs`);
      // Every subscription's newest session runs through one of the 20 NAS; the 30 % without a static address are
      // connected now, with a pool address.
      await db.execute(sql`insert into radius_sessions (acct_session_id, nas_device_id, nas_ip, username, subscription_id,
          framed_ip, started_at, updated_at, status)
        select 'bench-' || s.n, d.id, d.host, 'pppoe-' || s.n, s.id,
          case when s.n > ${statics} then '100.64.' || (s.n / 256) || '.' || (s.n % 256) end,
          now() - interval '1 hour', now(), case when s.n > ${statics} then 'open' else 'closed' end
        from bench_subs s
        join (select id, host, (row_number() over (order by name))::int - 1 as k from devices) d on d.k = s.n % 20`);
      await db.execute(sql`drop table bench_subs`);
      await db.execute(sql`analyze`);
    });
    console.log(
      `${postgres ? 'PostgreSQL' : 'embedded database (PGlite)'}: ${SUBSCRIBERS.toLocaleString('en-US')} subscribers seeded in ${seeded.seconds.toFixed(1)} s`,
    );

    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: ADMIN.email, password: ADMIN.password, rememberMe: false },
    });
    if (login.statusCode !== 200) throw new Error(`admin sign-in failed: ${login.statusCode} ${login.body}`);
    const headers = { authorization: `Bearer ${login.json().data.tokens.access.token}` };

    const baseline = await timed(async () =>
      rowsOf(
        await db.execute(sql`select s.id, u.name, u.customer_number, p.name as plan, p.download_mbps, p.upload_mbps
          from subscriptions s join users u on u.id = s.user_id join plans p on p.id = s.plan_id where s.status = 'active'`),
      ),
    );
    const results: Array<{ name: string; seconds: number; detail: string; target: boolean }> = [
      {
        name: 'baseline: one SELECT of the subscriptions',
        seconds: baseline.seconds,
        detail: `${baseline.value.length} rows`,
        target: false,
      },
    ];

    const csv = await timed(() =>
      app.inject({ method: 'GET', url: '/api/exports/libreqos/shaped-devices.csv', headers }),
    );
    if (csv.value.statusCode !== 200) throw new Error(`CSV: ${csv.value.statusCode} ${csv.value.body.slice(0, 300)}`);
    const lines = csv.value.body.split('\r\n').length - 2;
    if (lines !== SUBSCRIBERS) throw new Error(`CSV: ${lines} circuits, expected ${SUBSCRIBERS}`);
    results.push({
      name: 'GET shaped-devices.csv',
      seconds: csv.seconds,
      detail: `${lines} circuits, ${(csv.value.body.length / 1e6).toFixed(1)} MB`,
      target: true,
    });

    const network = await timed(() =>
      app.inject({ method: 'GET', url: '/api/exports/libreqos/network.json', headers }),
    );
    if (network.value.statusCode !== 200) throw new Error(`network.json: ${network.value.statusCode}`);
    results.push({
      name: 'GET network.json',
      seconds: network.seconds,
      detail: `${Object.keys(network.value.json()).length} sites`,
      target: true,
    });

    const dir = join(dataDir, 'libreqos');
    const written = await timed(() => app.libreqos.service.writeFiles(dir));
    const same = (await readFile(join(dir, 'ShapedDevices.csv'), 'utf8')) === csv.value.body;
    results.push({
      name: 'scheduled export (both files)',
      seconds: written.seconds,
      detail: `${written.value.circuits} circuits, ${written.value.nodes} nodes${same ? '' : ' (CSV differs from the download!)'}`,
      target: true,
    });
    if (!same) missed.push('the scheduled CSV differs from the download');

    console.log(`\n${'export'.padEnd(44)}${'seconds'.padStart(9)}  detail`);
    for (const r of results) {
      const over = r.target && r.seconds > TARGET_S;
      if (over) missed.push(`${r.name}: ${r.seconds.toFixed(2)} s > ${TARGET_S} s`);
      console.log(`${r.name.padEnd(44)}${r.seconds.toFixed(2).padStart(9)}  ${r.detail}${over ? '  MISSED' : ''}`);
    }
    console.log(`\ntarget: every export under ${TARGET_S} s for ${SUBSCRIBERS.toLocaleString('en-US')} subscribers`);
  } finally {
    await app.close();
    await database.close();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
  if (missed.length) {
    console.error(`missed:\n  ${missed.join('\n  ')}`);
    process.exit(1);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
