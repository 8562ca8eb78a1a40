/**
 * `npm run bench:stall` (issue 33): does one person's heavy work hold up everyone else? On the large data set
 * (scripts/seed-large.ts: 100 000 customers, 1 000 000 invoices each with a payment, 200 000 tickets), the portal
 * runs in its own process, as in production, with RADIUS on loopback. While a probe every 50 ms times
 *
 *   - GET /api/health/live,
 *   - an authenticated list call (GET /api/users, 20 a page, as the bench admin),
 *   - a RADIUS PAP Access-Request of an active PPPoE subscriber (answered Access-Accept),
 *
 * the bench runs, one after the other: nothing (the baseline of the same run), a 100 000-voucher batch (until its
 * job has made every code), a full backup, the users CSV export (100 000 rows, read to the end) and the dashboard
 * (this year, and two years). For each it prints p50, p99 and max of every probe, and exits 1 when a p99 is over
 * 100 ms or a max over 250 ms (--p99= and --max= to change), or a probe failed.
 *
 * The RADIUS probe is an in-process UDP client (the `radius` package, as bench:radius) rather than a radclient
 * process per request: starting a process every 50 ms would time process creation on this 2-core machine, not
 * the portal's answer. (FreeRADIUS' radclient talks to the same server in the voucher and cut-off tests.)
 *
 * Databases: the embedded PGlite (a seeded folder cached in data/bench-stall-pglite, copied for each run) and
 * PostgreSQL when one answers at BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; database
 * isp_bench_stall, seeded once). `--db=pglite|postgres` runs one. Seeding takes minutes the first time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import radius from 'radius';
import { openDatabase, type Database } from '../server/db/client';
import { devices, plans, subscriptions, users } from '../server/db/schema';
import { serviceCredentials } from '../server/db/schema/radius';
import { createSecretBox } from '../server/lib/secret-box';
import { EMBEDDED_VACUUM_TABLES } from '../server/modules/system/embedded-vacuum';
import { postgresAnswers, serveBenchPortal } from './bench-common';
import { BENCH_ADMIN, prepareDatabase, seedLargeData, type SqlClient } from './seed-large';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const P99_TARGET = Number(arg('p99') ?? 100);
const MAX_TARGET = Number(arg('max') ?? 250);
const ONLY = arg('db');
const PROBE_MS = 50;
const IDLE_MS = 5_000;
const RADIUS_TIMEOUT_MS = 3_000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PGLITE_CACHE = join(ROOT, 'data', 'bench-stall-pglite');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRETS_KEY = 'bench-stall-secrets-key-0123456789abcdefghij';
const NAS_SECRET = 'bench-stall-nas-secret';
const SUBSCRIBER = { username: 'stall-probe', password: 'Probe-Password-1' };

// ------------------------------------------------------------------------------------------------------------
// Data: the large seed, plus a NAS and one PPPoE subscriber for the RADIUS probe

/** PGlite's query as the seed's client (it reads rows and rowCount). */
function pgliteClient(database: Database): SqlClient {
  return {
    query: async (text, params) => {
      const r = await database.pglite!.query<Record<string, unknown>>(text, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? null };
    },
  };
}

async function addProbeSubscriber(database: Database): Promise<void> {
  const { db } = database;
  const box = createSecretBox(SECRETS_KEY);
  await db.delete(devices).where(eq(devices.name, 'stall-nas'));
  await db
    .insert(devices)
    .values({ name: 'stall-nas', vendor: 'mikrotik', host: '127.0.0.1', radiusSecret: box.seal(NAS_SECRET) });
  if ((await db.select().from(serviceCredentials).where(eq(serviceCredentials.username, SUBSCRIBER.username))).length) {
    await db
      .update(serviceCredentials)
      .set({ passwordSealed: box.seal(SUBSCRIBER.password) })
      .where(eq(serviceCredentials.username, SUBSCRIBER.username));
    return;
  }
  const now = new Date();
  const [plan] = await db.select().from(plans).limit(1);
  const [person] = await db
    .insert(users)
    .values({ name: 'Stall Probe', email: 'stall-probe@bench.local', passwordHash: 'x' })
    .returning();
  const [line] = await db
    .insert(subscriptions)
    .values({
      userId: person!.id,
      planId: plan!.id,
      status: 'active',
      currentPeriodStart: now,
      currentPeriodEnd: new Date(now.getTime() + 3650 * 86_400_000),
    })
    .returning();
  await db
    .insert(serviceCredentials)
    .values({ subscriptionId: line!.id, username: SUBSCRIBER.username, passwordSealed: box.seal(SUBSCRIBER.password) });
}

