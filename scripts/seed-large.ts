/**
 * `npm run seed:large`: fills a PostgreSQL database with a large data set for `npm run bench:api` — 100 000
 * customers, 150 000 subscriptions, 1 000 000 invoices each with a payment, 200 000 tickets — spread over the
 * last two years, with set-based INSERT … SELECT generate_series (a minute or two, not hours) — and 10 000 000
 * RADIUS accounting sessions (`--sessions=N` for another count) whose Framed-IP-Address comes from a /16 pool,
 * each address reused ~150 times over the two years, for the address history ("who had this address then").
 *
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/isp_bench): created and migrated if needed.
 * Already seeded → nothing to do; `--reset` empties the tables first. Also creates the bench admin
 * (bench-admin@bench.local / Password123!). Not part of `npm test` or CI.
 */
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { hashPassword } from '../server/lib/passwords';

export const DEFAULT_BENCH_URL = 'postgres://postgres@127.0.0.1:5432/isp_bench';
export const BENCH_ADMIN = { email: 'bench-admin@bench.local', password: 'Password123!' };

const SIZES = { users: 100_000, subscriptions: 150_000, payments: 1_000_000, tickets: 200_000 };
const SESSIONS = Number(process.argv.find((a) => a.startsWith('--sessions='))?.slice(11) ?? 10_000_000);
/** The pool the bench sessions' addresses come from (100.64.0.0/16) and its size. */
export const BENCH_SESSION_POOL = { first: '100.64.0.0', size: 65_536 };

/** Creates the database named in the URL when it does not exist, then applies the migrations. */
export async function prepareDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      console.log(`created database ${name}`);
    }
  } finally {
    await client.end();
  }
  const database = await openDatabase({ databaseUrl: url });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
}

/** What the seed needs of a database client: node-postgres' Client or Pool, or an adapter over PGlite (bench:stall). */
export interface SqlClient {
  // biome-ignore lint/suspicious/noExplicitAny: node-postgres and PGlite type their rows as any; the seed reads them as it wrote them
  query(text: string, params?: unknown[]): Promise<{ rows: any[]; rowCount?: number | null }>;
}

/** The bench admin account (idempotent). */
export async function ensureBenchAdmin(client: SqlClient): Promise<void> {
  const hash = await hashPassword(BENCH_ADMIN.password);
  await client.query(
    `INSERT INTO users (name, email, password_hash, role, status, is_verified, email_verified_at)
     VALUES ('Bench Admin', $1, $2, 'admin', 'active', true, now())
     ON CONFLICT (email) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = 'admin', status = 'active'`,
    [BENCH_ADMIN.email, hash],
  );
}

