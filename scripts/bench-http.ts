/**
 * `npm run bench:http`: API throughput against a bare baseline measured in the same run (issue 15).
 * For each database (PostgreSQL when one answers at BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres,
 * in a throwaway database; and the embedded PGlite) it seeds the demo data, starts the real portal as a production
 * process (`node --import tsx server/server.ts`, logging at info to a pipe, rate limits counting) and the bare
 * server of scripts/bench-bare-server.ts (plain Fastify + pg or PGlite running the same two queries per page), and
 * fires autocannon (20 connections, 1 s warm-up, then `--seconds`, default 3; `--rounds`, default 3, alternating
 * portal and bare, the better of each kept) at the signed-in admin's
 * GET /api/plans, /api/users, /api/tickets, /api/subscriptions and the public GET /api/plans. Prints req/s, p50
 * and p99 of both and the ratio; exits 1 when any ratio is under the target (0.7, `--target=`) or a request failed.
 * `--db=postgres|pglite` runs one database only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { postgresAnswers } from './bench-common';
import { DEMO_PASSWORD, seedDemoData } from '../server/db/seed';
import { createSecretBox } from '../server/lib/secret-box';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const TARGET = Number(arg('target') ?? 0.7);
const SECONDS = Number(arg('seconds') ?? 3);
const ONLY = arg('db');
const ROUNDS = Number(arg('rounds') ?? 3);
const ROOT = new URL('..', import.meta.url).pathname;
const SECRETS = {
  JWT_SECRET: 'bench-http-jwt-secret-0123456789abcdefghij',
  COOKIE_SECRET: 'bench-http-cookie-secret-0123456789abcdefg',
  SECRETS_KEY: 'bench-http-secrets-key-0123456789abcdefghi',
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Child {
  base: string;
  stop(): Promise<void>;
}

async function start(name: string, args: string[], env: Record<string, string>): Promise<Child> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stdout!.resume();
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${err}`);
    const ok = await fetch(`${base}/api/plans`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${name} did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(url: string, headers: Record<string, string>): Promise<Measured> {
  await autocannon({ url, connections: 20, duration: 1, headers });
  const r = await autocannon({ url, connections: 20, duration: SECONDS, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
}

/** The faster of two measurements (failed requests always count). */
function better(a: Measured | null, b: Measured): Measured {
  if (!a) return b;
  const best = b.rps > a.rps ? b : a;
  return { ...best, errors: a.errors + b.errors };
}

const CALLS: Array<{ label: string; path: string; auth: boolean }> = [
  { label: 'GET /api/plans (admin)', path: '/api/plans', auth: true },
  { label: 'GET /api/users (admin)', path: '/api/users', auth: true },
  { label: 'GET /api/tickets (admin)', path: '/api/tickets', auth: true },
  { label: 'GET /api/subscriptions (admin)', path: '/api/subscriptions', auth: true },
  { label: 'GET /api/plans (public)', path: '/api/plans', auth: false },
];

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@isp.local', password: DEMO_PASSWORD, rememberMe: false }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { tokens: { access: { token: string } } } }).data.tokens.access.token;
}

const PORTAL_ENV = {
  ...SECRETS,
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  APP_URL: 'https://portal.bench.test',
  SERVE_SPA: 'false',
  SEED_DEMO: 'false',
  RADIUS_ENABLED: 'false',
  DEVICE_POLLER: 'false',
  BILLING_SCHEDULER: 'false',
  BACKUP_SCHEDULER: 'false',
  DEVICE_BACKUP_SCHEDULER: 'false',
  // Counted (the limiter's cost is the portal's) but never reached by the bench.
  API_RATE_LIMIT: '1000000',
};

type Row = { db: string; label: string; portal: Measured; bare: Measured };