/** A copy of the seeded PGlite folder (seeded into the cache the first time). */
interface Prepared {
  url?: string;
  dataDir: string;
  cleanup: () => void;
}

async function preparePglite(): Promise<Prepared> {
  if (!existsSync(join(PGLITE_CACHE, 'db', 'PG_VERSION'))) {
    console.log(`seeding the embedded database in ${PGLITE_CACHE} (once; minutes)...`);
    rmSync(PGLITE_CACHE, { recursive: true, force: true });
    mkdirSync(PGLITE_CACHE, { recursive: true });
    const database = await openDatabase({ pgliteDir: join(PGLITE_CACHE, 'db') });
    try {
      await database.migrate();
      await seedLargeData(pgliteClient(database));
    } finally {
      await database.close();
    }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'isp-bench-stall-'));
  console.log('copying the seeded embedded database...');
  cpSync(join(PGLITE_CACHE, 'db'), join(dataDir, 'db'), { recursive: true });
  const database = await openDatabase({ pgliteDir: join(dataDir, 'db') });
  try {
    await database.migrate();
    await addProbeSubscriber(database);
    // What the portal's periodic embedded-vacuum job keeps clean (the seed's million upserts left dead rows).
    for (const table of EMBEDDED_VACUUM_TABLES) await database.pglite!.query(`VACUUM (ANALYZE) "${table}"`);
  } finally {
    await database.close();
  }
  return { dataDir, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

async function preparePostgres(): Promise<Prepared> {
  const url = new URL(ADMIN_URL);
  url.pathname = '/isp_bench_stall';
  await prepareDatabase(url.toString());
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await seedLargeData(client);
    // What earlier runs added (voucher batches) goes, so every run starts alike.
    await client.query('DELETE FROM voucher_batches');
  } finally {
    await client.end();
  }
  const database = await openDatabase({ databaseUrl: url.toString() });
  try {
    await addProbeSubscriber(database);
  } finally {
    await database.close();
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'isp-bench-stall-'));
  return { url: url.toString(), dataDir, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

// ------------------------------------------------------------------------------------------------------------
// The portal, in its own process

async function servePortal(args: { databaseUrl?: string; dataDir: string }): Promise<void> {
  const running = await serveBenchPortal({
    ...args,
    secretsKey: SECRETS_KEY,
    env: { API_RATE_LIMIT: '1000000', BACKUP_SCHEDULER: 'false' },
  });
  const port = (running.app.server.address() as { port: number }).port;
  process.stdout.write(`READY ${port} ${running.app.radius.ports()!.authPort}\n`);
}

function startPortal(args: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<{ child: ChildProcess; base: string; radiusPort: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', JSON.stringify(args)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\d+) (\d+)/.exec(out);
      if (m) resolve({ child, base: `http://127.0.0.1:${m[1]}`, radiusPort: Number(m[2]) });
    });
    child.once('exit', (code) => reject(new Error(`portal exited with ${code}: ${out}`)));
  });
}

// ------------------------------------------------------------------------------------------------------------
// Probes

type ProbeName = 'live' | 'list' | 'radius';
const PROBES: ProbeName[] = ['live', 'list', 'radius'];

class RadiusProbe {
  private readonly socket = createSocket('udp4');
  private id = 0;
  private readonly waiting = new Map<number, (ok: boolean) => void>();

  constructor(private readonly port: number) {
    this.socket.on('message', (msg) => {
      const answer = radius.decode({ packet: msg, secret: NAS_SECRET });
      const done = this.waiting.get(answer.identifier);
      this.waiting.delete(answer.identifier);
      done?.(answer.code === 'Access-Accept');
    });
  }

  async open(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
  }