async function step(client: SqlClient, label: string, text: string, params: unknown[] = []): Promise<void> {
  const started = performance.now();
  const result = await client.query(text, params);
  const rows = result.rowCount == null ? '' : ` (${result.rowCount.toLocaleString('en-US')} rows)`;
  console.log(`${label}${rows}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function seed(client: SqlClient): Promise<void> {
  const hash = await hashPassword('Password123!');
  // One pseudo-random value per row and purpose, reproducible: hashtext of the row number and a salt.
  const rnd = (salt: string, g = 'g') => `((hashtext(${g}::text || '${salt}') & 2147483647)::float8 / 2147483647)`;
  const ago = (salt: string, g = 'g') => `(now() - ${rnd(salt, g)} * interval '730 days')`;

  await step(
    client,
    'plan',
    `INSERT INTO plans (name, slug, download_mbps, upload_mbps, price, currency, billing_cycle)
     VALUES ('Bench Fibre 100', 'bench-fibre-100', 100, 20, 3999, 'USD', 'monthly') ON CONFLICT DO NOTHING`,
  );
  await step(
    client,
    'users',
    `INSERT INTO users (name, email, password_hash, role, status, phone, company, is_verified, created_at, updated_at)
     SELECT 'Bulk Customer ' || g, 'bulk' || g || '@bench.local', $1, 'user',
            CASE WHEN ${rnd('st')} < 0.90 THEN 'active' WHEN ${rnd('st')} < 0.97 THEN 'suspended' ELSE 'disabled' END,
            '+1 555 ' || lpad(g::text, 7, '0'),
            CASE WHEN g % 10 = 0 THEN 'Company ' || (g % 500) END,
            true, ${ago('u')}, now()
     FROM generate_series(1, ${SIZES.users}) g`,
    [hash],
  );
  await step(
    client,
    'numbering customers',
    `CREATE TEMP TABLE bulk_users AS SELECT row_number() OVER (ORDER BY id) AS rn, id FROM users WHERE email LIKE 'bulk%@bench.local'`,
  );
  await client.query('CREATE UNIQUE INDEX ON bulk_users (rn)');
  await step(
    client,
    'subscriptions',
    `INSERT INTO subscriptions (user_id, plan_id, status, created_at, updated_at)
     SELECT u.id, p.id,
            CASE WHEN ${rnd('ss')} < 0.70 THEN 'active' WHEN ${rnd('ss')} < 0.80 THEN 'suspended'
                 -- A customer has at most one pending order (subscriptions_one_pending_per_user): g up to the number
                 -- of customers meets each customer once, later g meet them again.
                 WHEN ${rnd('ss')} < 0.95 OR g > ${SIZES.users} THEN 'cancelled' ELSE 'pending' END,
            ${ago('s')}, least(now(), ${ago('s')} + ${rnd('su')} * interval '90 days')
     FROM generate_series(1, ${SIZES.subscriptions}) g
     JOIN bulk_users u ON u.rn = 1 + (g::bigint * 7919) % ${SIZES.users}
     CROSS JOIN (SELECT id FROM plans WHERE slug = 'bench-fibre-100') p`,
  );
  await step(
    client,
    'numbering subscriptions',
    `CREATE TEMP TABLE bulk_subs AS SELECT row_number() OVER (ORDER BY id) AS rn, id, user_id FROM subscriptions`,
  );
  await client.query('CREATE UNIQUE INDEX ON bulk_subs (rn)');
  await step(
    client,
    'invoices',
    `INSERT INTO invoices (number, user_id, subscription_id, status, currency, line_items, subtotal, tax_rate_bp, tax, total_amount,
                           issue_date, due_date, paid_date, created_at, updated_at)
     SELECT 'BENCH-' || g, s.user_id, s.id, x.status, 'USD', '[]'::jsonb, x.amount, 0, 0, x.amount,
            x.issued::date, (x.issued + interval '7 days')::date,
            CASE WHEN x.status = 'paid' THEN x.issued + ${rnd('pd')} * interval '6 days' END, x.issued, x.issued
     FROM generate_series(1, ${SIZES.payments}) g
     JOIN bulk_subs s ON s.rn = 1 + (g::bigint * 104729) % ${SIZES.subscriptions}
     CROSS JOIN LATERAL (SELECT
       CASE WHEN ${rnd('is')} < 0.90 THEN 'paid' WHEN ${rnd('is')} < 0.96 THEN 'unpaid' WHEN ${rnd('is')} < 0.99 THEN 'overdue' ELSE 'cancelled' END AS status,
       1999 + (g % 40) * 250 AS amount,
       ${ago('i')} AS issued) x`,
  );
  await step(
    client,
    'payments',
    `INSERT INTO payments (invoice_id, user_id, provider, transaction_id, status, amount, currency, payment_method, payment_date, created_at, updated_at)
     SELECT i.id, i.user_id, 'manual', 'bench-' || i.number,
            CASE WHEN i.status = 'paid' THEN 'paid' WHEN i.status = 'cancelled' THEN 'failed' ELSE 'pending' END,
            i.total_amount, i.currency, 'bank_transfer', coalesce(i.paid_date, i.created_at), i.created_at, i.created_at
     FROM invoices i WHERE i.number LIKE 'BENCH-%'`,
  );
  await step(
    client,
    'tickets',
    `INSERT INTO tickets (number, subject, description, category, priority, status, created_by, created_at, updated_at, resolved_at)
     SELECT 'TB-' || g, 'Bench ticket ' || g, 'Generated for the benchmark.',
            (ARRAY['billing','technical','installation','account','other'])[1 + g % 5],
            (ARRAY['low','normal','high','urgent'])[1 + (g / 5) % 4],
            x.status, u.id, x.created, x.created, CASE WHEN x.status IN ('resolved','closed') THEN x.created + ${rnd('tr')} * interval '10 days' END
     FROM generate_series(1, ${SIZES.tickets}) g
     JOIN bulk_users u ON u.rn = 1 + (g::bigint * 31) % ${SIZES.users}
     CROSS JOIN LATERAL (SELECT
       CASE WHEN ${rnd('ts')} < 0.15 THEN 'open' WHEN ${rnd('ts')} < 0.25 THEN 'in_progress' WHEN ${rnd('ts')} < 0.30 THEN 'waiting_customer'
            WHEN ${rnd('ts')} < 0.60 THEN 'resolved' ELSE 'closed' END AS status,
       ${ago('t')} AS created) x`,
  );
  for (const table of ['users', 'subscriptions', 'invoices', 'payments', 'tickets'])
    await step(client, `vacuum analyze ${table}`, `VACUUM ANALYZE ${table}`);
}

/**
 * RADIUS sessions for the address history: session g has address g mod 65 536 of 100.64.0.0/16 in its round
 * g / 65 536; the rounds split the last two years, so one address's sessions follow each other (a dynamic pool),
 * each by another subscription. In chunks of 1 000 000 so progress shows.
 */
async function seedSessions(client: pg.Client, total: number): Promise<void> {
  const { rows } = await client.query(
    `SELECT count(*)::int AS n FROM radius_sessions WHERE acct_session_id LIKE 'bench-%'`,
  );
  if (rows[0].n >= total) {
    console.log(`already ${rows[0].n.toLocaleString('en-US')} bench RADIUS sessions`);
    return;
  }
  await client.query(`DELETE FROM radius_sessions WHERE acct_session_id LIKE 'bench-%'`);
  await client.query(
    `CREATE TEMP TABLE IF NOT EXISTS bench_subs AS SELECT row_number() OVER (ORDER BY id) AS rn, id FROM subscriptions`,
  );
  await client.query('CREATE UNIQUE INDEX IF NOT EXISTS bench_subs_rn ON bench_subs (rn)');
  const { rows: subs } = await client.query('SELECT count(*)::int AS n FROM bench_subs');
  const rounds = Math.max(1, Math.ceil(total / BENCH_SESSION_POOL.size));
  const slot = `(interval '730 days' / ${rounds})`;
  for (let from = 1; from <= total; from += 1_000_000) {
    const to = Math.min(total, from + 999_999);
    await step(
      client,
      `radius sessions ${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')}`,
      `INSERT INTO radius_sessions (acct_session_id, nas_ip, username, subscription_id, framed_ip, started_at, updated_at, stopped_at,
                                    session_time, input_octets, output_octets, status)
       SELECT 'bench-' || g, '192.0.2.1', 'bench' || s.rn, s.id,
              '100.64.' || ((g % ${BENCH_SESSION_POOL.size}) / 256) || '.' || (g % 256),
              x.started, x.stopped, x.stopped, extract(epoch FROM x.stopped - x.started)::int, g % 1000000, (g % 1000000) * 8, 'closed'
       FROM generate_series(${from}, ${to}) g
       JOIN bench_subs s ON s.rn = 1 + ((g % ${BENCH_SESSION_POOL.size}) * 7 + (g / ${BENCH_SESSION_POOL.size}) * 104729) % ${subs[0].n}
       CROSS JOIN LATERAL (SELECT now() - interval '730 days' + (g / ${BENCH_SESSION_POOL.size}) * ${slot} AS started) b
       CROSS JOIN LATERAL (SELECT b.started AS started, b.started + (0.1 + 0.8 * ((hashtext(g::text || 'rs') & 2147483647)::float8 / 2147483647)) * ${slot} AS stopped) x`,
    );
  }
  await step(client, 'vacuum analyze radius_sessions', 'VACUUM ANALYZE radius_sessions');
}