async function runDb(kind: 'postgres' | 'pglite', rows: Row[]): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), `isp-bench-http-${kind}-`));
  let dbUrl: string | null = null;
  let dropDb = async () => {};
  try {
    if (kind === 'postgres') {
      const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
      const name = `isp_bench_http_${Date.now()}`;
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`create database ${name}`);
      await c.end();
      const u = new URL(admin);
      u.pathname = `/${name}`;
      dbUrl = u.toString();
      dropDb = async () => {
        const d = new pg.Client({ connectionString: admin });
        await d.connect();
        await d.query(`drop database if exists ${name} with (force)`);
        await d.end();
      };
    }
    const database = await openDatabase(dbUrl ? { databaseUrl: dbUrl } : { pgliteDir: join(dataDir, 'db') });
    await database.migrate();
    await seedDemoData(database.db, { box: createSecretBox(SECRETS.SECRETS_KEY) });
    await database.close();

    // PGlite's folder belongs to one process: the bare server gets a copy of it, so both run side by side and each
    // call is measured on the portal and right after on the bare server (the machine's load is alike for both).
    if (!dbUrl) cpSync(join(dataDir, 'db'), join(dataDir, 'bare-db'), { recursive: true });
    const portal = await start('portal', ['server/server.ts'], {
      ...PORTAL_ENV,
      DATA_DIR: dataDir,
      ...(dbUrl ? { DATABASE_URL: dbUrl } : { DATABASE_URL: '' }),
    });
    const bare = await start(
      'bare server',
      ['scripts/bench-bare-server.ts'],
      dbUrl ? { DATABASE_URL: dbUrl } : { DATABASE_URL: '', PGLITE_DIR: join(dataDir, 'bare-db') },
    ).catch(async (error) => {
      await portal.stop();
      throw error;
    });
    try {
      const token = await signIn(portal.base);
      // Two rounds, portal and bare alternating, the better of each kept: what else runs on the machine weighs on
      // one measurement, rarely on both.
      for (const call of CALLS) {
        const headers: Record<string, string> = call.auth ? { authorization: `Bearer ${token}` } : {};
        let mine: Measured | null = null;
        let theirs: Measured | null = null;
        for (let round = 0; round < ROUNDS; round++) {
          mine = better(mine, await measure(portal.base + call.path, headers));
          theirs = better(theirs, await measure(bare.base + call.path, {}));
        }
        rows.push({ db: kind, label: call.label, portal: mine!, bare: theirs! });
      }
    } finally {
      await portal.stop();
      await bare.stop();
    }
  } finally {
    await dropDb();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
if (ONLY !== 'pglite') {
  if (await postgresAnswers()) await runDb('postgres', rows);
  else console.log('PostgreSQL does not answer at BENCH_DATABASE_URL: PostgreSQL rows skipped');
}
if (ONLY !== 'postgres') await runDb('pglite', rows);

const f = (n: number) => n.toFixed(0).padStart(7);
console.log(
  `\nAPI throughput, best of ${ROUNDS} × ${SECONDS} s per call, 20 connections (target: portal ≥ ${TARGET} × bare)`,
);
console.log('db        call                              portal req/s  p50  p99 |  bare req/s  p50  p99 | ratio');
let failed = false;
for (const r of rows) {
  const ratio = r.portal.rps / r.bare.rps;
  const bad = ratio < TARGET || r.portal.errors > 0 || r.bare.errors > 0;
  failed ||= bad;
  console.log(
    `${r.db.padEnd(9)} ${r.label.padEnd(33)} ${f(r.portal.rps)} ${String(r.portal.p50).padStart(4)} ${String(r.portal.p99).padStart(4)} | ${f(r.bare.rps)} ${String(r.bare.p50).padStart(4)} ${String(r.bare.p99).padStart(4)} | ${ratio.toFixed(2)}${bad ? '  MISSED' : ''}${r.portal.errors ? ` (${r.portal.errors} failed requests)` : ''}`,
  );
}
process.exit(failed ? 1 : 0);