  /** Resolves true on Access-Accept, false on anything else or no answer in RADIUS_TIMEOUT_MS. */
  send(): Promise<boolean> {
    this.id = (this.id + 1) % 256;
    const identifier = this.id;
    const packet = radius.encode({
      code: 'Access-Request',
      secret: NAS_SECRET,
      identifier,
      attributes: [
        ['User-Name', SUBSCRIBER.username],
        ['User-Password', SUBSCRIBER.password],
        ['NAS-IP-Address', '127.0.0.1'],
        ['Service-Type', 'Framed-User'],
        ['Framed-Protocol', 'PPP'],
      ],
    });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(identifier);
        resolve(false);
      }, RADIUS_TIMEOUT_MS);
      this.waiting.set(identifier, (ok) => {
        clearTimeout(timer);
        resolve(ok);
      });
      this.socket.send(packet, this.port, '127.0.0.1');
    });
  }

  close(): void {
    this.socket.close();
  }
}

interface Sample {
  ms: number;
  ok: boolean;
}

/** Fires the three probes every PROBE_MS (without waiting for earlier ones) until stop() is called. */
function startProbes(base: string, token: string, rad: RadiusProbe): { stop(): Promise<Record<ProbeName, Sample[]>> } {
  const samples: Record<ProbeName, Sample[]> = { live: [], list: [], radius: [] };
  const inFlight = new Set<Promise<void>>();
  const time = (name: ProbeName, run: () => Promise<boolean>) => {
    const started = performance.now();
    const p = run()
      .catch(() => false)
      .then((ok) => {
        samples[name].push({ ms: performance.now() - started, ok });
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  const tick = () => {
    time(
      'live',
      async () =>
        (await fetch(`${base}/api/health/live`).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        })) === 200,
    );
    time(
      'list',
      async () =>
        (await fetch(`${base}/api/users?page=1&limit=20`, { headers: { authorization: `Bearer ${token}` } }).then(
          async (r) => {
            await r.arrayBuffer();
            return r.status;
          },
        )) === 200,
    );
    time('radius', () => rad.send());
  };
  tick();
  const timer = setInterval(tick, PROBE_MS);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      return samples;
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

// ------------------------------------------------------------------------------------------------------------
// Heavy work

// biome-ignore lint/suspicious/noExplicitAny: each caller reads the fields it expects of the JSON it asked for
type Json = any;

async function api(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Json }> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text.length;
  }
  return { status: res.status, json };
}

function expectStatus(what: string, got: { status: number; json: unknown }, ...wanted: number[]): void {
  if (!wanted.includes(got.status)) throw new Error(`${what}: ${got.status} ${JSON.stringify(got.json).slice(0, 300)}`);
}