/** The large data set (customers, subscriptions, invoices, payments, tickets) and the bench admin, unless already there. */
export async function seedLargeData(client: SqlClient): Promise<void> {
  const { rows } = await client.query(`SELECT count(*)::int AS n FROM users WHERE email LIKE 'bulk%@bench.local'`);
  if (rows[0].n > 0) {
    console.log(
      `already seeded (${rows[0].n.toLocaleString('en-US')} bulk customers); run with --reset to start again`,
    );
  } else {
    const started = performance.now();
    await seed(client);
    console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await ensureBenchAdmin(client);
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL || DEFAULT_BENCH_URL;
  const reset = process.argv.includes('--reset');
  await prepareDatabase(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (reset) {
      await step(
        client,
        'reset',
        'TRUNCATE payments, invoices, ticket_attachments, ticket_replies, tickets, subscriptions, refresh_tokens, auth_tokens, users CASCADE',
      );
    }
    await seedLargeData(client);
    await seedSessions(client, SESSIONS);
    const counts = await client.query(
      `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM subscriptions)::int AS subscriptions,
              (SELECT count(*) FROM invoices)::int AS invoices, (SELECT count(*) FROM payments)::int AS payments,
              (SELECT count(*) FROM tickets)::int AS tickets, (SELECT count(*) FROM radius_sessions)::int AS radius_sessions`,
    );
    console.log(`${new URL(url).pathname.slice(1)}:`, counts.rows[0]);
  } finally {
    await client.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