const HEAVY: Array<{ label: string; run: (base: string, token: string) => Promise<string> }> = [
  {
    label: 'nothing (baseline)',
    run: async () => {
      await new Promise((r) => setTimeout(r, IDLE_MS));
      return `${IDLE_MS / 1000} s`;
    },
  },
  {
    label: '100 000-voucher batch',
    run: async (base, token) => {
      const [plan] = (await api(base, token, 'GET', '/api/plans')).json.data.items;
      const created = await api(base, token, 'POST', '/api/vouchers/batches', {
        plan_id: plan.id,
        count: 100_000,
        validity_minutes: 1440,
        price: 100,
      });
      expectStatus('voucher batch', created, 201, 202);
      for (;;) {
        const b = await api(base, token, 'GET', `/api/vouchers/batches/${created.json.data.id}`);
        if (b.json.data.status === 'ready') return `${b.json.data.generated} codes`;
        await new Promise((r) => setTimeout(r, 500));
      }
    },
  },
  {
    label: 'full backup',
    run: async (base, token) => {
      const r = await api(base, token, 'POST', '/api/backups');
      expectStatus('backup', r, 201);
      return `${(r.json.data.size / 1e6).toFixed(0)} MB`;
    },
  },
  {
    label: 'users CSV export',
    run: async (base, token) => {
      const res = await fetch(`${base}/api/users/export.csv`, { headers: { authorization: `Bearer ${token}` } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`users export: ${res.status}`);
      return `${text.split('\n').length - 2} rows`;
    },
  },
  {
    label: 'dashboard (year, two years) x3',
    run: async (base, token) => {
      const today = new Date().toISOString().slice(0, 10);
      const twoYears = new Date(Date.now() - 730 * 86_400_000).toISOString().slice(0, 10);
      for (let i = 0; i < 3; i++) {
        expectStatus('dashboard', await api(base, token, 'GET', '/api/dashboard/stats?timeFrame=year'), 200);
        expectStatus(
          'dashboard',
          await api(base, token, 'GET', `/api/dashboard/stats?timeFrame=custom&startDate=${twoYears}&endDate=${today}`),
          200,
        );
      }
      return '6 calls';
    },
  },
];

interface Row {
  db: string;
  work: string;
  note: string;
  seconds: number;
  probes: Record<ProbeName, { p50: number; p99: number; max: number; n: number; failed: number }>;
}

async function runDb(kind: 'pglite' | 'postgres', rows: Row[]): Promise<void> {
  const prepared = kind === 'pglite' ? await preparePglite() : await preparePostgres();
  const portal = await startPortal({ databaseUrl: prepared.url, dataDir: prepared.dataDir });
  const rad = new RadiusProbe(portal.radiusPort);
  await rad.open();
  try {
    const login = await fetch(`${portal.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...BENCH_ADMIN, rememberMe: false }),
    });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
    const token = ((await login.json()) as { data: { tokens: { access: { token: string } } } }).data.tokens.access
      .token;
    if (!(await rad.send())) throw new Error('the RADIUS probe is not accepted');
    // Warm-up: the first calls compile the code paths and fill the caches.
    for (let i = 0; i < 20; i++)
      await Promise.all([
        fetch(`${portal.base}/api/users?page=1&limit=20`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
          r.arrayBuffer(),
        ),
        rad.send(),
      ]);
    for (const work of HEAVY) {
      const probes = startProbes(portal.base, token, rad);
      const started = performance.now();
      const note = await work.run(portal.base, token);
      const seconds = (performance.now() - started) / 1000;
      const samples = await probes.stop();
      const stats = Object.fromEntries(
        PROBES.map((name) => {
          const ms = samples[name].map((s) => s.ms).sort((a, b) => a - b);
          return [
            name,
            {
              p50: percentile(ms, 50),
              p99: percentile(ms, 99),
              max: ms[ms.length - 1] ?? 0,
              n: ms.length,
              failed: samples[name].filter((s) => !s.ok).length,
            },
          ];
        }),
      ) as Row['probes'];
      rows.push({ db: kind, work: work.label, note, seconds, probes: stats });
      console.log(
        `${kind} · ${work.label} (${note}, ${seconds.toFixed(1)} s): ${PROBES.map((p) => `${p} p99 ${stats[p].p99.toFixed(0)} ms, max ${stats[p].max.toFixed(0)} ms`).join(' · ')}`,
      );
    }
  } finally {
    rad.close();
    portal.child.kill('SIGTERM');
    await new Promise((r) => portal.child.once('exit', r));
    prepared.cleanup();
  }
}

async function main(): Promise<void> {
  const kinds: Array<'pglite' | 'postgres'> = [];
  if (!ONLY || ONLY === 'pglite') kinds.push('pglite');
  if (!ONLY || ONLY === 'postgres') {
    if (await postgresAnswers(ADMIN_URL)) kinds.push('postgres');
    else console.log(`PostgreSQL does not answer at ${ADMIN_URL}: skipped`);
  }
  const rows: Row[] = [];
  for (const kind of kinds) await runDb(kind, rows);
  console.log(
    `\nTarget: every probe p99 under ${P99_TARGET} ms and max under ${MAX_TARGET} ms, none failed (probe every ${PROBE_MS} ms)\n`,
  );
  console.log('| database | heavy work | took | probe | n | p50 ms | p99 ms | max ms | failed |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  let bad = 0;
  for (const r of rows) {
    for (const name of PROBES) {
      const s = r.probes[name];
      const over = s.p99 > P99_TARGET || s.max > MAX_TARGET || s.failed > 0;
      if (over) bad++;
      console.log(
        `| ${r.db} | ${r.work} (${r.note}) | ${r.seconds.toFixed(1)} s | ${name} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.max.toFixed(1)} | ${s.failed}${over ? ' ✗' : ''} |`,
      );
    }
  }
  console.log(bad ? `\n${bad} probe(s) over target` : '\nall probes within target');
  process.exit(bad ? 1 : 0);
}

if (process.argv.includes('--serve')) {
  void servePortal(JSON.parse(process.argv[process.argv.indexOf('--serve') + 1]!));
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
